// Shared by the backup and restore system tests (scripts/backup-restore.ts on a seeded database).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll } from "vitest";
import { openPglite } from "~/db/client.server";
import { createSystemDatabase, runScript, TSX, type SystemDatabase } from "./database";

export type Run = { status: number | null; output: string };

// Each test chains five or six script processes (seed, check, backup, restore…), each loading the
// application: on a loaded 2-core machine the chain alone passed two minutes.
export const CHAIN_TIMEOUT_MS = 360_000;

export function backupScript(database: SystemDatabase, args: string[]): Run {
  const r = spawnSync(process.execPath, [TSX, "scripts/backup-restore.ts", ...args], {
    env: { ...process.env, ...database.env, LOG_LEVEL: "warn" },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

/** "OK : 21 tables, 227 lignes, …" → [21, 227]. */
export function summary(output: string): [number, number] {
  const m = /OK : (\d+) tables, (\d+) lignes/.exec(output);
  if (!m) throw new Error(`pas de résumé dans la sortie :\n${output}`);
  return [Number(m[1]), Number(m[2])];
}

export const manifestCounts = (file: string) =>
  (JSON.parse(readFileSync(`${file}.counts.json`, "utf8")) as { counts: Array<{ table: string; rows: number }> }).counts;

export async function pgCount(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`select count(*) as n from "${table}"`);
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

export async function pgliteCount(dataDir: string, table: string): Promise<number> {
  const db = await openPglite(path.join(dataDir, "pglite"));
  try {
    const { rows } = await db.query<{ n: string }>(`select count(*)::int as n from "${table}"`);
    return Number(rows[0]!.n);
  } finally {
    await db.close();
  }
}

/** Cleanups run after the file's tests, last registered first. */
export function useCleanups(): Array<() => Promise<void> | void> {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
  });
  return cleanups;
}

export async function seeded(
  driver: "pg" | "pglite",
  cleanups: Array<() => Promise<void> | void>,
): Promise<{ database: SystemDatabase; work: string }> {
  const database = await createSystemDatabase(driver);
  const work = mkdtempSync(path.join(os.tmpdir(), "rt-backup-test-"));
  cleanups.push(() => database.drop(), () => rmSync(work, { recursive: true, force: true }));
  runScript(database, ["scripts/seed.ts", "--members", "10", "--seed", "7"]);
  return { database, work };
}

// Backup and restore with the project's script (scripts/backup-restore.ts) on a seeded database:
// the check restores into a fresh database and finds the same row counts, a backup file restores
// into a new database (PostgreSQL: pg_dump/pg_restore; embedded: the PGlite data directory), and
// a restore whose counts differ from the dump's is reported as failed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "~/db/client.server";
import { createSystemDatabase, postgresUrl, runScript, TSX, type SystemDatabase } from "./support/database";
import { formatCount, recordReliability } from "./support/report";

type Run = { status: number | null; output: string };

function backupScript(database: SystemDatabase, args: string[]): Run {
  const r = spawnSync(process.execPath, [TSX, "scripts/backup-restore.ts", ...args], {
    env: { ...process.env, ...database.env, LOG_LEVEL: "warn" },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

/** "OK : 21 tables, 227 lignes, …" → [21, 227]. */
function summary(output: string): [number, number] {
  const m = /OK : (\d+) tables, (\d+) lignes/.exec(output);
  if (!m) throw new Error(`pas de résumé dans la sortie :\n${output}`);
  return [Number(m[1]), Number(m[2])];
}

const manifestCounts = (file: string) => (JSON.parse(readFileSync(`${file}.counts.json`, "utf8")) as { counts: Array<{ table: string; rows: number }> }).counts;

async function pgCount(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`select count(*) as n from "${table}"`);
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

async function pgliteCount(dataDir: string, table: string): Promise<number> {
  const db = await openPglite(path.join(dataDir, "pglite"));
  try {
    const { rows } = await db.query<{ n: string }>(`select count(*)::int as n from "${table}"`);
    return Number(rows[0]!.n);
  } finally {
    await db.close();
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

async function seeded(driver: "pg" | "pglite"): Promise<{ database: SystemDatabase; work: string }> {
  const database = await createSystemDatabase(driver);
  const work = mkdtempSync(path.join(os.tmpdir(), "rt-backup-test-"));
  cleanups.push(() => database.drop(), () => rmSync(work, { recursive: true, force: true }));
  runScript(database, ["scripts/seed.ts", "--members", "10", "--seed", "7"]);
  return { database, work };
}

const PG_CHECK = "Sauvegarde pg_dump restaurée dans une base neuve";
if (!postgresUrl) {
  recordReliability({ check: PG_CHECK, measured: "non mesuré : TEST_DATABASE_URL absent (pg_dump sauvegarde un serveur PostgreSQL)", status: "SKIP" });
}

describe.skipIf(!postgresUrl)("PostgreSQL: pg_dump and pg_restore (set TEST_DATABASE_URL)", () => {
  it("restores a dump into a fresh database with the same row count in every table", async () => {
    const { database, work } = await seeded("pg");

    const check = backupScript(database, ["check"]);
    expect(check.status, check.output).toBe(0);
    expect(check.output).toMatch(/pg_dump \(PostgreSQL\) \d+/);
    const [tables, rows] = summary(check.output);
    expect(check.output).not.toContain("DIFFÉRENT");
    // The seed's members are in the table, with their count on both sides.
    const users = await pgCount(database.url!, "user");
    expect(users).toBeGreaterThanOrEqual(10);
    expect(check.output).toMatch(new RegExp(`^user\\s+${users}\\s+${users}\\s+OK$`, "m"));
    // The scratch database is gone.
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const scratch = await admin.query("select datname from pg_database where datname like $1", [`${new URL(database.url!).pathname.slice(1)}_restore_check_%`]);
    await admin.end();
    expect(scratch.rows).toEqual([]);

    // A backup file, restored into a new database by db:restore --create.
    const file = path.join(work, "reseau.dump");
    const backup = backupScript(database, ["backup", "--out", file]);
    expect(backup.status, backup.output).toBe(0);
    const target = new URL(database.url!);
    target.pathname = `${target.pathname}_r`;
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      await c.query(`drop database if exists ${target.pathname.slice(1)} with (force)`).finally(() => c.end());
    });
    const restore = backupScript(database, ["restore", "--file", file, "--into", target.toString(), "--create"]);
    expect(restore.status, restore.output).toBe(0);
    expect(summary(restore.output)).toEqual([tables, rows]);
    expect(await pgCount(target.toString(), "user")).toBe(users);
    expect(await pgCount(target.toString(), "profiles")).toBe(await pgCount(database.url!, "profiles"));

    // Restoring into a database that is not empty is refused.
    const again = backupScript(database, ["restore", "--file", file, "--into", target.toString()]);
    expect(again.status).toBe(2);
    expect(again.output).toContain("n'est pas vide");

    // A restore whose counts differ from the dump's fails, naming the table.
    const counts = manifestCounts(file).map((t) => (t.table === "profiles" ? { ...t, rows: t.rows + 1 } : t));
    writeFileSync(`${file}.counts.json`, JSON.stringify({ driver: "pg", createdAt: "", source: "", counts }));
    const other = new URL(database.url!);
    other.pathname = `${other.pathname}_r2`;
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      await c.query(`drop database if exists ${other.pathname.slice(1)} with (force)`).finally(() => c.end());
    });
    const mismatch = backupScript(database, ["restore", "--file", file, "--into", other.toString(), "--create"]);
    expect(mismatch.status).toBe(1);
    expect(mismatch.output).toMatch(/^profiles\s+\d+\s+\d+\s+DIFFÉRENT$/m);

    recordReliability({
      check: PG_CHECK,
      measured: `${formatCount(tables)} tables, ${formatCount(rows)} lignes : mêmes nombres après pg_restore`,
      ok: true,
      data: { tables, rows },
    });
  });
});

describe("embedded PGlite: the data directory", () => {
  it("restores the archived data directory with the same row count in every table", async () => {
    const { database, work } = await seeded("pglite");

    const check = backupScript(database, ["check"]);
    expect(check.status, check.output).toBe(0);
    expect(check.output).not.toContain("DIFFÉRENT");
    const [tables, rows] = summary(check.output);

    const file = path.join(work, "pglite.tar.gz");
    const backup = backupScript(database, ["backup", "--out", file]);
    expect(backup.status, backup.output).toBe(0);
    const restoredDir = path.join(work, "restored");
    const restore = backupScript(database, ["restore", "--file", file, "--data-dir", restoredDir]);
    expect(restore.status, restore.output).toBe(0);
    expect(summary(restore.output)).toEqual([tables, rows]);
    // The restored directory is a working database on its own.
    const users = await pgliteCount(database.dataDir, "user");
    expect(users).toBeGreaterThanOrEqual(10);
    expect(await pgliteCount(restoredDir, "user")).toBe(users);

    // An occupied data directory is never overwritten.
    const again = backupScript(database, ["restore", "--file", file, "--data-dir", restoredDir]);
    expect(again.status).toBe(2);
    expect(again.output).toContain("contient déjà une base");

    recordReliability({
      check: "Sauvegarde du dossier PGlite restaurée",
      measured: `${formatCount(tables)} tables, ${formatCount(rows)} lignes : mêmes nombres après restauration`,
      ok: true,
      data: { tables, rows },
    });
  });
});

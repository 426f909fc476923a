// A throwaway database for the benchmark: a PostgreSQL database with a random name on
// BENCH_DATABASE_URL (or a local server), dropped at the end; else a fresh PGlite data dir.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import pg from "pg";

export const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres";

export type BenchDatabase = {
  driver: "pg" | "pglite";
  /** DATABASE_URL for the app (PostgreSQL), undefined for PGlite. */
  url?: string;
  /** DATA_DIR of the app (secret key, local mailbox, and the PGlite data). */
  dataDir: string;
  description: string;
  drop: () => Promise<void>;
  /** Best effort, synchronous part of the cleanup (process exit). */
  dropSync: () => void;
};

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The PostgreSQL test database (TEST_DATABASE_URL or the local server) when it answers, else undefined. */
export async function reachableTestDatabase(): Promise<string | undefined> {
  const candidate = process.env.TEST_DATABASE_URL?.trim() || "postgres://postgres@127.0.0.1:5432/test";
  return (await reachable(candidate)) ? candidate : undefined;
}

export async function createBenchDatabase(dataDir: string, forcePglite = false): Promise<BenchDatabase> {
  const explicit = process.env.BENCH_DATABASE_URL?.trim();
  const server = explicit || LOCAL_POSTGRES;
  if (!forcePglite && (await reachable(server))) {
    const name = `rt_bench_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    const url = new URL(server);
    url.pathname = `/${name}`;
    let dropped = false;
    const drop = async () => {
      if (dropped) return;
      dropped = true;
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    };
    return {
      driver: "pg",
      url: url.toString(),
      dataDir,
      description: `PostgreSQL ${url.host}/${name} (temporaire)`,
      drop,
      // On an abrupt exit, a short-lived child process drops it (no async work left here).
      dropSync: () => {
        if (dropped) return;
        dropped = true;
        const script =
          "const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1]});" +
          `c.connect().then(()=>c.query('drop database if exists ${name} with (force)')).finally(()=>c.end())`;
        const r = spawnSync(process.execPath, ["-e", script, server], { stdio: "ignore", timeout: 10_000 });
        if (r.status !== 0) console.error(`Base temporaire non supprimée : ${name} (dropdb ${name})`);
      },
    };
  }
  if (explicit) throw new Error(`BENCH_DATABASE_URL injoignable : ${explicit}`);
  const cleanup = () => rmSync(dataDir, { recursive: true, force: true });
  return {
    driver: "pglite",
    dataDir,
    description: `PGlite ${dataDir} (temporaire)`,
    drop: async () => cleanup(),
    dropSync: cleanup,
  };
}

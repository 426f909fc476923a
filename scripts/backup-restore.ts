// Backups of the database, and proof that they restore.
//
//   npm run db:backup -- [--out FILE]
//   npm run db:restore -- --file FILE [--into URL] [--create] [--data-dir DIR]
//   npm run db:backup-check -- [--into URL] [--keep]
//
// PostgreSQL (DATABASE_URL): pg_dump in custom format, taken in an exported snapshot so that the
// row counts written beside the dump (FILE.counts.json) are exactly those of the dump, even while
// the application keeps writing. pg_restore (--no-owner --no-privileges, one transaction) into an
// empty database; the restored counts are compared with the dump's, table by table.
// Embedded PGlite (DATA_DIR, server stopped): the data directory as a .tar.gz (PGlite's
// dumpDataDir), restored into a new data directory (or, for the check, into memory).
// `db:backup-check` does both on a scratch database and exits 1 when any count differs.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { openPglite } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import {
  compareCounts,
  countSql,
  databaseName,
  formatChecks,
  LIST_TABLES_SQL,
  majorOf,
  quoteIdent,
  splitPassword,
  tableLabel,
  versionProblem,
  withDatabase,
  type CountCheck,
  type TableCount,
} from "./backup/lib";

const USAGE = `Usage :
  npm run db:backup -- [--out FICHIER]
  npm run db:restore -- --file FICHIER [--into URL] [--create] [--data-dir DOSSIER]
  npm run db:backup-check -- [--into URL] [--keep]`;

class BackupError extends Error {}

type Manifest = { driver: "pg" | "pglite"; createdAt: string; source: string; tools?: Record<string, string>; counts: TableCount[] };

const manifestPath = (file: string) => `${file}.counts.json`;
const total = (counts: TableCount[]) => counts.reduce((sum, t) => sum + t.rows, 0);
const sizeMb = (file: string) => `${(statSync(file).size / 1024 / 1024).toFixed(1)} Mo`;
const stamp = () => new Date().toISOString().replace(/[:.]/g, "-").replace(/-\d{3}Z$/, "Z");

// ---- PostgreSQL ------------------------------------------------------------------------------

type Queryable = { query: (text: string) => Promise<{ rows: Array<Record<string, unknown>> }> };

async function countTables(db: Queryable): Promise<TableCount[]> {
  const { rows } = await db.query(LIST_TABLES_SQL);
  const counts: TableCount[] = [];
  for (const row of rows) {
    const schema = String(row.schema);
    const name = String(row.name);
    const result = await db.query(countSql(schema, name));
    counts.push({ table: tableLabel(schema, name), rows: Number(result.rows[0]?.n ?? 0) });
  }
  return counts;
}

function toolVersion(tool: string): string {
  const r = spawnSync(tool, ["--version"], { encoding: "utf8" });
  if (r.error || r.status !== 0) {
    throw new BackupError(`${tool} introuvable : installez le client PostgreSQL (paquet postgresql-client) de la version du serveur`);
  }
  return r.stdout.trim();
}

async function serverVersion(client: pg.Client): Promise<{ text: string; major: number | null }> {
  const { rows } = await client.query<{ v: string; n: string }>("select current_setting('server_version') as v, current_setting('server_version_num') as n");
  return { text: rows[0]!.v, major: majorOf(rows[0]!.n) };
}

function checkTool(tool: string, server: { text: string; major: number | null }): string {
  const version = toolVersion(tool);
  const problem = versionProblem(tool, majorOf(version), server.major);
  if (problem) throw new BackupError(problem);
  console.log(`  ${version} — serveur PostgreSQL ${server.text}`);
  return version;
}

/** Runs a PostgreSQL client tool; the password goes through PGPASSWORD, never the command line. */
function runTool(tool: string, args: string[], password: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} a échoué (code ${code})`))));
  });
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function pgBackup(url: string, file: string): Promise<TableCount[]> {
  const client = await connect(url);
  try {
    const server = await serverVersion(client);
    const pgDump = checkTool("pg_dump", server);
    // One snapshot for the counts and the dump: both see exactly the same rows.
    await client.query("begin isolation level repeatable read read only");
    const { rows } = await client.query<{ snapshot: string }>("select pg_export_snapshot() as snapshot");
    const counts = await countTables(client);
    const { url: bare, password } = splitPassword(url);
    await runTool("pg_dump", ["--format=custom", `--snapshot=${rows[0]!.snapshot}`, `--file=${file}`, `--dbname=${bare}`], password);
    await client.query("commit");
    const manifest: Manifest = { driver: "pg", createdAt: new Date().toISOString(), source: databaseName(url), tools: { pg_dump: pgDump, server: server.text }, counts };
    writeFileSync(manifestPath(file), `${JSON.stringify(manifest, null, 2)}\n`);
    return counts;
  } finally {
    await client.end();
  }
}

async function createDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const admin = await connect(withDatabase(url, "postgres"));
  try {
    const { rows } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (rows.length > 0) throw new BackupError(`la base ${name} existe déjà : choisissez un autre nom, ou omettez --create pour restaurer dans une base vide existante`);
    await admin.query(`create database ${quoteIdent(name)}`);
  } finally {
    await admin.end();
  }
}

async function pgRestore(file: string, url: string, options: { create: boolean }): Promise<TableCount[]> {
  if (options.create) await createDatabase(url);
  const client = await connect(url);
  try {
    const server = await serverVersion(client);
    checkTool("pg_restore", server);
    const existing = await client.query(LIST_TABLES_SQL);
    if (existing.rows.length > 0) {
      throw new BackupError(`la base ${databaseName(url)} n'est pas vide (${existing.rows.length} tables) : restaurez dans une base neuve (--create)`);
    }
    const { url: bare, password } = splitPassword(url);
    await runTool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${bare}`, file], password);
    return await countTables(client);
  } finally {
    await client.end();
  }
}

async function dropDatabase(url: string): Promise<void> {
  const admin = await connect(withDatabase(url, "postgres"));
  try {
    await admin.query(`drop database if exists ${quoteIdent(databaseName(url))} with (force)`);
  } finally {
    await admin.end();
  }
}

// ---- PGlite ----------------------------------------------------------------------------------

function pgliteQueryable(db: PGlite): Queryable {
  return { query: async (text) => ({ rows: (await db.query<Record<string, unknown>>(text)).rows }) };
}

async function pgliteBackup(dataDir: string, file: string): Promise<TableCount[]> {
  const dir = path.join(dataDir, "pglite");
  if (!existsSync(dir)) throw new BackupError(`aucune base embarquée dans ${dir}`);
  const db = await openPglite(dir);
  try {
    const counts = await countTables(pgliteQueryable(db));
    const archive = await db.dumpDataDir("gzip");
    writeFileSync(file, Buffer.from(await archive.arrayBuffer()));
    const manifest: Manifest = { driver: "pglite", createdAt: new Date().toISOString(), source: path.resolve(dataDir), counts };
    writeFileSync(manifestPath(file), `${JSON.stringify(manifest, null, 2)}\n`);
    return counts;
  } finally {
    await db.close();
  }
}

/** Into `dataDir`/pglite (which must not hold a database yet), or into memory without dataDir. */
async function pgliteRestore(file: string, dataDir: string | undefined): Promise<TableCount[]> {
  let target: string | undefined;
  if (dataDir) {
    target = path.join(dataDir, "pglite");
    if (existsSync(target) && readdirSync(target).length > 0) {
      throw new BackupError(`${target} contient déjà une base : restaurez dans un autre dossier (--data-dir)`);
    }
  }
  const archive = new Blob([readFileSync(file)], { type: "application/x-gzip" });
  const db = await openPglite(target, archive);
  try {
    return await countTables(pgliteQueryable(db));
  } finally {
    await db.close();
  }
}

// ---- commands --------------------------------------------------------------------------------

function isPgliteArchive(file: string): boolean {
  const head = readFileSync(file).subarray(0, 5);
  if (head.subarray(0, 5).toString("latin1") === "PGDMP") return false;
  if (head[0] === 0x1f && head[1] === 0x8b) return true;
  throw new BackupError(`${file} n'est ni une archive pg_dump (format custom) ni une sauvegarde PGlite (.tar.gz)`);
}

function report(checks: CountCheck[]): boolean {
  console.log(formatChecks(checks));
  const bad = checks.filter((c) => !c.ok);
  if (bad.length > 0) {
    console.error(`\n${bad.length} table(s) différente(s) : ${bad.map((c) => c.table).join(", ")}`);
    return false;
  }
  const rows = checks.reduce((sum, c) => sum + (c.restored ?? 0), 0);
  console.log(`\nOK : ${checks.length} tables, ${rows} lignes, mêmes nombres de lignes après restauration.`);
  return true;
}

async function backup(out: string | undefined): Promise<void> {
  const env = getEnv();
  mkdirSync("backups", { recursive: true });
  if (env.DATABASE_URL) {
    const file = out ?? path.join("backups", `${databaseName(env.DATABASE_URL)}-${stamp()}.dump`);
    console.log(`Sauvegarde de la base ${databaseName(env.DATABASE_URL)} (pg_dump) → ${file}`);
    const counts = await pgBackup(env.DATABASE_URL, file);
    console.log(`${counts.length} tables, ${total(counts)} lignes, ${sizeMb(file)} ; nombres de lignes dans ${manifestPath(file)}`);
  } else {
    const file = out ?? path.join("backups", `pglite-${stamp()}.tar.gz`);
    console.log(`Sauvegarde de la base embarquée ${path.join(env.DATA_DIR, "pglite")} → ${file} (serveur arrêté)`);
    const counts = await pgliteBackup(env.DATA_DIR, file);
    console.log(`${counts.length} tables, ${total(counts)} lignes, ${sizeMb(file)} ; nombres de lignes dans ${manifestPath(file)}`);
  }
}

async function restore(file: string | undefined, options: { into?: string; create: boolean; dataDir?: string }): Promise<boolean> {
  if (!file) throw new BackupError("--file est obligatoire");
  if (!existsSync(file)) throw new BackupError(`${file} introuvable`);
  const manifest = existsSync(manifestPath(file)) ? (JSON.parse(readFileSync(manifestPath(file), "utf8")) as Manifest) : undefined;
  let counts: TableCount[];
  if (isPgliteArchive(file)) {
    const dataDir = options.dataDir ?? getEnv().DATA_DIR;
    console.log(`Restauration de ${file} dans ${path.join(dataDir, "pglite")}`);
    counts = await pgliteRestore(file, dataDir);
  } else {
    const url = options.into ?? getEnv().DATABASE_URL;
    if (!url) throw new BackupError("base cible inconnue : --into postgres://… ou DATABASE_URL");
    console.log(`Restauration de ${file} dans la base ${databaseName(url)} (pg_restore)`);
    counts = await pgRestore(file, url, { create: options.create });
  }
  if (!manifest) {
    console.log(`${counts.length} tables, ${total(counts)} lignes restaurées (pas de ${manifestPath(file)} pour comparer).`);
    return true;
  }
  return report(compareCounts(manifest.counts, counts));
}

async function check(options: { into?: string; keep: boolean }): Promise<boolean> {
  const env = getEnv();
  const dir = mkdtempSync(path.join(os.tmpdir(), "rt-backup-check-"));
  const started = Date.now();
  try {
    if (env.DATABASE_URL) {
      const file = path.join(dir, "backup.dump");
      const target = options.into ?? withDatabase(env.DATABASE_URL, `${databaseName(env.DATABASE_URL)}_restore_check_${Date.now().toString(36)}`);
      console.log(`1. pg_dump de ${databaseName(env.DATABASE_URL)}`);
      const source = await pgBackup(env.DATABASE_URL, file);
      console.log(`   ${sizeMb(file)}\n2. pg_restore dans la base neuve ${databaseName(target)}`);
      try {
        const restored = await pgRestore(file, target, { create: true });
        console.log(`3. Comparaison des nombres de lignes (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
        return report(compareCounts(source, restored));
      } finally {
        if (options.keep) console.log(`\nBase restaurée conservée : ${databaseName(target)} ; sauvegarde : ${file}`);
        else await dropDatabase(target);
      }
    }
    const file = path.join(dir, "pglite.tar.gz");
    console.log(`1. Archive du dossier de données PGlite ${path.join(env.DATA_DIR, "pglite")} (serveur arrêté)`);
    const source = await pgliteBackup(env.DATA_DIR, file);
    console.log(`   ${sizeMb(file)}\n2. Restauration en mémoire`);
    const restored = await pgliteRestore(file, undefined);
    console.log(`3. Comparaison des nombres de lignes (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    return report(compareCounts(source, restored));
  } finally {
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  const { values } = parseArgs({
    args,
    options: {
      out: { type: "string" },
      file: { type: "string" },
      into: { type: "string" },
      "data-dir": { type: "string" },
      create: { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  let ok = true;
  if (command === "backup") await backup(values.out);
  else if (command === "restore") ok = await restore(values.file, { into: values.into, create: values.create, dataDir: values["data-dir"] });
  else if (command === "check") ok = await check({ into: values.into, keep: values.keep });
  else throw new BackupError(`commande inconnue : ${command ?? "(aucune)"}`);
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  if (error instanceof BackupError || (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))) {
    console.error(`Erreur : ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});

// Migrates one template database per run; each test file then gets a fresh copy of it
// (PGlite: a data-dir dump loaded in memory; PostgreSQL: CREATE DATABASE … TEMPLATE).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The migrations and the engine that ran them: the PGlite template is migrated again only when one changes. */
function pgliteTemplateKey(): string {
  const hash = createHash("sha256");
  const files = readdirSync("drizzle", { recursive: true, encoding: "utf8" }).sort();
  for (const f of files) {
    const file = path.join("drizzle", f);
    if (!f.endsWith(".sql") && !f.endsWith(".json")) continue;
    hash.update(f).update(readFileSync(file));
  }
  for (const pkg of ["@electric-sql/pglite", "drizzle-orm"]) {
    hash.update(pkg).update(String((JSON.parse(readFileSync(`node_modules/${pkg}/package.json`, "utf8")) as { version: string }).version));
  }
  return hash.digest("hex").slice(0, 16);
}

export default async function setup() {
  process.env.NODE_ENV = "test";
  const { createDatabase, migrateDatabase, openPglite } = await import("../../app/db/client.server");
  const url = process.env.TEST_DATABASE_URL;
  let teardown: (() => Promise<void>) | undefined;
  if (url) {
    const { Client } = await import("pg");
    const admin = new Client({ connectionString: url });
    await admin.connect();
    const template = `rt_template_${process.pid}`;
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const target = new URL(url);
    target.pathname = `/${template}`;
    const holder = await createDatabase({ url: target.toString(), poolMax: 1 });
    await migrateDatabase(holder.db, holder.driver);
    await holder.close();
    process.env.TEST_PG_TEMPLATE = template;
    teardown = async () => {
      // Drop the per-file databases and the template.
      const { rows } = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like $1",
        [`rt_t_${process.pid}_%`],
      );
      for (const r of rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  // The PGlite template is kept between runs under a name made of its inputs (initdb and the
  // migrations take seconds); uncompressed, as each file loads it and gunzip was a third of that.
  const dir = path.join(os.tmpdir(), "rt-test-templates");
  const file = path.join(dir, `pglite-${pgliteTemplateKey()}.tar`);
  if (!existsSync(file)) {
    const client = await openPglite();
    const { drizzle } = await import("drizzle-orm/pglite");
    const db = drizzle(client);
    await migrateDatabase(db as never, "pglite");
    const dump = await client.dumpDataDir("none");
    await client.close();
    mkdirSync(dir, { recursive: true });
    // Written aside then renamed: another run starting now reads a whole file or none.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  process.env.TEST_PGLITE_TEMPLATE = file;
  return teardown;
}

// Migrates one template database per run; each test file then gets a fresh copy of it
// (PGlite: a data-dir dump loaded in memory; PostgreSQL: CREATE DATABASE … TEMPLATE).
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

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
  const client = await openPglite();
  const { drizzle } = await import("drizzle-orm/pglite");
  const db = drizzle(client);
  await migrateDatabase(db as never, "pglite");
  const dump = await client.dumpDataDir("gzip");
  await client.close();
  const dir = mkdtempSync(path.join(os.tmpdir(), "rt-test-"));
  const file = path.join(dir, "template.tar.gz");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.TEST_PGLITE_TEMPLATE = file;
  return teardown;
}

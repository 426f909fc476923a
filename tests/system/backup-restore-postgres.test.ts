// Backup and restore on PostgreSQL with the project's script (scripts/backup-restore.ts) on a
// seeded database: the check restores into a fresh database and finds the same row counts, a
// pg_dump file restores into a new database, and a restore whose counts differ from the dump's is
// reported as failed. The embedded driver's twin is backup-restore-pglite.test.ts (a file each, so
// that the two chains of script processes run side by side).
import path from "node:path";
import { writeFileSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { backupScript, CHAIN_TIMEOUT_MS, manifestCounts, pgCount, seeded, summary, useCleanups } from "./support/backup";
import { postgresUrl } from "./support/database";
import { formatCount, recordReliability } from "./support/report";

const cleanups = useCleanups();

const PG_CHECK = "Sauvegarde pg_dump restaurée dans une base neuve";
if (!postgresUrl) {
  recordReliability({ check: PG_CHECK, measured: "non mesuré : TEST_DATABASE_URL absent (pg_dump sauvegarde un serveur PostgreSQL)", status: "SKIP" });
}

describe.skipIf(!postgresUrl)("PostgreSQL: pg_dump and pg_restore (set TEST_DATABASE_URL)", () => {
  it("restores a dump into a fresh database with the same row count in every table", async () => {
    const { database, work } = await seeded("pg", cleanups);

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
  }, CHAIN_TIMEOUT_MS);
});


// Backup and restore of the embedded PGlite data directory with the project's script
// (scripts/backup-restore.ts) on a seeded database: the archive restores into a new directory
// with the same row counts, and an occupied directory is never overwritten.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backupScript, CHAIN_TIMEOUT_MS, pgliteCount, seeded, summary, useCleanups } from "./support/backup";
import { formatCount, recordReliability } from "./support/report";

const cleanups = useCleanups();

describe("embedded PGlite: the data directory", () => {
  it("restores the archived data directory with the same row count in every table", async () => {
    const { database, work } = await seeded("pglite", cleanups);

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
  }, CHAIN_TIMEOUT_MS);
});

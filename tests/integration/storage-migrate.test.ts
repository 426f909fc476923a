// npm run storage:migrate (issue 33, item 2; decision 039): every object copied from the database
// or the local directory to S3 and back, resumable (what is already there with the same SHA-256 is
// skipped) and verified (a copy that does not read back identical is not counted), with the
// command's summary; against s3rver on a random port.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedObjects } from "~/db/schema";
import { createDatabaseStorage } from "~/lib/storage/database-driver.server";
import { describeMigration, migrateObjects, migrationStores } from "~/lib/storage/migrate.server";
import { createLocalStorage } from "~/lib/storage/local-driver.server";
import { createS3Storage } from "~/lib/storage/s3-driver.server";
import type { StorageBackend } from "~/lib/storage/storage.server";
import { useTestDatabase } from "../support/db";
import { startTestS3Server, type TestS3Server } from "../support/s3-server";

const t = useTestDatabase();
let s3: TestS3Server;
let bucket: StorageBackend;
let dir: string;

beforeAll(async () => {
  s3 = await startTestS3Server();
  bucket = createS3Storage({ ...s3.config, maxAttempts: 1 });
  dir = mkdtempSync(path.join(os.tmpdir(), "rt-migrate-"));
});

afterAll(async () => {
  bucket.destroy?.();
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const objects = () => {
  const id = randomBytes(4).toString("hex");
  return [
    [`documents/${id}/a.pdf`, randomBytes(50_000), "application/pdf"],
    [`documents/${id}/b.png`, randomBytes(3_000), "image/png"],
    [`u${id}/1700000000-x.webp`, randomBytes(9_000), "image/webp"],
  ] as const;
};

async function keysOf(store: StorageBackend): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of store.listKeys()) keys.push(k);
  return keys.sort();
}

describe("migrateObjects", () => {
  it("database → S3, verified, then a second run copies nothing; S3 → local and back to the database", async () => {
    await t.db!.delete(storedObjects);
    const database = createDatabaseStorage();
    const seeded = objects();
    for (const [k, bytes, type] of seeded) await database.putObject(k, bytes, type);
    const first = await migrateObjects(database, bucket);
    expect(first).toMatchObject({ found: 3, copied: 3, skipped: 0, failed: [] });
    expect(first.bytesCopied).toBe(62_000);
    for (const [k, bytes] of seeded) expect(Buffer.compare(readFileSync(s3.objectFile(k)), bytes)).toBe(0);
    expect(await migrateObjects(database, bucket)).toMatchObject({ found: 3, copied: 0, skipped: 3, failed: [] });

    const local = createLocalStorage(path.join(dir, "back"), "/uploads/");
    const seededKeys = seeded.map(([k]) => k);
    const back = await migrateObjects(bucket, local);
    expect(back.failed).toEqual([]);
    expect(await keysOf(local)).toEqual(expect.arrayContaining([...seededKeys].sort()));
    for (const [k, bytes] of seeded) expect(Buffer.compare((await local.getObject(k))!.bytes, bytes)).toBe(0);
    await t.db!.delete(storedObjects);
    expect(await migrateObjects(local, database)).toMatchObject({ copied: back.found, failed: [] });
    expect(await keysOf(database)).toEqual(await keysOf(local));
  });

  it("resumes after an interruption: what was copied is skipped, the rest copied", async () => {
    const local = createLocalStorage(path.join(dir, "resume"), "/uploads/");
    const seeded = objects();
    for (const [k, bytes, type] of seeded) await local.putObject(k, bytes, type);
    let puts = 0;
    const failing: StorageBackend = {
      ...bucket,
      async putObject(k, bytes, type) {
        puts += 1;
        if (puts > 1) throw new Error("connection reset");
        await bucket.putObject(k, bytes, type);
      },
    };
    const interrupted = await migrateObjects(local, failing);
    expect(interrupted).toMatchObject({ found: 3, copied: 1, skipped: 0 });
    expect(interrupted.failed.map((f) => f.error)).toEqual(["connection reset", "connection reset"]);
    const resumed = await migrateObjects(local, bucket);
    expect(resumed).toMatchObject({ found: 3, copied: 2, skipped: 1, failed: [] });
    // An object changed at the source since is copied again (same key, another SHA-256).
    await local.putObject(seeded[0][0], Buffer.from("%PDF-1.7 v2"), "application/pdf");
    expect(await migrateObjects(local, bucket)).toMatchObject({ copied: 1, skipped: 2 });
  });

  it("does not count a copy that does not read back identical", async () => {
    const local = createLocalStorage(path.join(dir, "verify"), "/uploads/");
    const [[k, bytes, type]] = objects();
    await local.putObject(k, bytes, type);
    // A destination that damages what it stores (bad disk, faulty service).
    const damaging: StorageBackend = {
      ...bucket,
      async putObject(key, data, contentType) {
        await bucket.putObject(key, data, contentType);
        const file = s3.objectFile(key);
        const stored = readFileSync(file);
        stored[100] ^= 0xff;
        writeFileSync(file, stored);
      },
    };
    const summary = await migrateObjects(local, damaging);
    expect(summary).toMatchObject({ found: 1, copied: 0 });
    expect(summary.failed).toEqual([{ key: k, error: expect.stringMatching(/does not match its recorded SHA-256/) }]);
    expect(describeMigration("local", "s3", summary)).toContain("1 en échec");
  });

  it.each([
    [["database", "s3"], { from: "database", to: "s3" }],
    [["s3", "local"], { from: "s3", to: "local" }],
    [["s3", "s3"], { error: "--from et --to doivent désigner deux stockages différents." }],
    [["disque", "s3"], { error: "--from doit valoir database, local, s3 (reçu : disque)." }],
    [["local", undefined], { error: "--to doit valoir database, local, s3 (reçu : rien)." }],
  ] as const)("the command line %j", ([from, to], expected) => {
    expect(migrationStores(from, to)).toEqual(expected);
  });
});

// The command opens its own embedded database whatever the project's driver: one project runs it.
describe.skipIf(process.env.TEST_DB_DRIVER === "pg")("npm run storage:migrate", () => {
  const execFileAsync = promisify(execFile);
  // tsx's command line under this Node, as `npm run storage:migrate` runs it, without npx's lookup.
  const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
  const run = (args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }) =>
    execFileAsync(process.execPath, [tsx, ...args], options);
  it("copies the local directory to S3 and prints its summary; run again, it skips everything; bad usage exits with 2", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "rt-migrate-cli-"));
    try {
      const local = createLocalStorage(path.join(dataDir, "uploads"), "/uploads/");
      const seeded = objects();
      for (const [k, bytes, type] of seeded) await local.putObject(k, bytes, type);
      const env = {
        ...process.env,
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        LOG_LEVEL: "silent",
        STORAGE_S3_BUCKET: s3.config.bucket,
        STORAGE_S3_ENDPOINT: s3.config.endpoint,
        STORAGE_S3_ACCESS_KEY_ID: "S3RVER",
        STORAGE_S3_SECRET_ACCESS_KEY: "S3RVER",
        STORAGE_S3_FORCE_PATH_STYLE: "true",
      };
      const command = ["scripts/storage-migrate.ts", "--from", "local", "--to", "s3"];
      const first = await run(command, { env, cwd: process.cwd() });
      expect(first.stdout).toContain("Migration du stockage local → s3 :");
      expect(first.stdout).toContain("  3 copié(s) et vérifié(s)");
      expect(first.stdout).toContain("  0 en échec");
      for (const [k, bytes] of seeded) expect(Buffer.compare(readFileSync(s3.objectFile(k)), bytes)).toBe(0);
      const second = await run(command, { env, cwd: process.cwd() });
      expect(second.stdout).toContain("  3 déjà présent(s) à l’identique, ignoré(s)");
      const bad = await run(["scripts/storage-migrate.ts", "--from", "local", "--to", "local"], { env, cwd: process.cwd() }).catch((e: { code: number; stderr: string }) => e);
      expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining("--from et --to doivent désigner deux stockages différents.") });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

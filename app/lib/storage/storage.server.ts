// File storage behind one small interface (DESIGN §1): a local directory under DATA_DIR in
// embedded mode; the database (stored_objects) when the app runs on PostgreSQL, so that every
// instance serves the same files; an S3-compatible
// bucket when STORAGE_S3_BUCKET is set. Keys are paths such as
// "{userId}/{timestamp}-{random}.webp"; private documents live under "documents/".
import path from "node:path";
import { Readable } from "node:stream";
import { getDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { createDatabaseStorage } from "./database-driver.server";
import { isSafeKey } from "./keys";
import { createLocalStorage } from "./local-driver.server";
import { createS3Storage, s3ConfigFromEnv } from "./s3-driver.server";
import type { ObjectStream, StorageBackend, StorageDriver } from "./types";

export { isSafeKey } from "./keys";

export type { ObjectStream, OpenOptions, StorageBackend, StorageDriver, StoredObject } from "./types";

export { readObjectStream, StorageIntegrityError } from "./integrity.server";

/** The body of a Response streaming the object (an integrity failure aborts it before its end). */
export function webBody(stream: ObjectStream): ReadableStream<Uint8Array> {
  return Readable.toWeb(stream.body) as ReadableStream<Uint8Array>;
}

/** Public URLs of stored objects start with this path (served by routes/api/uploads-file.ts). */
export const UPLOADS_PATH = "/uploads/";

/** The storage key behind one of our public URLs; null for any other URL (external, legacy…). */
export function keyFromPublicUrl(url: string | null | undefined): string | null {
  if (!url || !url.startsWith(UPLOADS_PATH)) return null;
  const key = url.slice(UPLOADS_PATH.length);
  return isSafeKey(key) ? key : null;
}

const holder: { driver?: StorageDriver; local?: StorageBackend; database?: StorageBackend; s3?: StorageBackend } = {};

function localStorage(): StorageBackend {
  holder.local ??= createLocalStorage(path.resolve(getEnv().DATA_DIR, "uploads"), UPLOADS_PATH);
  return holder.local;
}

function databaseStorage(): StorageBackend {
  holder.database ??= createDatabaseStorage({ publicPrefix: UPLOADS_PATH, legacy: localStorage() });
  return holder.database;
}

/** The store the app would use without S3: the database on PostgreSQL, the local directory on PGlite. */
export function defaultStorage(): StorageBackend {
  return getDatabase().driver === "pg" ? databaseStorage() : localStorage();
}

/**
 * The process-wide driver: the one installed with setStorage if any; else the S3 bucket when
 * STORAGE_S3_BUCKET is set (reading through to the default store for objects not migrated yet);
 * else the database on PostgreSQL (with the local directory as a read fallback for files written
 * before) and the local directory on embedded PGlite. Decided on each call from the open
 * database, so a test file (or a script) that opens another database gets the matching driver.
 */
export function getStorage(): StorageDriver {
  if (holder.driver) return holder.driver;
  const s3 = s3ConfigFromEnv(getEnv());
  if (s3) {
    holder.s3 ??= createS3Storage({ ...s3, publicPrefix: UPLOADS_PATH, legacy: defaultStorage() });
    return holder.s3;
  }
  return defaultStorage();
}

/** The store named on the migration command's line, configured from the environment. */
export function storageNamed(name: "database" | "local" | "s3"): StorageBackend {
  if (name === "local") return localStorage();
  if (name === "database") return createDatabaseStorage({ publicPrefix: UPLOADS_PATH });
  const s3 = s3ConfigFromEnv(getEnv());
  if (!s3) throw new Error("S3 storage is not configured (STORAGE_S3_BUCKET)");
  return createS3Storage({ ...s3, publicPrefix: UPLOADS_PATH });
}

/** For tests: replaces the process-wide driver (undefined: back to the automatic choice, made afresh). */
export function setStorage(driver: StorageDriver | undefined) {
  holder.driver = driver;
  if (!driver) {
    holder.local = undefined;
    holder.database = undefined;
    holder.s3?.destroy?.();
    holder.s3 = undefined;
  }
}

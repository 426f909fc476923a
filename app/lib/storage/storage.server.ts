// File storage behind one small interface (DESIGN §1): a local directory under DATA_DIR in
// embedded mode; the database (stored_objects) when the app runs on PostgreSQL, so that every
// instance serves the same files (docs/decisions/012-document-storage.md). An S3-compatible
// driver can implement the same four calls when the app outgrows that. Keys are paths such as
// "{userId}/{timestamp}-{random}.webp"; private documents live under "documents/".
import path from "node:path";
import { getDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { createDatabaseStorage } from "./database-driver.server";
import { isSafeKey } from "./keys";
import { createLocalStorage } from "./local-driver.server";

export { isSafeKey } from "./keys";

export type StoredObject = { bytes: Buffer; contentType: string };

export interface StorageDriver {
  putObject(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  getObject(key: string): Promise<StoredObject | null>;
  deleteObject(key: string): Promise<void>;
  /** The URL under which the object is served to browsers (never for private keys). */
  publicUrl(key: string): string;
}

/** Public URLs of stored objects start with this path (served by routes/api/uploads-file.ts). */
export const UPLOADS_PATH = "/uploads/";

/** The storage key behind one of our public URLs; null for any other URL (external, legacy…). */
export function keyFromPublicUrl(url: string | null | undefined): string | null {
  if (!url || !url.startsWith(UPLOADS_PATH)) return null;
  const key = url.slice(UPLOADS_PATH.length);
  return isSafeKey(key) ? key : null;
}

const holder = globalThis as unknown as { __rtStorage?: StorageDriver; __rtLocalStorage?: StorageDriver; __rtDatabaseStorage?: StorageDriver };

function localStorage(): StorageDriver {
  holder.__rtLocalStorage ??= createLocalStorage(path.resolve(getEnv().DATA_DIR, "uploads"), UPLOADS_PATH);
  return holder.__rtLocalStorage;
}

/**
 * The process-wide driver: the one installed with setStorage if any, else the database on
 * PostgreSQL (with the local directory as a read fallback for files written before) and the
 * local directory on embedded PGlite. Decided on each call from the open database, so a test
 * file (or a script) that opens another database gets the matching driver.
 */
export function getStorage(): StorageDriver {
  if (holder.__rtStorage) return holder.__rtStorage;
  if (getDatabase().driver === "pg") {
    holder.__rtDatabaseStorage ??= createDatabaseStorage({ publicPrefix: UPLOADS_PATH, legacy: localStorage() });
    return holder.__rtDatabaseStorage;
  }
  return localStorage();
}

/** For tests: replaces the process-wide driver (undefined: back to the automatic choice, made afresh). */
export function setStorage(driver: StorageDriver | undefined) {
  holder.__rtStorage = driver;
  if (!driver) {
    holder.__rtLocalStorage = undefined;
    holder.__rtDatabaseStorage = undefined;
  }
}

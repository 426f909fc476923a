// File storage behind one small interface (DESIGN §1): a local directory under DATA_DIR by
// default; an S3-compatible driver can implement the same four calls when the app outgrows one
// machine. Keys are paths such as "{userId}/{timestamp}-{random}.webp".
import path from "node:path";
import { getEnv } from "~/lib/env.server";
import { createLocalStorage } from "./local-driver.server";

export type StoredObject = { bytes: Buffer; contentType: string };

export interface StorageDriver {
  putObject(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  getObject(key: string): Promise<StoredObject | null>;
  deleteObject(key: string): Promise<void>;
  /** The URL under which the object is served to browsers. */
  publicUrl(key: string): string;
}

/** Public URLs of stored objects start with this path (served by routes/api/uploads-file.ts). */
export const UPLOADS_PATH = "/uploads/";

// Letters, digits, "_" and "-" in every segment, dots only inside the last one's name: no
// ".." or absolute path can ever reach the driver.
const KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}(?:\/[A-Za-z0-9_-]{1,128}){0,3}\/[A-Za-z0-9_-]{1,128}\.[a-z0-9]{1,8}$/;

export function isSafeKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** The storage key behind one of our public URLs; null for any other URL (external, legacy…). */
export function keyFromPublicUrl(url: string | null | undefined): string | null {
  if (!url || !url.startsWith(UPLOADS_PATH)) return null;
  const key = url.slice(UPLOADS_PATH.length);
  return isSafeKey(key) ? key : null;
}

const holder = globalThis as unknown as { __rtStorage?: StorageDriver };

export function getStorage(): StorageDriver {
  holder.__rtStorage ??= createLocalStorage(path.resolve(getEnv().DATA_DIR, "uploads"), UPLOADS_PATH);
  return holder.__rtStorage;
}

/** For tests: replaces the process-wide driver. */
export function setStorage(driver: StorageDriver | undefined) {
  holder.__rtStorage = driver;
}

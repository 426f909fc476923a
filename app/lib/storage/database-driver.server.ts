// Storage driver on the database (PostgreSQL mode, docs/decisions/012-document-storage.md): the
// bytes live in stored_objects, so every instance behind the load balancer serves the same files
// without a shared disk. A write is one statement: a reader sees the whole object or none.
import { eq, sql } from "drizzle-orm";
import { db as processDb, type Db } from "~/db/client.server";
import { storedObjects } from "~/db/schema";
import { contentTypeOfKey, isPrivateKey, isSafeKey } from "./keys";
import type { StorageDriver } from "./storage.server";

export type DatabaseStorageOptions = {
  /** The database (the process-wide one by default). */
  db?: Db;
  publicPrefix?: string;
  /**
   * Objects written before this driver existed (a PostgreSQL deployment kept its profile images
   * on the local disk): read from there when the table does not have them, deleted there too.
   */
  legacy?: StorageDriver;
};

function checkKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}

export function createDatabaseStorage(options: DatabaseStorageOptions = {}): StorageDriver {
  const handle = options.db ?? processDb;
  const publicPrefix = options.publicPrefix ?? "/uploads/";
  const legacy = options.legacy;
  return {
    async putObject(key, bytes, contentType) {
      checkKey(key);
      // Same rule as the local driver: the extension says what the object is.
      if (contentTypeOfKey(key) !== contentType) throw new Error(`content type ${contentType} does not match ${key}`);
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      await handle
        .insert(storedObjects)
        .values({ key, contentType, bytes: buffer, sizeBytes: buffer.byteLength })
        .onConflictDoUpdate({
          target: storedObjects.key,
          set: { contentType, bytes: buffer, sizeBytes: buffer.byteLength, createdAt: sql`now()` },
        });
    },
    async getObject(key) {
      if (!isSafeKey(key)) return null;
      const [row] = await handle
        .select({ contentType: storedObjects.contentType, bytes: storedObjects.bytes })
        .from(storedObjects)
        .where(eq(storedObjects.key, key));
      if (row) return { bytes: row.bytes, contentType: row.contentType };
      return legacy ? legacy.getObject(key) : null;
    },
    async deleteObject(key) {
      checkKey(key);
      await handle.delete(storedObjects).where(eq(storedObjects.key, key));
      if (legacy) await legacy.deleteObject(key);
    },
    publicUrl(key) {
      checkKey(key);
      if (isPrivateKey(key)) throw new Error(`private storage key has no public URL: ${key}`);
      return `${publicPrefix}${key}`;
    },
  };
}

// Storage driver on the database (PostgreSQL mode): the
// bytes live in stored_objects, so every instance behind the load balancer serves the same files
// without a shared disk. A write is one statement: a reader sees the whole object or none.
import { Readable, pipeline } from "node:stream";
import { asc, eq, gt, sql } from "drizzle-orm";
import { db as processDb, type Db } from "~/db/client.server";
import { storedObjects } from "~/db/schema";
import { StorageIntegrityError, verifyingStream } from "./integrity.server";
import { checkKey, contentTypeOfKey, isSafeKey, publicUrlOfKey } from "./keys";
import type { StorageBackend, StorageDriver } from "./types";

/** A download reads the bytea in slices of this size, one short statement each (never the whole 20 MB at once). */
export const DATABASE_READ_SLICE_BYTES = 1024 * 1024;

export type DatabaseStorageOptions = {
  /** The database (the process-wide one by default). */
  db?: Db;
  publicPrefix?: string;
  /**
   * Objects written before this driver existed (a PostgreSQL deployment kept its profile images
   * on the local disk): read from there when the table does not have them, deleted there too.
   */
  legacy?: StorageDriver;
  /** Bytes read per statement by openObject (DATABASE_READ_SLICE_BYTES by default). */
  readSliceBytes?: number;
};

export function createDatabaseStorage(options: DatabaseStorageOptions = {}): StorageBackend {
  const handle = options.db ?? processDb;
  const publicPrefix = options.publicPrefix ?? "/uploads/";
  const legacy = options.legacy;
  const sliceBytes = options.readSliceBytes ?? DATABASE_READ_SLICE_BYTES;
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
    async openObject(key, openOptions = {}) {
      if (!isSafeKey(key)) return null;
      const [row] = await handle
        .select({ contentType: storedObjects.contentType, size: storedObjects.sizeBytes, createdAt: storedObjects.createdAt })
        .from(storedObjects)
        .where(eq(storedObjects.key, key));
      if (!row) return legacy ? legacy.openObject(key, openOptions) : null;
      let offset = 0;
      const source = new Readable({
        read() {
          if (offset >= row.size) {
            this.push(null);
            return;
          }
          handle
            .select({ part: sql<Buffer | Uint8Array>`substring(${storedObjects.bytes} from ${offset + 1} for ${sliceBytes})`, createdAt: storedObjects.createdAt })
            .from(storedObjects)
            .where(eq(storedObjects.key, key))
            .then(([slice]) => {
              // Each write of a key sets created_at: a changed one means the slices would mix two objects.
              if (!slice || slice.createdAt.getTime() !== row.createdAt.getTime()) throw new StorageIntegrityError(`stored object ${key} changed while it was read`);
              const part = Buffer.isBuffer(slice.part) ? slice.part : Buffer.from(slice.part);
              if (part.byteLength === 0) throw new StorageIntegrityError(`stored object ${key} is shorter than its recorded ${row.size} bytes`);
              offset += part.byteLength;
              this.push(part);
            })
            .catch((error: unknown) => this.destroy(error as Error));
        },
      });
      const body = pipeline(source, verifyingStream(key, { sha256: openOptions.sha256, length: row.size }), () => undefined);
      return { body, contentLength: row.size, contentType: row.contentType };
    },
    async deleteObject(key) {
      checkKey(key);
      await handle.delete(storedObjects).where(eq(storedObjects.key, key));
      if (legacy) await legacy.deleteObject(key);
    },
    publicUrl(key) {
      return publicUrlOfKey(publicPrefix, key);
    },
    async *listKeys() {
      let after = "";
      for (;;) {
        const rows = await handle
          .select({ key: storedObjects.key })
          .from(storedObjects)
          .where(gt(storedObjects.key, after))
          .orderBy(asc(storedObjects.key))
          .limit(1000);
        for (const row of rows) yield row.key;
        if (rows.length < 1000) return;
        after = rows[rows.length - 1].key;
      }
    },
    async sha256Of(key) {
      if (!isSafeKey(key)) return null;
      const [row] = await handle
        .select({ sha256: sql<string>`encode(sha256(${storedObjects.bytes}), 'hex')` })
        .from(storedObjects)
        .where(eq(storedObjects.key, key));
      return row?.sha256 ?? null;
    },
  };
}

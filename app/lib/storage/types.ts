// The storage interfaces on their own, so the drivers and the module that picks one never import each other.
import type { Readable } from "node:stream";

export type StoredObject = { bytes: Buffer; contentType: string };

/**
 * An object being read: its bytes flow through `body` (verified as they stream: a corrupted or
 * truncated object makes the stream fail before its last chunk), `contentLength` bytes in all.
 */
export type ObjectStream = { body: Readable; contentLength: number; contentType: string };

/** The SHA-256 (hex) recorded for the object by its feature, checked on top of the store's own. */
export type OpenOptions = { sha256?: string | null };

export interface StorageDriver {
  putObject(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  getObject(key: string): Promise<StoredObject | null>;
  /** The object as a stream, for plain downloads (null when there is none). */
  openObject(key: string, options?: OpenOptions): Promise<ObjectStream | null>;
  deleteObject(key: string): Promise<void>;
  /** The URL under which the object is served to browsers (never for private keys). */
  publicUrl(key: string): string;
}

/** What the migration command needs on top: every key, and the checksum the store has for one. */
export interface StorageBackend extends StorageDriver {
  listKeys(): AsyncIterable<string>;
  /** The SHA-256 (hex) of the stored object as the store knows it; null when there is no object. */
  sha256Of(key: string): Promise<string | null>;
  /** Closes the driver's connections, if it keeps any. */
  destroy?(): void;
}

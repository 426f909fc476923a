// Integrity of stored bytes: every object read through a driver is hashed and counted as it
// streams, and its last chunk is held back until the digest and the length match what was
// recorded, so a reader never receives the whole of an object that is not the one stored.
import { createHash } from "node:crypto";
import { Transform } from "node:stream";
import { logger } from "~/lib/logger.server";
import type { ObjectStream } from "./types";

/** Stored bytes that are not the recorded ones (corrupted, truncated, replaced): never served. */
export class StorageIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StorageIntegrityError";
    // The operator must hear of it even when the reader only sees an aborted download.
    logger.error({ err: this }, "stored object failed its integrity check");
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** S3's ChecksumSHA256 is the base64 of the raw digest; the project records it in hex. */
export function sha256HexToBase64(hex: string): string {
  return Buffer.from(hex, "hex").toString("base64");
}

/** The hex digest behind an S3 ChecksumSHA256; null for a composite (multipart "…-N") or malformed value. */
export function sha256Base64ToHex(base64: string | undefined): string | null {
  if (!base64 || !/^[A-Za-z0-9+/]{43}=$/.test(base64)) return null;
  return Buffer.from(base64, "base64").toString("hex");
}

export function isSha256Hex(value: unknown): value is string {
  return typeof value === "string" && SHA256_HEX.test(value);
}

export type Expected = { sha256?: string | null; length?: number | null };

/**
 * A pass-through that checks the bytes against `expected`: too many bytes fail at once; a wrong
 * digest or a short count fails at the end, before the last chunk is released.
 */
export function verifyingStream(key: string, expected: Expected): Transform {
  const hash = createHash("sha256");
  let count = 0;
  let held: Buffer | null = null;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      count += chunk.byteLength;
      if (expected.length != null && count > expected.length) {
        callback(new StorageIntegrityError(`stored object ${key} is longer than its recorded ${expected.length} bytes`));
        return;
      }
      if (held) this.push(held);
      held = chunk;
      callback();
    },
    flush(callback) {
      if (expected.length != null && count !== expected.length) {
        callback(new StorageIntegrityError(`stored object ${key} has ${count} bytes, ${expected.length} recorded`));
        return;
      }
      const digest = hash.digest("hex");
      if (expected.sha256 && digest !== expected.sha256) {
        callback(new StorageIntegrityError(`stored object ${key} does not match its recorded SHA-256`));
        return;
      }
      if (held) this.push(held);
      callback();
    },
  });
}

/**
 * The one digest the bytes must match, from every source that has one (the caller's record, the
 * store's own metadata or checksum); sources that disagree are an integrity error by themselves.
 */
export function agreedSha256(key: string, ...sources: Array<string | null | undefined>): string | null {
  const known = sources.filter((s): s is string => typeof s === "string" && s !== "");
  for (const s of known) {
    if (!isSha256Hex(s)) throw new StorageIntegrityError(`stored object ${key} has a malformed checksum`);
    if (s !== known[0]) throw new StorageIntegrityError(`stored object ${key}: its checksums disagree with the recorded SHA-256`);
  }
  return known[0] ?? null;
}

/** Reads an object stream to the end (verified), for the callers that need the bytes. */
export async function readObjectStream(stream: ObjectStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

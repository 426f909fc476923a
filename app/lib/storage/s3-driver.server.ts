// Storage driver on any S3-compatible service, with the
// official AWS SDK. The bucket stays private: public images are still served by /uploads/ and
// documents by their guarded routes. Every object carries its SHA-256: sent as ChecksumSHA256 on
// put (the service refuses bytes that do not match it) and kept as metadata, then checked against
// the service's checksum, the caller's record and the bytes themselves on every read.
import { pipeline, type Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from "@aws-sdk/client-s3";
import type { Env } from "~/lib/env.server";
import { agreedSha256, readObjectStream, sha256Base64ToHex, sha256Hex, sha256HexToBase64, StorageIntegrityError, verifyingStream } from "./integrity.server";
import { checkKey, contentTypeOfKey, isSafeKey, publicUrlOfKey } from "./keys";
import type { ObjectStream, OpenOptions, StorageBackend, StorageDriver } from "./types";

export type S3StorageConfig = {
  bucket: string;
  region: string;
  /** Unset for AWS itself; the service's URL otherwise (MinIO, Garage, Ceph, Scaleway, OVH, R2…). */
  endpoint?: string;
  /** Both or neither: without them the SDK's default chain (instance role, AWS_* variables…). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style URLs (endpoint/bucket/key) for services without per-bucket host names. */
  forcePathStyle: boolean;
};

export type S3StorageOptions = S3StorageConfig & {
  publicPrefix?: string;
  /** Objects of the store used before S3 (not migrated yet): read from there when the bucket lacks them, deleted there too. */
  legacy?: StorageDriver;
  /** Attempts per request, retries included (3 by default). */
  maxAttempts?: number;
};

/** Metadata key of the SHA-256 (hex), kept whatever checksums the service itself supports. */
const SHA256_METADATA = "sha256";

/** The S3 configuration from the validated environment; null when STORAGE_S3_BUCKET is unset. */
export function s3ConfigFromEnv(env: Pick<Env, "STORAGE_S3_BUCKET" | "STORAGE_S3_REGION" | "STORAGE_S3_ENDPOINT" | "STORAGE_S3_ACCESS_KEY_ID" | "STORAGE_S3_SECRET_ACCESS_KEY" | "STORAGE_S3_FORCE_PATH_STYLE">): S3StorageConfig | null {
  if (!env.STORAGE_S3_BUCKET) return null;
  return {
    bucket: env.STORAGE_S3_BUCKET,
    region: env.STORAGE_S3_REGION,
    endpoint: env.STORAGE_S3_ENDPOINT,
    accessKeyId: env.STORAGE_S3_ACCESS_KEY_ID,
    secretAccessKey: env.STORAGE_S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.STORAGE_S3_FORCE_PATH_STYLE,
  };
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

export function createS3Storage(options: S3StorageOptions): StorageBackend {
  const { bucket, legacy } = options;
  const publicPrefix = options.publicPrefix ?? "/uploads/";
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
    // Our own SHA-256 is sent on every put; no extra CRC32 trailer (older S3-compatible services refuse aws-chunked bodies).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: options.maxAttempts ?? 3,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });

  async function openOwn(key: string, recorded: string | null | undefined): Promise<ObjectStream | null> {
    let response: GetObjectCommandOutput;
    try {
      response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: "ENABLED" }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    const body = response.Body as Readable | undefined;
    try {
      if (!body) throw new StorageIntegrityError(`stored object ${key} has no body`);
      const expected = agreedSha256(key, recorded, response.Metadata?.[SHA256_METADATA], sha256Base64ToHex(response.ChecksumSHA256));
      // An object without any checksum was not written by this driver (nor the migration command): never served.
      if (!expected) throw new StorageIntegrityError(`stored object ${key} has no recorded SHA-256`);
      const length = response.ContentLength;
      if (length === undefined) throw new StorageIntegrityError(`stored object ${key} has no length`);
      const verified = pipeline(body, verifyingStream(key, { sha256: expected, length }), () => undefined);
      return { body: verified, contentLength: length, contentType: contentTypeOfKey(key) ?? "application/octet-stream" };
    } catch (error) {
      body?.destroy();
      throw error;
    }
  }

  async function openObject(key: string, openOptions: OpenOptions = {}): Promise<ObjectStream | null> {
    if (!isSafeKey(key) || !contentTypeOfKey(key)) return null;
    const own = await openOwn(key, openOptions.sha256);
    if (own) return own;
    return legacy ? legacy.openObject(key, openOptions) : null;
  }

  return {
    openObject,
    async putObject(key, bytes, contentType) {
      checkKey(key);
      if (contentTypeOfKey(key) !== contentType) throw new Error(`content type ${contentType} does not match ${key}`);
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const sha256 = sha256Hex(buffer);
      try {
        // One PUT (objects are at most a few tens of MB): the service stores the whole object or nothing.
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: buffer,
            ContentLength: buffer.byteLength,
            ContentType: contentType,
            ChecksumSHA256: sha256HexToBase64(sha256),
            Metadata: { [SHA256_METADATA]: sha256 },
          }),
        );
      } catch (error) {
        // A service that kept part of a cut upload must not keep it under this key (reads would refuse it anyway).
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => undefined);
        throw error;
      }
    },
    async getObject(key) {
      const stream = await openObject(key);
      return stream ? { bytes: await readObjectStream(stream), contentType: stream.contentType } : null;
    },
    async deleteObject(key) {
      checkKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      if (legacy) await legacy.deleteObject(key);
    },
    publicUrl(key) {
      return publicUrlOfKey(publicPrefix, key);
    },
    async *listKeys() {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key && isSafeKey(object.Key) && contentTypeOfKey(object.Key)) yield object.Key;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async sha256Of(key) {
      if (!isSafeKey(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: "ENABLED" }));
        return agreedSha256(key, head.Metadata?.[SHA256_METADATA], sha256Base64ToHex(head.ChecksumSHA256));
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    destroy() {
      client.destroy();
    },
  };
}

// S3-compatible storage (issue 33, item 2; docs/decisions/039-s3-storage.md) against a real S3
// server on this machine (s3rver, random port): the driver's contract, checksums that keep any
// damaged or half-stored object from being served, an upload cut in the middle (nothing stored,
// the member gets the French message), streamed public images, the choice of driver from the
// environment, and the database driver's reads in slices.
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { eq, like } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { collaborationDocuments, storedObjects, verificationEvidence } from "~/db/schema";
import { openInsuranceCertificate } from "~/features/trust/verification.server";
import { DOCUMENT_MESSAGES, documentsUrl } from "~/features/collaboration/documents-rules";
import { getEnv, setEnv } from "~/lib/env.server";
import { createDatabaseStorage, DATABASE_READ_SLICE_BYTES } from "~/lib/storage/database-driver.server";
import { sha256Hex } from "~/lib/storage/integrity.server";
import { createLocalStorage } from "~/lib/storage/local-driver.server";
import { createS3Storage } from "~/lib/storage/s3-driver.server";
import { getStorage, readObjectStream, setStorage, StorageIntegrityError, type StorageBackend } from "~/lib/storage/storage.server";
import { loader as uploadsFileLoader } from "~/routes/api/uploads-file";
import { action as documentsAction } from "~/routes/member/dashboard/file/documents";
import { createApplicant, createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { startTestS3Server, type TestS3Server } from "../support/s3-server";
import { call, openFileBetween, outcomeStatus, useFileTestEnvironment } from "./file-helpers";
import { bodyOf, signIn, type Browser } from "./mandates-helpers";

const t = useTestDatabase();
const env = useFileTestEnvironment(t, "s3", { BETTER_AUTH_SECRET: "test-secret-for-s3-storage-tests-0123456789abcdef" });
let s3: TestS3Server;
let driver: StorageBackend;
let alice: CreatedMember;
let bob: CreatedMember;
let aliceBrowser: Browser;

beforeAll(async () => {
  s3 = await startTestS3Server();
  driver = createS3Storage({ ...s3.config, maxAttempts: 1 });
  seedFactories(339);
  alice = await createMember(t.db!, { profile: { firstName: "Alice", lastName: "Lemaire", membershipType: "premium" } });
  bob = await createMember(t.db!, { profile: { firstName: "Jeanne", lastName: "Martin", membershipType: "premium" } });
  aliceBrowser = await signIn(alice);
});

afterAll(async () => {
  driver.destroy?.();
  await s3?.stop();
});

afterEach(() => {
  s3.cutUploadsAfter(null);
  setStorage(undefined);
});

const key = (ext: "pdf" | "webp" | "png") => (ext === "webp" ? `u${randomBytes(4).toString("hex")}/${Date.now()}-img.webp` : `documents/${randomBytes(6).toString("hex")}/${randomBytes(8).toString("hex")}.${ext}`);

async function webp(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: "#3a6" } }).webp().toBuffer();
}

/** A valid PDF of about `kb` kilobytes (many pages of text), so that an upload spans many packets. */
async function pdf(kb: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let bytes = Buffer.from(await doc.save());
  for (let page = 0; bytes.byteLength < kb * 1024; page++) {
    const p = doc.addPage();
    for (let line = 0; line < 40; line++) p.drawText(`Page ${page} ligne ${line} ${randomBytes(24).toString("hex")}`, { x: 20, y: 800 - line * 18, size: 9, font });
    if (page % 10 === 9) bytes = Buffer.from(await doc.save());
  }
  return Buffer.from(await doc.save());
}

/** Reads a stream to the end: its bytes, or the error it failed with and how many bytes came before. */
async function drain(body: AsyncIterable<unknown>): Promise<{ bytes: Buffer; error: unknown }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
    return { bytes: Buffer.concat(chunks), error: null };
  } catch (error) {
    return { bytes: Buffer.concat(chunks), error };
  }
}

describe("the S3 driver", () => {
  it("puts, reads (bytes and stream), replaces and deletes, with the SHA-256 sent and kept", async () => {
    const bytes = await pdf(40);
    const k = key("pdf");
    await driver.putObject(k, bytes, "application/pdf");
    expect(Buffer.compare(readFileSync(s3.objectFile(k)), bytes)).toBe(0);
    expect(await driver.sha256Of(k)).toBe(sha256Hex(bytes));
    const got = await driver.getObject(k);
    expect(got?.contentType).toBe("application/pdf");
    expect(Buffer.compare(got!.bytes, bytes)).toBe(0);
    const stream = await driver.openObject(k, { sha256: sha256Hex(bytes) });
    expect(stream).toMatchObject({ contentLength: bytes.byteLength, contentType: "application/pdf" });
    expect(Buffer.compare(await readObjectStream(stream!), bytes)).toBe(0);
    await driver.putObject(k, bytes.subarray(0, 10), "application/pdf");
    expect((await driver.getObject(k))!.bytes.byteLength).toBe(10);
    expect(await driver.sha256Of(k)).toBe(sha256Hex(bytes.subarray(0, 10)));
    await driver.deleteObject(k);
    expect(await driver.getObject(k)).toBeNull();
    expect(await driver.openObject(k)).toBeNull();
    expect(await driver.sha256Of(k)).toBeNull();
    await expect(driver.putObject("documents/x/a.pdf", Buffer.from("x"), "image/png")).rejects.toThrow(/content type/);
    await expect(driver.putObject("../escape.pdf", Buffer.from("x"), "application/pdf")).rejects.toThrow(/invalid storage key/);
    expect(await driver.getObject("../escape.pdf")).toBeNull();
    expect(driver.publicUrl("user1/a.webp")).toBe("/uploads/user1/a.webp");
    expect(() => driver.publicUrl("documents/x/a.pdf")).toThrow(/private/);
  });

  it("lists the keys it holds, across pages of the listing", async () => {
    const keys = [key("png"), key("webp"), key("pdf")];
    for (const k of keys) await driver.putObject(k, Buffer.from(k), k.endsWith(".webp") ? "image/webp" : k.endsWith(".png") ? "image/png" : "application/pdf");
    const listed: string[] = [];
    for await (const k of driver.listKeys()) listed.push(k);
    expect(listed).toEqual(expect.arrayContaining(keys));
  });

  it.each([
    ["a byte changed at rest", (b: Buffer) => Buffer.concat([b.subarray(0, 1000), Buffer.from([b[1000] ^ 0xff]), b.subarray(1001)])],
    ["half an upload kept by the service", (b: Buffer) => b.subarray(0, b.byteLength >> 1)],
  ])("never serves an object whose bytes are not the ones stored (%s)", async (_case, damage) => {
    const bytes = await pdf(200);
    const k = key("pdf");
    await driver.putObject(k, bytes, "application/pdf");
    writeFileSync(s3.objectFile(k), damage(bytes));
    await expect(driver.getObject(k)).rejects.toThrow(StorageIntegrityError);
    const stream = await driver.openObject(k);
    const { bytes: received, error } = await drain(stream!.body);
    expect(error).toBeInstanceOf(StorageIntegrityError);
    // The reader got less than the whole: the last chunk is held back until the digest matches.
    expect(received.byteLength).toBeLessThan(bytes.byteLength);
  });

  it("refuses, before any byte, an object whose checksum differs from the feature's record, or that has none", async () => {
    const bytes = Buffer.from("%PDF-1.7\n%%EOF\n");
    const k = key("pdf");
    await driver.putObject(k, bytes, "application/pdf");
    await expect(driver.openObject(k, { sha256: sha256Hex(Buffer.from("autre")) })).rejects.toThrow(/disagree/);
    // Written by another tool, without the SHA-256 metadata: not served.
    const raw = new S3Client({ ...s3.config, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    const foreign = key("pdf");
    await raw.send(new PutObjectCommand({ Bucket: s3.config.bucket, Key: foreign, Body: bytes, ContentType: "application/pdf" }));
    raw.destroy();
    await expect(driver.getObject(foreign)).rejects.toThrow(/no recorded SHA-256/);
  });

  /**
   * What a reader gets under the key: null when nothing is there or when the integrity check refuses
   * it. s3rver may still be writing a cut body after the driver's delete (a real S3 refuses a body
   * shorter than its length or checksum), so a part may land there: it must never be served.
   */
  const served = (k: string) =>
    driver.getObject(k).catch((error: unknown) => {
      if (error instanceof StorageIntegrityError) return null;
      throw error;
    });

  it("an upload cut in the middle fails after its retries and nothing under the key is ever served", async () => {
    const flaky = createS3Storage({ ...s3.proxied, maxAttempts: 3 });
    const bytes = await pdf(300);
    const k = key("pdf");
    s3.cutUploadsAfter(64 * 1024);
    const cutsBefore = s3.cuts();
    try {
      await expect(flaky.putObject(k, bytes, "application/pdf")).rejects.toThrow();
    } finally {
      s3.cutUploadsAfter(null);
      flaky.destroy?.();
    }
    expect(s3.cuts() - cutsBefore).toBe(3);
    expect(await served(k)).toBeNull();
    expect(await driver.sha256Of(k)).toBeNull();
  });

  it("the member whose upload is cut gets the French message, and nothing is listed or served", async () => {
    const flaky = createS3Storage({ ...s3.proxied, maxAttempts: 2 });
    setStorage(flaky);
    const { fileId } = await openFileBetween(t.db!, alice, bob, { buyer: "Acheteur SAS", seller: "Cédant SAS" });
    const form = new FormData();
    form.set("file", new File([new Uint8Array(await pdf(300))], "Bilan 2025.pdf", { type: "application/pdf" }));
    s3.cutUploadsAfter(64 * 1024);
    try {
      const outcome = await call(documentsAction, new Request(`http://localhost:3000${documentsUrl(fileId)}`, { method: "POST", headers: aliceBrowser.headers, body: form }), { fileId });
      expect(outcomeStatus(outcome)).toBe(500);
      expect(bodyOf<{ error: string }>(outcome.value).error).toBe(DOCUMENT_MESSAGES.storeFailed);
      expect(DOCUMENT_MESSAGES.storeFailed).toBe("Le document n’a pas pu être enregistré. Veuillez réessayer.");
    } finally {
      s3.cutUploadsAfter(null);
      flaky.destroy?.();
    }
    expect(await t.db!.select().from(collaborationDocuments).where(eq(collaborationDocuments.fileId, fileId))).toEqual([]);
    const left: string[] = [];
    for await (const k of driver.listKeys()) if (k.startsWith(`documents/${fileId}/`)) left.push(k);
    for (const k of left) expect(await served(k)).toBeNull();
    // A PDF checked in its worker, then two cut attempts with the SDK's back-off: past 30 s on a loaded machine.
  }, 90_000);

  it("/uploads/ streams public images from the bucket, and fails a damaged one instead of serving it", async () => {
    setStorage(driver);
    const image = await webp();
    const k = key("webp");
    await driver.putObject(k, image, "image/webp");
    const response = (await uploadsFileLoader({ params: { "*": k } } as never)) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(image.byteLength));
    expect(Buffer.compare(Buffer.from(await response.arrayBuffer()), image)).toBe(0);
    writeFileSync(s3.objectFile(k), Buffer.concat([image.subarray(0, -1), Buffer.from([image[image.byteLength - 1] ^ 1])]));
    const damaged = (await uploadsFileLoader({ params: { "*": k } } as never)) as Response;
    await expect(damaged.arrayBuffer()).rejects.toThrow();
    const missing = (await uploadsFileLoader({ params: { "*": key("webp") } } as never)) as Response;
    expect(missing.status).toBe(404);
  });

  it("a private download is streamed from the bucket only when the bytes match the SHA-256 recorded at upload", async () => {
    setStorage(driver);
    const applicant = await createApplicant(t.db!);
    const profileId = applicant.profile.id;
    const certificate = await pdf(30);
    await driver.putObject(`documents/verification/${profileId}/seed.pdf`, certificate, "application/pdf");
    // The factory recorded another digest: the store's and the record's disagree, nothing is sent.
    await expect(openInsuranceCertificate({ profileId, isAdmin: false }, profileId)).rejects.toThrow(StorageIntegrityError);
    await t.db!.update(verificationEvidence).set({ insuranceSha256: sha256Hex(certificate) }).where(eq(verificationEvidence.profileId, profileId));
    const opened = await openInsuranceCertificate({ profileId, isAdmin: false }, profileId);
    expect(opened.object.contentLength).toBe(certificate.byteLength);
    expect(Buffer.compare(await readObjectStream(opened.object), certificate)).toBe(0);
  });

  it("getStorage picks S3 when STORAGE_S3_BUCKET is set, reading through to the default store for objects not migrated yet", async () => {
    const before = getEnv();
    const legacyKey = key("webp");
    const image = await webp();
    await createLocalStorage(path.join(env.dataDir(), "uploads"), "/uploads/").putObject(legacyKey, image, "image/webp");
    await createDatabaseStorage().putObject(legacyKey, image, "image/webp");
    setEnv({
      ...before,
      STORAGE_S3_BUCKET: s3.config.bucket,
      STORAGE_S3_ENDPOINT: s3.config.endpoint,
      STORAGE_S3_REGION: "us-east-1",
      STORAGE_S3_ACCESS_KEY_ID: "S3RVER",
      STORAGE_S3_SECRET_ACCESS_KEY: "S3RVER",
      STORAGE_S3_FORCE_PATH_STYLE: true,
    });
    setStorage(undefined);
    try {
      const k = key("pdf");
      await getStorage().putObject(k, Buffer.from("%PDF-1.7\n"), "application/pdf");
      expect(await driver.sha256Of(k)).toBe(sha256Hex(Buffer.from("%PDF-1.7\n")));
      expect(Buffer.compare((await getStorage().getObject(legacyKey))!.bytes, image)).toBe(0);
    } finally {
      setEnv(before);
      setStorage(undefined);
    }
    expect(await driver.getObject(legacyKey)).toBeNull();
  });
});

describe("the database driver streams in slices", () => {
  it("reads an object larger than a slice, byte for byte, verified against the record", async () => {
    const db = createDatabaseStorage({ readSliceBytes: 64 * 1024 });
    const bytes = randomBytes(64 * 1024 * 5 + 12345);
    const k = key("png");
    await db.putObject(k, bytes, "image/png");
    expect(await db.sha256Of(k)).toBe(sha256Hex(bytes));
    const stream = await db.openObject(k, { sha256: sha256Hex(bytes) });
    expect(stream!.contentLength).toBe(bytes.byteLength);
    expect(DATABASE_READ_SLICE_BYTES).toBe(1024 * 1024);
    expect(Buffer.compare(await readObjectStream(stream!), bytes)).toBe(0);
    const wrong = await db.openObject(k, { sha256: sha256Hex(Buffer.from("autre")) });
    const { bytes: received, error } = await drain(wrong!.body);
    expect(error).toBeInstanceOf(StorageIntegrityError);
    expect(received.byteLength).toBeLessThan(bytes.byteLength);
  });

  it("fails a read whose object is replaced between two slices instead of mixing them", async () => {
    // Small slices, so that the streams' read-ahead (a few chunks) does not reach the end before the write.
    const db = createDatabaseStorage({ readSliceBytes: 16 * 1024 });
    const k = key("png");
    await db.putObject(k, randomBytes(16 * 1024 * 32), "image/png");
    const stream = await db.openObject(k);
    const iterator = stream!.body[Symbol.asyncIterator]();
    await iterator.next();
    await t.db!.update(storedObjects).set({ createdAt: new Date(Date.now() + 60_000) }).where(like(storedObjects.key, k));
    const rest = await drain({ [Symbol.asyncIterator]: () => iterator });
    expect(rest.error).toBeInstanceOf(StorageIntegrityError);
  });
});

// What every upload to a file goes through before anything is stored (size, type from the bytes,
// a PDF inspected in the worker pool, an image within its pixel limit, a name), the file's quota,
// the storage key, and the room's shared limits and refusals.
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { type db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { logger } from "~/lib/logger.server";
import { type RateLimitRule } from "~/lib/rate-limit.server";
import { getStorage } from "~/lib/storage/storage.server";
import { PRIVATE_DOCUMENTS_PREFIX } from "~/lib/storage/keys";
import { MAX_INPUT_PIXELS } from "~/lib/storage/image.server";
import { pdfPool, UntrustedPdfError, type PdfProblem } from "~/lib/untrusted/pdf-pool.server";
import {
  detectDocumentType,
  DOCUMENT_FORMATS,
  DOCUMENT_LIMITS,
  DOCUMENT_MESSAGES,
  documentSizeMessage,
  documentSizeProblem,
  sanitizeDocumentName,
  type DocumentLimits,
  type DocumentType,
} from "./documents-rules";
import { fileConflict } from "./file-access.server";
import { type AppErrorCode } from "~/lib/errors/app-error";

// Parsing and watermarking cost CPU: generous for a person, a wall for a script.
export const UPLOAD_RATE: RateLimitRule = { limit: 60, windowSeconds: 60 * 60 };
export const OPEN_RATE: RateLimitRule = { limit: 300, windowSeconds: 60 * 60 };

export function refuse(message: string, code: AppErrorCode): never {
  fileConflict(message, code);
}

export function documentNotFound(): never {
  refuse(DOCUMENT_MESSAGES.notFound, "not-found");
}

export const TYPE_BY_CONTENT_TYPE = new Map(Object.entries(DOCUMENT_FORMATS).map(([type, f]) => [f.contentType, type as DocumentType]));

// ---------------------------------------------------------------------------------------------
// Checking an upload

export type PreparedDocument = { type: DocumentType; name: string; bytes: Uint8Array; sha256: string };

/** The refusal of an untrusted PDF, in the words and status of the document room. */
const PDF_REFUSALS: Record<PdfProblem, { message: string; code: AppErrorCode }> = {
  "inflated-too-large": { message: DOCUMENT_MESSAGES.inflatedTooLarge, code: "unprocessable" },
  encrypted: { message: DOCUMENT_MESSAGES.encryptedPdf, code: "unsupported-type" },
  unreadable: { message: DOCUMENT_MESSAGES.notPdf, code: "unsupported-type" },
  "no-pages": { message: DOCUMENT_MESSAGES.notPdf, code: "unsupported-type" },
  "time-limit": { message: DOCUMENT_MESSAGES.pdfTooComplex, code: "unprocessable" },
  "memory-limit": { message: DOCUMENT_MESSAGES.pdfTooComplex, code: "unprocessable" },
  busy: { message: DOCUMENT_MESSAGES.pdfBusy, code: "unavailable" },
};

/** Runs a PDF job of the worker pool; its refusal becomes the room's 4xx (or 503 when busy). */
export async function untrustedPdf<T>(job: () => Promise<T>): Promise<T> {
  try {
    return await job();
  } catch (error) {
    if (!(error instanceof UntrustedPdfError)) throw error;
    if (error.problem === "time-limit" || error.problem === "memory-limit") logger.warn({ problem: error.problem }, "untrusted PDF stopped by its worker's limits");
    const refusal = PDF_REFUSALS[error.problem];
    refuse(refusal.message, refusal.code);
  }
}

/**
 * Checks a file before anything is stored: size, type from the bytes, a PDF that pdf-lib can
 * read (the watermark needs it), is not password-protected and whose decompressed content stays
 * within its bound — inspected in the PDF worker pool, never on this thread —, an image sharp
 * can read within its pixel limit, a name. Throws a 4xx with a French message. DOCX and XLSX are
 * recognised from their first bytes and never unpacked.
 */
export async function prepareDocument(
  input: { name: string; bytes: Uint8Array },
  limits: DocumentLimits = DOCUMENT_LIMITS,
): Promise<PreparedDocument> {
  const sizeProblem = documentSizeProblem(input.bytes.byteLength, 0, limits);
  if (sizeProblem) refuse(documentSizeMessage(sizeProblem, limits), sizeProblem === "empty" ? "invalid" : "too-large");
  const type = detectDocumentType(input.bytes);
  if (!type) refuse(DOCUMENT_MESSAGES.unsupported, "unsupported-type");
  if (type === "pdf") {
    await untrustedPdf(() => pdfPool().inspect(input.bytes));
  } else if (type === "jpeg" || type === "png") {
    // The pixel limit: a small file announcing a huge canvas is refused before it is decoded.
    const format = await sharp(input.bytes, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS })
      .metadata()
      .then((m) => m.format)
      .catch(() => null);
    if (format !== type) refuse(DOCUMENT_MESSAGES.notImage, "unsupported-type");
  }
  const name = sanitizeDocumentName(input.name, type);
  if (!name) refuse(DOCUMENT_MESSAGES.badName, "invalid");
  return { type, name, bytes: input.bytes, sha256: createHash("sha256").update(input.bytes).digest("hex") };
}

export async function usedBytes(handle: typeof db, fileId: string): Promise<number> {
  const [row] = await queryRows<{ used: string | number | null }>(
    sql`select coalesce(sum(size_bytes), 0) as used from collaboration_documents where file_id = ${fileId}::uuid and withdrawn_at is null`,
    handle,
  );
  return Number(row?.used ?? 0);
}

export function newDocumentKey(fileId: string, type: DocumentType): string {
  return `${PRIVATE_DOCUMENTS_PREFIX}${fileId}/${randomBytes(16).toString("hex")}.${DOCUMENT_FORMATS[type].extension}`;
}

export type StoredDocument = { key: string; contentType: string };

/**
 * Stores a checked upload under a new key of the file, then runs the write that records it; the
 * object is deleted again when the write fails, so that nothing is kept half-stored.
 */
export async function withStoredDocument<T>(fileId: string, doc: PreparedDocument, write: (stored: StoredDocument) => Promise<T>): Promise<T> {
  const storage = getStorage();
  const key = newDocumentKey(fileId, doc.type);
  const { contentType } = DOCUMENT_FORMATS[doc.type];
  try {
    await storage.putObject(key, doc.bytes, contentType);
  } catch (error) {
    logger.error({ err: error, key }, "document could not be stored");
    refuse(DOCUMENT_MESSAGES.storeFailed, "failed");
  }
  try {
    return await write({ key, contentType });
  } catch (error) {
    await storage.deleteObject(key).catch((e: unknown) => logger.warn({ err: e, key }, "orphan document could not be deleted"));
    throw error;
  }
}

// Reading an upload without trusting it: the body is limited before it is read in full, and
// every refusal carries the spec's French title and description (spec §5, §8).
import { DEFAULT_MAX_UPLOAD_MB, MB, UPLOAD_MESSAGES } from "./upload-rules";

export type UploadErrorCode = "too-large" | "unsupported" | "failed";

export class UploadError extends Error {
  constructor(
    readonly code: UploadErrorCode,
    readonly status: number,
    readonly title: string,
    readonly description: string,
  ) {
    super(`${title}: ${description}`);
    this.name = "UploadError";
  }
}

export const uploadErrors = {
  tooLarge: (maxMb: number = DEFAULT_MAX_UPLOAD_MB) =>
    new UploadError("too-large", 413, UPLOAD_MESSAGES.tooLargeTitle, UPLOAD_MESSAGES.tooLargeDescription(maxMb)),
  unsupported: () => new UploadError("unsupported", 415, UPLOAD_MESSAGES.unsupportedTitle, UPLOAD_MESSAGES.unsupportedDescription),
  failed: (status = 500) => new UploadError("failed", status, UPLOAD_MESSAGES.failedTitle, UPLOAD_MESSAGES.failedDescription),
};

/** Room for the multipart boundaries, part headers and the small text fields beside the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * The request body, at most `maxBytes` long: a larger Content-Length is refused before anything
 * is read, and bytes are counted while streaming (chunked bodies have no Content-Length, and a
 * client may lie), stopping as soon as the count passes the limit.
 */
export async function readBodyWithLimit(request: Request, maxBytes: number, maxMb: number = maxBytes / MB): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length");
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > maxBytes)) throw uploadErrors.tooLarge(maxMb);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw uploadErrors.tooLarge(maxMb);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * A multipart/form-data body whose file part may be up to `maxFileMb`: the whole body is limited
 * to that plus a small overhead, then parsed from memory.
 */
export async function readMultipartWithLimit(request: Request, maxFileMb: number): Promise<FormData> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;/i.test(contentType)) throw uploadErrors.unsupported();
  const body = await readBodyWithLimit(request, maxFileMb * MB + MULTIPART_OVERHEAD_BYTES, maxFileMb);
  try {
    return await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw uploadErrors.failed(400);
  }
}

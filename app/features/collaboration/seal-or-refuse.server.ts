// A file's PDF sealed by the platform, or the member's action refused (503) when the timestamp
// authority does not answer: never an unsealed copy presented as sealed.
import type { PDFDocument } from "pdf-lib";
import { logger } from "~/lib/logger.server";
import { sealPdf, type SealOptions } from "~/lib/pdf/seal.server";
import { TimestampUnavailableError } from "~/lib/pdf/timestamp.server";
import { AGREEMENT_MESSAGES } from "./agreement-rules";
import { fileConflict } from "./file-access.server";

export async function sealOrRefuse(doc: PDFDocument, options: SealOptions): Promise<Uint8Array> {
  try {
    return await sealPdf(doc, options);
  } catch (error) {
    if (!(error instanceof TimestampUnavailableError)) throw error;
    logger.error({ err: error }, "timestamp authority unavailable: PDF not sealed, action refused");
    fileConflict(AGREEMENT_MESSAGES.sealUnavailable, "unavailable");
  }
}

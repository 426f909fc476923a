// The watermark of a served PDF: on every page, the viewer's name and the date across the page
// in light grey, the same line and the opening's short reference at the foot of the page, and the
// opening's id woven into the page's own content (invisible text) and the document's metadata.
// Made for each opening (the stored file stays as the uploader sent it), in the PDF worker pool
// (app/lib/untrusted), so that a copy that leaks names who opened it, and when.
import { pdfPool, type PdfStamp } from "~/lib/untrusted/pdf-pool.server";

export type { PdfStamp } from "~/lib/untrusted/pdf-pool.server";

/**
 * The stamped copy of a stored PDF for one opening. Refused with an UntrustedPdfError when the
 * PDF is a bomb, unreadable or past the worker's limits. No copy is kept: each opening has its
 * own reference.
 */
export function watermarkPdf(bytes: Uint8Array, stamp: PdfStamp): Promise<Uint8Array> {
  return pdfPool().stamp(bytes, stamp);
}

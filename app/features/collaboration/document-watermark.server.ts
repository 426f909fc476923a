// The watermark of a served PDF: on every page, the viewer's name and the date across the page
// in light grey, and the same line at the foot of the page. Made for each opening (the stored
// file stays as the uploader sent it), so a copy that leaks names who opened it and when.
import { degrees, PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { CountCache } from "~/lib/count-cache.server";
import { drawableText } from "./documents-rules";

const DIAGONAL_MAX_SIZE = 40;
const DIAGONAL_MIN_SIZE = 8;
const FOOTER_SIZE = 8;

export async function watermarkPdf(bytes: Uint8Array, line: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  // Helvetica (WinAnsi) draws French accents, "—" and "€", but not every name: replace the rest.
  const charset = new Set(font.getCharacterSet());
  const text = drawableText(line, (code) => charset.has(code));
  const widthAt1 = Math.max(1, font.widthOfTextAtSize(text, 1));
  for (const page of doc.getPages()) {
    const box = page.getCropBox();
    // A page shown turned (/Rotate, common in scans) gets its stamp turned with it, so that the
    // text reads upright across the page and the footer sits at the bottom as the reader sees it.
    const turn = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
    const sideways = turn === 90 || turn === 270;
    const [seenWidth, seenHeight] = sideways ? [box.height, box.width] : [box.width, box.height];

    // Across the page, from the reader's bottom-left to top-right, with a margin.
    const angle = Math.atan2(seenHeight, seenWidth) + (turn * Math.PI) / 180;
    const size = Math.max(DIAGONAL_MIN_SIZE, Math.min(DIAGONAL_MAX_SIZE, (Math.hypot(seenWidth, seenHeight) * 0.85) / widthAt1));
    const textWidth = widthAt1 * size;
    const textHeight = font.heightAtSize(size, { descender: false });
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // drawText turns the text around its origin: move the origin so the text's centre is the page's.
    const x = cx - (textWidth / 2) * Math.cos(angle) + (textHeight / 2) * Math.sin(angle);
    const y = cy - (textWidth / 2) * Math.sin(angle) - (textHeight / 2) * Math.cos(angle);
    page.drawText(text, { x, y, size, font, color: rgb(0.55, 0.55, 0.55), opacity: 0.3, rotate: degrees((angle * 180) / Math.PI) });

    // The footer: the reader's bottom-left corner of the page, in the page's own coordinates.
    const footerSize = Math.min(FOOTER_SIZE, Math.max(4, (seenWidth - 24) / widthAt1));
    const { x: right, y: top } = { x: box.x + box.width, y: box.y + box.height };
    const origin = {
      0: { x: box.x + 12, y: box.y + 10 },
      90: { x: right - 10, y: box.y + 12 },
      180: { x: right - 12, y: top - 10 },
      270: { x: box.x + 10, y: top - 12 },
    }[turn];
    page.drawText(text, { ...origin, size: footerSize, font, color: rgb(0.4, 0.4, 0.4), opacity: 0.8, rotate: degrees(turn) });
  }
  return doc.save();
}

/**
 * Stamped copies kept for a short while (issue 17): a member who opens a PDF then downloads it,
 * or opens it again, within the same minute gets the same stamp — the line names the viewer and
 * the minute — so the same bytes, without parsing and drawing it again (3–4 ms a 3-page PDF).
 * Every opening is still checked and logged by the caller. A stored object never changes under
 * its key (a new upload is a new key; a withdrawn document is refused before this is asked), so
 * nothing invalidates them: they are only bounded (decision 030).
 */
export const KEPT_COPIES = { ttlMs: 60_000, maxEntries: 32, maxBytes: 32 * 1024 * 1024 } as const;

/** This instance's stamped copies (tests make their own, with their clock). */
export function createKeptCopies(now: () => number = Date.now): CountCache<Uint8Array> {
  const copies = new CountCache<Uint8Array>({
    ttlMs: KEPT_COPIES.ttlMs,
    maxEntries: KEPT_COPIES.maxEntries,
    // A copy larger than a quarter of the memory is not kept.
    maxWeight: KEPT_COPIES.maxBytes,
    weigh: (bytes) => (bytes.byteLength <= KEPT_COPIES.maxBytes / 4 ? bytes.byteLength : Number.POSITIVE_INFINITY),
    now,
  });
  copies.setListening(true);
  return copies;
}

const keptCopies = createKeptCopies();

/**
 * The stored PDF under `storageKey` stamped with `line`: kept from an opening of the last minute
 * with the same line, else read (`stored`; null when the object is missing) and stamped.
 */
export async function watermarkedCopy(
  storageKey: string,
  line: string,
  stored: () => Promise<Uint8Array | null>,
  copies: CountCache<Uint8Array> = keptCopies,
): Promise<Uint8Array | null> {
  const key = `${storageKey}\u0000${line}`;
  const kept = copies.lookup(key);
  if (kept.count) return kept.count;
  const original = await stored();
  if (!original) return null;
  const bytes = await watermarkPdf(original, line);
  copies.store(key, bytes, kept.generation);
  return bytes;
}

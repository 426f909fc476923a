// The watermark of a served PDF: on every page, the viewer's name and the date across the page
// in light grey, and the same line at the foot of the page. Made for each opening (the stored
// file stays as the uploader sent it), so a copy that leaks names who opened it and when.
import { degrees, PDFDocument, rgb, StandardFonts } from "pdf-lib";
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

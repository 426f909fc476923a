// Text PDFs (the fee-sharing agreement, its signature certificate, the evidence export, the
// invoices): blocks of text laid out on A4 pages with pdf-lib's standard Helvetica, long
// lines wrapped (words, or characters for hashes and user agents), new pages as needed, and each
// page numbered. Characters WinAnsi cannot draw are replaced (drawableText), never a failure.
import { degrees, PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { drawableText } from "~/lib/untrusted/drawable-text";
import type { PdfBlock } from "./blocks";

export type { PdfBlock } from "./blocks";

const A4: [number, number] = [595.28, 841.89];

// Characters of the product's texts that WinAnsi lacks, written with ones it has (else « ? »).
const SUBSTITUTES: Record<string, string> = { "→": "->", "⇒": "=>", "←": "<-", "≤": "<=", "≥": ">=", "−": "-", "\u2011": "-", "✓": "oui" };
const SUBSTITUTED = new RegExp(`[${Object.keys(SUBSTITUTES).join("")}]`, "gu");

/** `text` with the substitutes above (exported for the tables of cases). */
export function winAnsiSubstitutes(text: string): string {
  return text.replace(SUBSTITUTED, (ch) => SUBSTITUTES[ch] ?? ch);
}
const MARGIN = 56;
const FOOTER_SIZE = 8;

const STYLE: Record<PdfBlock["kind"], { size: number; bold: boolean; gapBefore: number; color: number }> = {
  title: { size: 18, bold: true, gapBefore: 0, color: 0 },
  subtitle: { size: 11, bold: false, gapBefore: 4, color: 0.3 },
  heading: { size: 12, bold: true, gapBefore: 14, color: 0 },
  text: { size: 10.5, bold: false, gapBefore: 4, color: 0 },
  small: { size: 8.5, bold: false, gapBefore: 4, color: 0.3 },
  mono: { size: 9, bold: false, gapBefore: 2, color: 0 },
  space: { size: 10, bold: false, gapBefore: 6, color: 0 },
};

/** Splits text into lines of at most `width` points; words too long are cut. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/ +/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      // A word wider than the line (a hash, a user agent): cut it by characters.
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let n = rest.length - 1;
        while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > width) n--;
        lines.push(rest.slice(0, n));
        rest = rest.slice(n);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

/** `watermark`: a word drawn large and light across every page (« PROJET » on a draft). */
export type TextPdfOptions = { title: string; footer?: string; watermark?: string };

/** Draws `blocks` on new pages appended to `doc`; returns the number of pages added. */
export async function appendTextPages(doc: PDFDocument, blocks: readonly PdfBlock[], options: TextPdfOptions): Promise<number> {
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const charset = new Set(regular.getCharacterSet());
  const drawable = (text: string) => drawableText(winAnsiSubstitutes(text), (code) => charset.has(code) || code === 10);
  const width = A4[0] - 2 * MARGIN;
  const pages: PDFPage[] = [];
  let page: PDFPage | null = null;
  let y = 0;
  const newPage = () => {
    page = doc.addPage(A4);
    pages.push(page);
    y = A4[1] - MARGIN;
    return page;
  };
  for (const block of blocks) {
    const style = STYLE[block.kind];
    const font = style.bold ? bold : regular;
    const lineHeight = style.size * 1.35;
    if (block.kind === "space") {
      y -= style.gapBefore + lineHeight;
      continue;
    }
    const lines = wrap(drawable(block.text), font, style.size, width);
    y -= style.gapBefore;
    // A heading is never left alone at the foot of a page.
    const keep = block.kind === "heading" ? lineHeight * 3 : lineHeight;
    for (const [i, line] of lines.entries()) {
      if (!page || y - (i === 0 ? keep : lineHeight) < MARGIN + 20) newPage();
      y -= lineHeight;
      page!.drawText(line, { x: MARGIN, y, size: style.size, font, color: rgb(style.color, style.color, style.color) });
    }
  }
  if (!page) newPage();
  const footerBase = drawable(options.footer ?? options.title);
  const mark = options.watermark ? drawable(options.watermark) : null;
  pages.forEach((p, i) => {
    const text = `${footerBase} — page ${i + 1} sur ${pages.length}`;
    p.drawText(text, { x: MARGIN, y: MARGIN / 2, size: FOOTER_SIZE, font: regular, color: rgb(0.45, 0.45, 0.45) });
    if (mark) {
      const size = 110;
      const w = bold.widthOfTextAtSize(mark, size);
      // Centred on the page's diagonal (45°): the text's midpoint sits at the page's centre.
      const d = w / 2 / Math.SQRT2;
      p.drawText(mark, { x: A4[0] / 2 - d + size / 3, y: A4[1] / 2 - d - size / 3, size, font: bold, color: rgb(0.85, 0.2, 0.2), opacity: 0.18, rotate: degrees(45) });
    }
  });
  return pages.length;
}

/** A new PDF document made of `blocks` (to seal, or to save). */
export async function textPdfDocument(blocks: readonly PdfBlock[], options: TextPdfOptions & { createdAt: Date }): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  doc.setTitle(options.title);
  doc.setProducer("Dossiers de rapprochement");
  doc.setCreator("Dossiers de rapprochement");
  doc.setCreationDate(options.createdAt);
  doc.setModificationDate(options.createdAt);
  await appendTextPages(doc, blocks, options);
  return doc;
}

/** A new PDF made of `blocks`. */
export async function renderTextPdf(blocks: readonly PdfBlock[], options: TextPdfOptions & { createdAt: Date }): Promise<Uint8Array> {
  return (await textPdfDocument(blocks, options)).save();
}

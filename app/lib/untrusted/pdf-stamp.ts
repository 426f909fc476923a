// The stamp of a served PDF (runs in the PDF worker): on every page the viewer's line across the
// page in light grey and at its foot, and a per-opening mark. The stamp and the mark are woven
// into the page's own content (one content stream holding the page and the stamp), and the
// opening's reference is also written in the document's metadata (Info and XMP), so that
// dropping "the stamp's stream" drops the page with it and a leaked copy still names its opening.
import {
  beginText,
  decodePDFRawStream,
  degrees,
  endText,
  PDFArray,
  PDFContentStream,
  type PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  rgb,
  setFontAndSize,
  setTextRenderingMode,
  showText,
  StandardFonts,
  TextRenderingMode,
  moveText,
  type PDFPage,
} from "pdf-lib";
import { drawableText } from "./drawable-text";

const DIAGONAL_MAX_SIZE = 40;
const DIAGONAL_MIN_SIZE = 8;
const FOOTER_SIZE = 8;

export type PdfStamp = {
  /** The visible line: who opened it and when. */
  line: string;
  /** The opening's reference (the access log row's id): invisible on the page, in the metadata. */
  openingId: string;
};

/** The text of the invisible mark and of the metadata entry. */
export function openingMark(openingId: string): string {
  return `Ouverture ${openingId}`;
}

/** The visible reference at the foot of each page: enough to find the opening in the log. */
export function shortReference(openingId: string): string {
  return openingId.replace(/-/g, "").slice(0, 10);
}

function drawVisibleStamp(page: PDFPage, font: Awaited<ReturnType<PDFDocument["embedFont"]>>, text: string, footer: string) {
  const widthAt1 = Math.max(1, font.widthOfTextAtSize(text, 1));
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
  page.drawText(text, {
    x,
    y,
    size,
    font,
    color: rgb(0.55, 0.55, 0.55),
    opacity: 0.3,
    rotate: degrees((angle * 180) / Math.PI),
  });

  // The footer: the reader's bottom-left corner of the page, in the page's own coordinates.
  const footerWidthAt1 = Math.max(1, font.widthOfTextAtSize(footer, 1));
  const footerSize = Math.min(FOOTER_SIZE, Math.max(4, (seenWidth - 24) / footerWidthAt1));
  const { x: right, y: top } = { x: box.x + box.width, y: box.y + box.height };
  const origin = {
    0: { x: box.x + 12, y: box.y + 10 },
    90: { x: right - 10, y: box.y + 12 },
    180: { x: right - 12, y: top - 10 },
    270: { x: box.x + 10, y: top - 12 },
  }[turn];
  page.drawText(footer, {
    ...origin,
    size: footerSize,
    font,
    color: rgb(0.4, 0.4, 0.4),
    opacity: 0.8,
    rotate: degrees(turn),
  });
}

/** The decoded bytes of one content stream of a page (the page's own, or one pdf-lib drew). */
function contentBytes(stream: unknown): Uint8Array {
  if (stream instanceof PDFContentStream) return stream.getUnencodedContents();
  if (stream instanceof PDFRawStream) return decodePDFRawStream(stream).decode();
  return new Uint8Array(0);
}

/**
 * Replaces the page's content streams (its own, the stamp's, pdf-lib's q/Q wrappers) by one
 * stream holding them all, in order, followed by the invisible mark; returns the refs it replaced.
 */
function mergeContents(doc: PDFDocument, page: PDFPage, mark: Uint8Array): PDFRef[] {
  const node = page.node;
  const contents = node.get(PDFName.of("Contents"));
  const refs: PDFRef[] = [];
  const parts: Uint8Array[] = [];
  const add = (entry: unknown) => {
    if (entry instanceof PDFRef) refs.push(entry);
    parts.push(contentBytes(entry instanceof PDFRef ? doc.context.lookup(entry) : entry), Buffer.from("\n"));
  };
  const resolved = contents instanceof PDFRef ? doc.context.lookup(contents) : contents;
  if (contents instanceof PDFRef) refs.push(contents);
  if (resolved instanceof PDFArray) for (const entry of resolved.asArray()) add(entry);
  else if (resolved) add(resolved);
  parts.push(mark);
  const merged = doc.context.flateStream(Buffer.concat(parts));
  node.set(PDFName.of("Contents"), doc.context.register(merged));
  return refs;
}

function xmpPacket(mark: string): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">',
    `<pdf:Keywords>${mark}</pdf:Keywords>`,
    "</rdf:Description>",
    "</rdf:RDF>",
    "</x:xmpmeta>",
    '<?xpacket end="w"?>',
  ].join("\n");
}

/** The stamped copy of a loaded PDF, as bytes. */
export async function stampPdf(doc: PDFDocument, stamp: PdfStamp): Promise<Uint8Array> {
  const font = await doc.embedFont(StandardFonts.Helvetica);
  // Helvetica (WinAnsi) draws French accents, "—" and "€", but not every name: replace the rest.
  const charset = new Set(font.getCharacterSet());
  const text = drawableText(stamp.line, (code) => charset.has(code));
  const footer = `${text} — réf. ${shortReference(stamp.openingId)}`;
  const mark = openingMark(stamp.openingId);
  const replaced = new Set<string>();
  const dropped: PDFRef[] = [];
  for (const page of doc.getPages()) {
    drawVisibleStamp(page, font, text, footer);
    // The mark as invisible text (rendering mode 3): found by text extraction, never seen.
    const key = page.node.newFontDictionary("Mark", font.ref);
    const ops = [
      beginText(),
      setFontAndSize(key, 1),
      setTextRenderingMode(TextRenderingMode.Invisible),
      moveText(0, 0),
      showText(font.encodeText(mark)),
      endText(),
    ];
    const markStream = Buffer.from(`q\n${ops.map((op) => op.toString()).join("\n")}\nQ\n`, "latin1");
    for (const ref of mergeContents(doc, page, markStream)) {
      if (replaced.has(ref.toString())) continue;
      replaced.add(ref.toString());
      dropped.push(ref);
    }
  }
  // The separate streams are gone from the file, not only from the pages.
  for (const ref of dropped) doc.context.delete(ref);
  doc.setKeywords([mark]);
  doc.setSubject(`Document confidentiel — ${mark}`);
  const xmp = doc.context.stream(xmpPacket(mark), {
    Type: "Metadata",
    Subtype: "XML",
  });
  doc.catalog.set(PDFName.of("Metadata"), doc.context.register(xmp));
  return doc.save();
}

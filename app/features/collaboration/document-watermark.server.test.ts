import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream, PDFRef, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { watermarkPdf } from "./document-watermark.server";

async function onePagePdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage().drawText(text, { x: 50, y: 700, size: 12, font });
  return pdf.save();
}

const LINE = "Consulté par Jeanne Martin (Cabinet Martin) le 26/11/2026 à 14:05 — document confidentiel";
const OPENING = "6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";

const hex = (text: string) => Buffer.from(text, "latin1").toString("hex").toUpperCase();

/** Everything a content stream of the page shows, decoded (hex strings read as Latin-1). */
function decoded(doc: PDFDocument, ref: unknown): string {
  const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
  return stream instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1") : "";
}

function shown(content: string): string {
  return [...content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)].map((m) => Buffer.from(m[1]!, "hex").toString("latin1")).join("\n");
}

const STAMP_HEX = hex("Consulté par").slice(0, 16);

/**
 * What a leaker's ten-line script does: drop, from every page, each content stream that draws
 * the stamp, then save. On a stamp drawn in a stream of its own (the older watermark),
 * the page's own content survives and nothing names the viewer.
 */
async function dropStampStreams(bytes: Uint8Array): Promise<PDFDocument> {
  const doc = await PDFDocument.load(bytes);
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const refs = contents instanceof PDFArray ? contents.asArray() : [page.node.get(PDFName.of("Contents"))];
    page.node.set(PDFName.of("Contents"), doc.context.obj(refs.filter((ref) => !decoded(doc, ref).includes(STAMP_HEX))));
  }
  return PDFDocument.load(await doc.save());
}

/** The next script: rewrite each content stream without the text operators that show the stamp. */
async function dropStampText(bytes: Uint8Array): Promise<PDFDocument> {
  const doc = await PDFDocument.load(bytes);
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const refs = contents instanceof PDFArray ? contents.asArray() : [page.node.get(PDFName.of("Contents"))];
    const rewritten = refs.map((ref) => {
      const cleaned = decoded(doc, ref).replace(new RegExp(`<${STAMP_HEX}[0-9A-Fa-f]*>\\s*Tj`, "g"), "");
      return doc.context.register(doc.context.flateStream(Buffer.from(cleaned, "latin1")));
    });
    page.node.set(PDFName.of("Contents"), doc.context.obj(rewritten));
  }
  return PDFDocument.load(await doc.save());
}

function pageText(doc: PDFDocument): string {
  return doc
    .getPages()
    .map((page) => {
      const contents = page.node.Contents();
      const refs = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
      return refs.map((ref) => shown(decoded(doc, ref))).join("\n");
    })
    .join("\n");
}

describe("the stamp of a served PDF", () => {
  it("draws the line across and at the foot of the page, with the opening's reference, in the page's own content stream", async () => {
    const stamped = await PDFDocument.load(await watermarkPdf(await onePagePdf("Mémorandum"), { line: LINE, openingId: OPENING }));
    const page = stamped.getPage(0);
    // One content stream: the page and its stamp cannot be told apart by stream.
    const contents = page.node.get(PDFName.of("Contents"));
    expect(contents).toBeInstanceOf(PDFRef);
    const text = pageText(stamped);
    expect(text).toContain("Mémorandum");
    // (WinAnsi "—" is not Latin-1: the line is matched up to the time.)
    expect(text.match(/Consulté par Jeanne Martin \(Cabinet Martin\) le 26\/11\/2026 à 14:05/g)).toHaveLength(2);
    expect(text).toContain("réf. 6f1c2a7e3b");
    expect(text).toContain(`Ouverture ${OPENING}`);
    // The separate streams pdf-lib drew are gone from the file, not only from the page.
    for (const [, object] of stamped.context.enumerateIndirectObjects()) {
      if (object instanceof PDFRawStream && object !== stamped.context.lookup(contents)) {
        const other = Buffer.from(decodePDFRawStream(object).decode()).toString("latin1");
        expect(other).not.toMatch(/Tj/);
      }
    }
    expect(stamped.getKeywords()).toContain(OPENING);
  });

  it("still names its opening once a script removed the stamp's stream: the page goes with it, the metadata stays", async () => {
    const stripped = await dropStampStreams(await watermarkPdf(await onePagePdf("Mémorandum"), { line: LINE, openingId: OPENING }));
    const text = pageText(stripped);
    // The page's own text never survives without the opening's id.
    expect(text).not.toContain("Mémorandum");
    expect(stripped.getKeywords()).toContain(OPENING);
    const xmp = stripped.catalog.lookup(PDFName.of("Metadata"));
    expect(xmp).toBeInstanceOf(PDFRawStream);
    expect(Buffer.from((xmp as PDFRawStream).contents).toString("utf8")).toContain(OPENING);
  });

  it("still names its opening once a script removed the stamp's text from the page: the invisible mark stays", async () => {
    const stripped = await dropStampText(await watermarkPdf(await onePagePdf("Mémorandum"), { line: LINE, openingId: OPENING }));
    const text = pageText(stripped);
    expect(text).toContain("Mémorandum");
    expect(text).not.toContain("Consulté par");
    expect(text).toContain(`Ouverture ${OPENING}`);
  });

  it("the script works on a stamp drawn in a stream of its own (what this test guards against)", async () => {
    const pdf = await PDFDocument.load(await onePagePdf("Mémorandum"));
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.getPage(0).drawText(LINE, { x: 20, y: 20, size: 8, font });
    const stripped = await dropStampStreams(await pdf.save());
    expect(pageText(stripped)).toContain("Mémorandum");
    expect(pageText(stripped)).not.toContain("Consulté par");
  });

  it("gives each opening its own mark (no copy is kept between openings)", async () => {
    const original = await onePagePdf("Mémorandum");
    const first = await watermarkPdf(original, { line: LINE, openingId: OPENING });
    const second = await watermarkPdf(original, { line: LINE, openingId: "7a2d3b8f-4c5e-4f60-9b0c-1d2e3f4a5b6c" });
    expect((await PDFDocument.load(second)).getKeywords()).toContain("7a2d3b8f-4c5e-4f60-9b0c-1d2e3f4a5b6c");
    expect((await PDFDocument.load(first)).getKeywords()).not.toContain("7a2d3b8f");
  });
});

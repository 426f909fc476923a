// PDFs made for tests of untrusted files: a normal one, and a bomb whose one FlateDecode content
// stream inflates to `inflatedBytes` zeros (200 MB of zeros deflate to about 200 KB).
import { deflateSync } from "node:zlib";
import { PDFDocument, StandardFonts } from "pdf-lib";

export async function textPdf(lines: string[], pages = 1, options: { classicTrailer?: boolean } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 16, size: 12, font }));
  }
  return pdf.save({ useObjectStreams: !options.classicTrailer });
}

/**
 * A one-page PDF holding a FlateDecode stream (indirect /Length, as writers do) that inflates to
 * that many zeros: the page's content stream, or an object stream — which pdf-lib inflates in
 * full as it loads the document (a decompression bomb).
 */
export function pdfBomb(inflatedBytes: number, options: { truncateTo?: number; in?: "content" | "object-stream" } = {}): Uint8Array {
  let stream: Uint8Array = deflateSync(Buffer.alloc(inflatedBytes), { level: 9 });
  if (options.truncateTo !== undefined) stream = stream.subarray(0, options.truncateTo);
  const objectStream = options.in === "object-stream";
  const head = Buffer.from(
    [
      "%PDF-1.7",
      "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj",
      "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj",
      `3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0\u00a0595\u00a0842]${objectStream ? "" : " /Contents 4 0 R"} >>\nendobj`,
      `4 0 obj\n<< ${objectStream ? "/Type /ObjStm /N 1 /First 8 " : ""}/Length 5 0 R /Filter /FlateDecode >>\nstream\n`,
    ].join("\n"),
    "latin1",
  );
  const tail = Buffer.from(`\nendstream\nendobj\n5 0 obj\n${stream.byteLength}\nendobj\ntrailer\n<< /Size 6 /Root 1 0 R >>\n%%EOF\n`, "latin1");
  return Buffer.concat([head, stream, tail]);
}

// The decompressed size of an untrusted PDF, bounded before anything is inflated in full: every
// stream that pdf-lib (or the stamp) may decode is inflated stage by stage against one budget,
// and the count stops at the first byte past it. Runs in the PDF worker (pdf-worker.ts).
import { constants, inflateSync } from "node:zlib";
import { decodePDFRawStream, PDFArray, PDFContext, type PDFDict, PDFName, PDFObjectParser, PDFRawStream } from "pdf-lib";

export type InflateBound = { within: true; inflatedBytes: number } | { within: false };

const FLATE = new Set(["FlateDecode", "Fl"]);
// Decoded by pdf-lib's own decoders, whose blocks are small (a LZW block emits at most 512 codes).
const SMALL_BLOCK_FILTERS = new Set(["LZWDecode", "LZW", "RunLengthDecode", "RL", "ASCIIHexDecode", "AHx", "ASCII85Decode", "A85"]);
const READ_CHUNK = 64 * 1024;

class OverBudget extends Error {}

function nameOf(value: unknown): string | null {
  return value instanceof PDFName ? value.decodeText() : null;
}

function filtersOf(dict: PDFDict): string[] {
  const filter = dict.lookup(PDFName.of("Filter"));
  if (filter instanceof PDFArray) return filter.asArray().map((f) => nameOf(f) ?? "?");
  const one = nameOf(filter);
  return one ? [one] : [];
}

/** A stream nobody here decodes: an image (not marked as an object or xref stream as well). */
function neverDecoded(dict: PDFDict): boolean {
  const type = nameOf(dict.lookup(PDFName.of("Type")));
  return nameOf(dict.lookup(PDFName.of("Subtype"))) === "Image" && type !== "ObjStm" && type !== "XRef";
}

function inflateWithin(data: Uint8Array, remaining: number): Uint8Array {
  try {
    // Z_SYNC_FLUSH: a truncated stream yields what it holds, as pdf-lib's own inflater would.
    return inflateSync(data, {
      maxOutputLength: Math.max(1, remaining + 1),
      finishFlush: constants.Z_SYNC_FLUSH,
    });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new OverBudget();
    // Not inflatable: pdf-lib fails on it too, nothing more comes out of it.
    return new Uint8Array(0);
  }
}

function decodeWithin(context: PDFContext, filter: string, data: Uint8Array, remaining: number): Uint8Array {
  const stream = decodePDFRawStream(PDFRawStream.of(context.obj({ Filter: filter }), data));
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = stream.getBytes(READ_CHUNK);
      if (chunk.length === 0) break;
      total += chunk.length;
      if (total > remaining) throw new OverBudget();
      chunks.push(new Uint8Array(chunk));
    }
  } catch (error) {
    if (error instanceof OverBudget) throw error;
  }
  return Buffer.concat(chunks);
}

/**
 * Whether every decodable stream of `bytes` inflates to at most `budgetBytes` in all. Streams are
 * found by their `N G obj` headers (as pdf-lib's parser finds them), parsed with pdf-lib's object
 * parser without loading the document, and decoded stage by stage (FlateDecode through zlib with
 * `maxOutputLength`; LZW, RunLength and the ASCII filters through pdf-lib's decoders read in
 * chunks). Images are never decoded on the server and are not counted; filters pdf-lib cannot
 * decode (DCT, JPX, JBIG2, CCITT) end the count of their stream.
 */
export function boundInflatedSize(bytes: Uint8Array, budgetBytes: number): InflateBound {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const context = PDFContext.create();
  const header = /(\d{1,10})[ \t\r\n\f\0]+(\d{1,5})[ \t\r\n\f\0]+obj(?![A-Za-z])/g;
  let remaining = budgetBytes;
  let match: RegExpExecArray | null;
  try {
    while ((match = header.exec(text))) {
      const start = match.index + match[0].length;
      let parsed: unknown;
      try {
        parsed = PDFObjectParser.forBytes(bytes.subarray(start), context).parseObject();
      } catch {
        continue;
      }
      if (!(parsed instanceof PDFRawStream)) continue;
      // The stream's own bytes hold no object headers worth reading.
      header.lastIndex = Math.max(header.lastIndex, start + parsed.contents.length);
      if (neverDecoded(parsed.dict)) continue;
      let data: Uint8Array = parsed.contents;
      for (const filter of filtersOf(parsed.dict)) {
        if (FLATE.has(filter)) data = inflateWithin(data, remaining);
        else if (SMALL_BLOCK_FILTERS.has(filter)) data = decodeWithin(context, filter, data, remaining);
        else break;
        remaining -= data.length;
        if (remaining < 0) throw new OverBudget();
      }
    }
  } catch (error) {
    if (error instanceof OverBudget) return { within: false };
    throw error;
  }
  return { within: true, inflatedBytes: budgetBytes - remaining };
}

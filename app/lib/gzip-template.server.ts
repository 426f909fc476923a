// A kept page compressed once, sent again with this response's own tokens (decision 027).
//
// The pages kept in memory (the public page cache, the render cache) differ from one response to
// the next only by a few short tokens: the CSP nonce and the request id. Compressing the whole
// page again for each response cost more CPU than everything else a cache hit does. Here the page
// is cut at its tokens and compressed once, as raw deflate that can be joined at byte boundaries;
// each response puts its own tokens in between and computes the gzip trailer's CRC-32 from the
// pieces' CRCs (zlib's crc32_combine) without reading the page again.
//
// - A piece between two tokens is compressed with Z_SYNC_FLUSH (it ends on a byte boundary, with
//   an empty stored block), using the page before it as its dictionary, as if the page were
//   compressed in one go. The tokens are masked in that dictionary with NUL bytes, which a page
//   does not contain, so no piece refers to a token's bytes; its distances hold as long as each
//   token is replaced by one of the same byte length (`gzipFrom` checks it).
// - The first occurrence of a token goes in a stored block, filling the empty one that ends the
//   piece before it (4 bytes of LEN and NLEN).
// - A token seen less than 32 KiB before is a back-reference to that occurrence: a fixed-Huffman
//   block of one match, built once (a head holds the nonce every hundred bytes).
import { constants, crc32, deflateRawSync } from "node:zlib";

/** A part of the page's text, for the CRC: a piece (CRC known) or a token (its index). */
type Span = { crc: number; length: number; /** x^(8·length) mod P (crc32_combine's shift). */ shift: number } | number;

export type GzipTemplate = {
  /**
   * The compressed stream after the gzip header, before the trailer: static bytes and, between
   * them, the index of a token whose LEN, NLEN and bytes go there (a stored block's header is
   * already in the bytes before).
   */
  readonly stream: readonly (Buffer | number)[];
  /** The page's text in order, for the CRC. */
  readonly text: readonly Span[];
  /** Bytes held. */
  readonly bytes: number;
  /** Byte length of each token: the pieces' back-references assume the same lengths. */
  readonly tokenLengths: readonly number[];
};

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
/** A last, empty stored block: BFINAL=1, BTYPE=00, LEN=0, NLEN=0xffff. */
const LAST_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);
/** LEN and NLEN of an empty stored block: the end of every flush. */
const EMPTY_LENGTHS = Buffer.from([0, 0, 0xff, 0xff]);
/** Deflate's window: how far back the stream may refer. */
const WINDOW = 32 * 1024;

const POLY = 0xedb88320;

/** (a · b) mod P over GF(2), CRC-32's reflected bit order (zlib's multmodp). */
function multmodp(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) mod P. */
const X2N: number[] = [];
{
  let p = 0x40000000; // x^1
  X2N.push(p);
  for (let n = 1; n < 32; n++) X2N.push((p = multmodp(p, p)));
}

/** x^(n · 2^k) mod P (zlib's x2nmodp). */
function x2nmodp(n: number, k: number): number {
  let p = 0x80000000; // x^0
  while (n) {
    if (n & 1) p = multmodp(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The CRC-32 of A followed by B, from crc(A), crc(B) and the shift of B's length. */
function combine(crcA: number, crcB: number, shiftB: number): number {
  return (multmodp(shiftB, crcA) ^ crcB) >>> 0;
}

/** CRC-32 of the concatenation of two buffers, from their own CRCs (exported for the tests). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return combine(crcA, crcB, x2nmodp(lengthB, 3));
}

/** Writes deflate's bit stream: values LSB first, Huffman codes MSB first. */
class BitWriter {
  private readonly out: number[] = [];
  private acc = 0;
  private n = 0;
  bits(value: number, count: number) {
    for (let i = 0; i < count; i++) this.bit((value >>> i) & 1);
  }
  code(value: number, count: number) {
    for (let i = count - 1; i >= 0; i--) this.bit((value >>> i) & 1);
  }
  private bit(b: number) {
    this.acc |= b << this.n;
    if (++this.n === 8) {
      this.out.push(this.acc);
      this.acc = 0;
      this.n = 0;
    }
  }
  /** Pads to a byte boundary with zeros. */
  bytes(): Buffer {
    if (this.n > 0) this.out.push(this.acc);
    this.acc = 0;
    this.n = 0;
    return Buffer.from(this.out);
  }
}

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** The last index whose base is at most `value`. */
function codeFor(bases: readonly number[], value: number): number {
  let i = bases.length - 1;
  while (bases[i]! > value) i--;
  return i;
}

/** A fixed-Huffman literal/length code (RFC 1951 §3.2.6). */
function writeLiteralLength(w: BitWriter, symbol: number) {
  if (symbol < 144) w.code(0x30 + symbol, 8);
  else if (symbol < 256) w.code(0x190 + symbol - 144, 9);
  else if (symbol < 280) w.code(symbol - 256, 7);
  else w.code(0xc0 + symbol - 280, 8);
}

/**
 * A block that copies `length` bytes from `distance` back (3 ≤ length ≤ 258, distance ≤ 32 KiB),
 * then the header of an empty stored block that brings the stream back to a byte boundary (its
 * LEN and NLEN left out, as at the end of a piece).
 */
function backReference(length: number, distance: number): Buffer {
  const w = new BitWriter();
  w.bits(0, 1); // BFINAL
  w.bits(1, 2); // BTYPE 01: fixed Huffman codes
  const l = codeFor(LENGTH_BASE, length);
  writeLiteralLength(w, 257 + l);
  w.bits(length - LENGTH_BASE[l]!, LENGTH_EXTRA[l]!);
  const d = codeFor(DIST_BASE, distance);
  w.code(d, 5);
  w.bits(distance - DIST_BASE[d]!, DIST_EXTRA[d]!);
  writeLiteralLength(w, 256); // end of block
  w.bits(0, 3); // BFINAL 0, BTYPE 00: stored
  return w.bytes();
}

/** Raw deflate of a piece, flushed; without the LEN and NLEN of the flush's empty stored block. */
function deflatePiece(data: Buffer, dictionary: Buffer | undefined): Buffer {
  const deflated = deflateRawSync(data, {
    level: constants.Z_DEFAULT_COMPRESSION,
    finishFlush: constants.Z_SYNC_FLUSH,
    ...(dictionary && dictionary.length > 0 ? { dictionary } : {}),
  });
  if (!deflated.subarray(-4).equals(EMPTY_LENGTHS)) throw new Error("unexpected end of a flushed deflate stream");
  return deflated.subarray(0, -4);
}

/**
 * Cuts `body` at every occurrence of the tokens (empty tokens are ignored) and compresses it, to
 * be sent with other tokens of the same byte lengths by `gzipFrom`. A page holding a NUL byte is
 * compressed piece by piece without dictionaries.
 */
export function gzipTemplate(body: string, tokens: readonly string[]): GzipTemplate {
  const page = Buffer.from(body, "utf8");
  const needles = tokens.map((t) => Buffer.from(t, "utf8"));
  const masked = page.includes(0) ? null : Buffer.from(page);
  const stream: (Buffer | number)[] = [];
  const text: Span[] = [];
  let pending: Buffer[] = [];
  const flushStatic = () => {
    if (pending.length > 0) stream.push(Buffer.concat(pending));
    pending = [];
  };
  /** Whether the stream ends with a stored block's header, waiting for LEN and NLEN. */
  let open = false;
  const lastSeen = needles.map(() => -1);
  let from = 0;
  const pushPiece = (end: number) => {
    if (end <= from) return;
    const data = page.subarray(from, end);
    const dictionary = masked && from > 0 ? masked.subarray(Math.max(0, from - WINDOW), from) : undefined;
    if (open) pending.push(EMPTY_LENGTHS);
    pending.push(deflatePiece(data, dictionary));
    open = true;
    text.push({ crc: crc32(data), length: data.length, shift: x2nmodp(data.length, 3) });
  };
  for (;;) {
    let at = -1;
    let which = -1;
    needles.forEach((needle, i) => {
      if (needle.length === 0) return;
      const found = page.indexOf(needle, from);
      if (found !== -1 && (at === -1 || found < at)) {
        at = found;
        which = i;
      }
    });
    if (at === -1) break;
    pushPiece(at);
    const length = needles[which]!.length;
    const previous = lastSeen[which]!;
    if (previous >= 0 && at - previous <= WINDOW && length >= 3 && length <= 258) {
      if (open) pending.push(EMPTY_LENGTHS);
      pending.push(backReference(length, at - previous));
    } else {
      if (!open) pending.push(Buffer.from([0])); // a stored block's header at a byte boundary
      flushStatic();
      stream.push(which);
    }
    // Either way the stream now waits for a stored block's LEN and NLEN… or is complete.
    open = previous >= 0 && at - previous <= WINDOW && length >= 3 && length <= 258;
    lastSeen[which] = at;
    text.push(which);
    from = at + length;
    masked?.fill(0, at, from);
  }
  pushPiece(page.length);
  if (open) pending.push(EMPTY_LENGTHS);
  pending.push(LAST_BLOCK);
  flushStatic();
  const bytes = stream.reduce<number>((n, part) => n + (typeof part === "number" ? 0 : part.length), 0);
  return { stream, text, bytes, tokenLengths: needles.map((n) => n.length) };
}

/** LEN and NLEN of a stored block of `n` bytes (at most 65 535). */
function storedLengths(n: number): Buffer {
  if (n > 0xffff) throw new RangeError("token too long for a stored block");
  return Buffer.from([n & 0xff, n >>> 8, ~n & 0xff, (~n >>> 8) & 0xff]);
}

/**
 * The page as a gzip member, each token index replaced by `values[index]`; null when a value's
 * byte length differs from the token it replaces (the caller compresses the page itself).
 */
export function gzipFrom(template: GzipTemplate, values: readonly string[]): Buffer<ArrayBuffer> | null {
  const tokenData = values.map((v) => Buffer.from(v, "utf8"));
  if (template.tokenLengths.some((n, i) => (tokenData[i]?.length ?? 0) !== n)) return null;
  const chunks: Buffer[] = [GZIP_HEADER];
  for (const part of template.stream) {
    if (typeof part === "number") chunks.push(storedLengths(tokenData[part]!.length), tokenData[part]!);
    else chunks.push(part);
  }
  let crc = 0;
  let length = 0;
  for (const span of template.text) {
    if (typeof span === "number") {
      crc = crc32(tokenData[span]!, crc);
      length += tokenData[span]!.length;
    } else {
      crc = combine(crc, span.crc, span.shift);
      length += span.length;
    }
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  chunks.push(trailer);
  return Buffer.concat(chunks);
}

/**
 * Whether a request's Accept-Encoding allows gzip: "gzip" (or "x-gzip") with a non-zero
 * quality, or "*" with a non-zero quality when gzip is not named.
 */
export function acceptsGzip(header: string | null | undefined): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const item of header.split(",")) {
    const [name = "", ...params] = item.trim().toLowerCase().split(";");
    let q = 1;
    for (const param of params) {
      const [k, v] = param.trim().split("=");
      if (k === "q") q = v !== undefined && /^\s*(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/.test(v) ? Number(v) : 0;
    }
    const coding = name.trim();
    if (coding === "gzip" || coding === "x-gzip") return q > 0;
    if (coding === "*") star = q > 0;
  }
  return star ?? false;
}

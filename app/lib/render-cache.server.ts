// The render cache (decision 025): a page's HTML kept by what it was rendered from.
//
// A document render is a function of the URL and the data its loaders returned (the build is
// fixed for the life of the process; components read nothing else: no clock, no randomness, no
// request state but the CSP nonce, which is substituted). Every request still runs its guards
// and loaders against the database; when their data is identical to a render this instance made
// before, React's render is skipped and that HTML is sent again with this request's nonce and
// request id. No invalidation is needed: new data is a new key, so a member never sees anything
// their own request did not just read. What it saves is the markup (bench/README.md, seventh
// pass); what it costs is one serialisation and hash of the loader data.
//
// Not used for: other methods than GET, a status other than 200, errors, action data, requests
// that ask for a fresh copy (`Cache-Control: no-cache`, a browser's hard reload), loader data
// holding anything but plain values (a promise, a Map…), development (modules change under it).
import { createHash } from "node:crypto";
import { serialize } from "node:v8";
import { getEnv } from "./env.server";
import { acceptsGzip } from "./gzip-template.server";
import { PageCache, personalise } from "./page-cache.server";

const OBJECT_PROTO = Object.prototype;

/**
 * Whether a value holds only what the key describes exactly: primitives (but functions and
 * symbols), arrays, dates, and objects whose prototype is Object's or none. A class instance
 * (a URL keeps its state in private fields), a Map, a promise… make the page rendered every time.
 */
function keyable(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "function" && typeof value !== "symbol";
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!keyable(value[i])) return false;
    return true;
  }
  if (value instanceof Date) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== OBJECT_PROTO && proto !== null) return false;
  for (const key in value) if (!keyable((value as Record<string, unknown>)[key])) return false;
  return true;
}

/**
 * `bytes` with every occurrence of each token replaced by a placeholder of its position, in both
 * encodings V8 writes a string in (one byte per character, or UTF-16 when the string holds
 * characters beyond Latin-1). Tokens are ASCII (a nonce, a request id).
 */
function maskTokens(bytes: Buffer, tokens: readonly string[]): Buffer {
  let out = bytes;
  tokens.forEach((token, i) => {
    if (!token) return;
    for (const encoding of ["latin1", "utf16le"] as const) {
      const needle = Buffer.from(token, encoding);
      let at = out.indexOf(needle);
      if (at === -1) continue;
      const mark = Buffer.from(`\u0000${i}\u0000`, encoding);
      const parts: Buffer[] = [];
      let from = 0;
      while (at !== -1) {
        parts.push(out.subarray(from, at), mark);
        from = at + needle.length;
        at = out.indexOf(needle, from);
      }
      parts.push(out.subarray(from));
      out = Buffer.concat(parts);
    }
  });
  return out;
}

/**
 * The key of a render: a hash of everything it is made from, with the request's own tokens
 * (request id, nonce) written as placeholders so that two requests for the same data share it.
 * Null when the data holds a value the key cannot describe.
 *
 * The description is V8's own serialisation (`v8.serialize`, the structured-clone format): exact
 * for what `keyable` admits — each type tagged (a date is not its ISO text, undefined is not a
 * missing key, -0 is not 0), keys in their order — and native, three times faster than the
 * description built in JavaScript it replaced (bench/README.md, ninth pass). Equal data may
 * still serialise differently (a string held in two bytes per character): a miss, never a
 * wrong page.
 */
export function renderKey(inputs: unknown, tokens: readonly string[]): string | null {
  if (!keyable(inputs)) return null;
  return createHash("sha256").update(maskTokens(serialize(inputs), tokens)).digest("base64url");
}

/** A request that asks for a fresh copy (a hard reload sends `Cache-Control: no-cache`). */
export function wantsFreshCopy(headers: Headers): boolean {
  const cacheControl = headers.get("cache-control") ?? "";
  return /\bno-cache\b|\bno-store\b/i.test(cacheControl) || /\bno-cache\b/i.test(headers.get("pragma") ?? "");
}

/** A loader's answer worth keeping: a 200 page rendered from its loaders' data only. */
export type RenderInputs = {
  method: string;
  url: string;
  status: number;
  /** Route ids of the matched routes, in order. */
  routes: readonly string[];
  loaderData: unknown;
  actionData: unknown;
  errors: unknown;
  /** How the stream was collected (bots wait for every suspended part). */
  mode: string;
};

export type KeptRender = { html: string; gzip?: undefined } | { html?: undefined; gzip: Buffer<ArrayBuffer> };

export type RenderCache = {
  /** The key for these inputs, or null when this render must not be kept. */
  keyFor(inputs: RenderInputs, headers: Headers, tokens: { nonce: string; requestId: string }): string | null;
  /**
   * The kept HTML of a key with this request's nonce and request id, if any: gzip-compressed
   * when the request accepts gzip (decision 027), text otherwise.
   */
  get(key: string, tokens: { nonce: string; requestId: string }, acceptEncoding?: string | null): KeptRender | undefined;
  set(key: string, html: string, tokens: { nonce: string; requestId: string }): void;
  readonly stats: { hits: number; misses: number; stores: number };
};

export function createRenderCache(options: { maxBytes: number; ttlMs?: number; maxEntries?: number; now?: () => number }): RenderCache {
  // The page cache's store (byte-bounded LRU with a TTL, tokens substituted on the way out); it
  // never invalidates here: a key names its content.
  const store = new PageCache({ maxBytes: options.maxBytes, ttlMs: options.ttlMs ?? 10 * 60_000, maxEntries: options.maxEntries ?? 20_000, now: options.now });
  store.setListening(true);
  const stats = { hits: 0, misses: 0, stores: 0 };
  return {
    stats,
    keyFor(inputs, headers, tokens) {
      if (inputs.method !== "GET" || inputs.status !== 200 || inputs.errors || inputs.actionData) return null;
      if (wantsFreshCopy(headers)) return null;
      const { method: _method, actionData: _actionData, errors: _errors, status: _status, ...keyed } = inputs;
      return renderKey(keyed, [tokens.requestId, tokens.nonce]);
    },
    get(key, tokens, acceptEncoding) {
      const hit = store.get(key);
      if (!hit) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      const gzip = acceptsGzip(acceptEncoding) ? store.gzip(key, hit, tokens.nonce, tokens.requestId) : null;
      return gzip ? { gzip } : { html: personalise(hit, tokens.nonce, tokens.requestId) };
    },
    set(key, html, tokens) {
      if (store.set(key, { status: 200, headers: {}, body: html, nonce: tokens.nonce, requestId: tokens.requestId }, store.currentGeneration)) stats.stores++;
    },
  };
}

let shared: RenderCache | null | undefined;

/** This instance's render cache; null in development or with RENDER_CACHE_MB=0. */
export function getRenderCache(): RenderCache | null {
  if (shared !== undefined) return shared;
  const mb = getEnv().RENDER_CACHE_MB;
  shared = process.env.NODE_ENV === "production" && mb > 0 ? createRenderCache({ maxBytes: mb * 1024 * 1024 }) : null;
  return shared;
}

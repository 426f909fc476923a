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
import { getEnv } from "./env.server";
import { acceptsGzip } from "./gzip-template.server";
import { PageCache, personalise } from "./page-cache.server";

/** A value the key cannot describe exactly: such a page is rendered every time. */
class Unkeyable extends Error {}

const OBJECT_PROTO = Object.prototype;

/**
 * An exact, ordered text of a value: each type tagged (a Date is not its ISO string, undefined is
 * not a missing key), object keys in their order (a render iterates them in that order). Throws
 * Unkeyable for anything but plain objects, arrays, primitives and dates.
 */
function describe(value: unknown, out: string[]): void {
  switch (typeof value) {
    case "string":
      out.push(JSON.stringify(value));
      return;
    case "number":
      out.push(Object.is(value, -0) ? "#-0" : `#${value}`);
      return;
    case "boolean":
      out.push(value ? "T" : "F");
      return;
    case "undefined":
      out.push("U");
      return;
    case "bigint":
      out.push(`B${value}`);
      return;
    case "object": {
      if (value === null) {
        out.push("N");
        return;
      }
      if (Array.isArray(value)) {
        out.push("[");
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out.push(",");
          describe(value[i], out);
        }
        out.push("]");
        return;
      }
      if (value instanceof Date) {
        out.push(`D${value.getTime()}`);
        return;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== OBJECT_PROTO && proto !== null) throw new Unkeyable();
      out.push("{");
      let first = true;
      for (const key of Object.keys(value)) {
        if (!first) out.push(",");
        first = false;
        out.push(JSON.stringify(key), ":");
        describe((value as Record<string, unknown>)[key], out);
      }
      out.push("}");
      return;
    }
    default:
      // functions, symbols
      throw new Unkeyable();
  }
}

/**
 * The key of a render: a hash of everything it is made from, with the request's own tokens
 * (request id, nonce) written as placeholders so that two requests for the same data share it.
 * Null when the data holds a value the key cannot describe.
 */
export function renderKey(inputs: unknown, tokens: readonly string[]): string | null {
  const out: string[] = [];
  try {
    describe(inputs, out);
  } catch (error) {
    if (error instanceof Unkeyable) return null;
    throw error;
  }
  let text = out.join("");
  tokens.forEach((token, i) => {
    if (token) text = text.split(token).join(`\u0000${i}\u0000`);
  });
  return createHash("sha256").update(text).digest("base64url");
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

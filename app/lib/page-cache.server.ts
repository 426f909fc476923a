// In-process cache of the anonymous public pages (landing, directory, profiles, static pages).
//
// - Only anonymous GET/HEAD documents (no cookie of ours) of an allowlist of public paths are
//   served from it; only 200 HTML responses without Set-Cookie or `no-store` are stored.
// - A page is stored as the bytes sent: compressed once (gzip and brotli, as the compression
//   middleware would), without the nonce and request id of the response it was rendered for. Its
//   inline scripts are allowed by their SHA-256 hashes in the served copy's CSP instead of a nonce.
// - Kept in the "public-pages" cache of app/lib/cache.server.ts: emptied by every write to the
//   tables these pages show (PUBLIC_TABLES), on every instance; nothing is served while the
//   instance does not hear invalidations. A TTL bounds what cannot notify (the footer's year).
// - Read replica: a page that read the replica within DATABASE_READ_AFTER_WRITE_MS
//   of an invalidation is not stored — the replica may not have replayed the write that caused
//   it yet, and the stale page would otherwise be served until the next invalidation.
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants, gunzipSync, gzip } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { getCache, type Cache } from "./cache.server";
import { scriptHash } from "./csp.server";
import { getEnv } from "./env.server";
import { currentRequestScope } from "./request-scope.server";

const PUBLIC_PATHS = new Set([
  "/",
  "/annuaire",
  "/concept",
  "/tiers-confiance",
  "/mentions-legales",
  "/cgu",
  "/politique-confidentialite",
  "/contact",
  "/faq",
  "/support",
  "/aide",
  "/cookies",
]);
const PROFILE_PATH = /^\/consultant\/[a-z0-9-]{1,200}$/;

export function isCacheablePath(pathname: string): boolean {
  return PUBLIC_PATHS.has(pathname) || PROFILE_PATH.test(pathname);
}

/** Our cookies: better-auth's (prefix `rt`, `__Secure-rt` on https) and the flash toast `rt_toast`. */
const APP_COOKIE = /(?:^|;)\s*(?:__Secure-|__Host-)?rt[._]/;

export function hasAppCookie(cookieHeader: string | undefined): boolean {
  return Boolean(cookieHeader && APP_COOKIE.test(cookieHeader));
}

/** Headers of the page itself; the others are set per request by the server's middlewares. */
const STORED_HEADERS = ["content-type", "cache-control", "link", "x-robots-tag", "content-language"];

export type CachedPage = {
  status: number;
  headers: Record<string, string>;
  /** The page, compressed once: sent as it is. */
  gzip: Buffer;
  br: Buffer;
  /** The script-src sources allowing the page's inline scripts ('sha256-…'). */
  scriptHashes: string[];
  /** The policy built from them, on the first hit (the same for every response of this server). */
  csp?: string;
  bytes: number;
};

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

/**
 * The page as stored: the nonce attributes and the request id of the response it was rendered
 * for taken out, and the hashes of its inline scripts. Undefined when a script could not be
 * allowed by a hash (one with a `src`).
 */
export function storedForm(html: string, nonce: string, requestId: string): { html: string; scriptHashes: string[] } | undefined {
  let body = nonce ? html.split(` nonce="${nonce}"`).join("") : html;
  if (nonce && body.includes(nonce)) return undefined;
  if (requestId) body = body.split(requestId).join("");
  const hashes = new Set<string>();
  for (const [, attributes, text] of body.matchAll(SCRIPT)) {
    if (/\ssrc=/i.test(attributes!)) return undefined;
    hashes.add(scriptHash(text!));
  }
  return { html: body, scriptHashes: [...hashes] };
}

/** The stored encoding to send for an Accept-Encoding header: the highest weight, brotli on a tie (as the compression middleware). */
export function pickEncoding(header: string | undefined): "br" | "gzip" | undefined {
  const weights = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  const br = weight("br");
  const gz = weight("gzip");
  if (Math.max(br, gz) <= 0) return undefined;
  return br >= gz ? "br" : "gzip";
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Compresses the page off the main thread and keeps it, unless an invalidation came meanwhile. */
async function keep(cache: Cache<CachedPage>, key: string, generation: number, page: { headers: Record<string, string>; html: string; nonce: string; requestId: string }): Promise<void> {
  const form = storedForm(page.html, page.nonce, page.requestId);
  if (!form) return;
  const body = Buffer.from(form.html, "utf8");
  const [gz, br] = await Promise.all([
    gzipAsync(body),
    // Quality 6: a few milliseconds once per page, a tenth smaller than the middleware's 4.
    brotliAsync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 6, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  cache.store(key, { status: 200, headers: page.headers, gzip: gz, br, scriptHashes: form.scriptHashes, bytes: gz.length + br.length }, generation);
}

function cacheKey(req: Request): string | undefined {
  if (req.method !== "GET" && req.method !== "HEAD") return undefined;
  if (!isCacheablePath(req.path)) return undefined;
  if (hasAppCookie(req.headers.cookie)) return undefined;
  // Authorization or a non-document request (React Router data requests end in .data).
  if (req.headers.authorization) return undefined;
  return req.originalUrl;
}

/**
 * Express middleware, placed after the per-request headers (CSP nonce, request id) and the
 * compression middleware, right before the React Router handler.
 */
export function pageCacheMiddleware() {
  return (req: Request, res: Response, next: NextFunction) => {
    const cache = getCache<CachedPage>("public-pages");
    const key = cacheKey(req);
    if (key === undefined || !cache?.enabled) return next();
    const { value: hit, generation } = cache.lookup(key);
    if (hit) {
      for (const [name, value] of Object.entries(hit.headers)) res.setHeader(name, value);
      res.setHeader("X-Cache", "HIT");
      // server.ts's policy with the page's script hashes in place of this response's nonce.
      const policy = res.locals.contentSecurityPolicy as ((scriptSources: readonly string[]) => string) | undefined;
      if (policy) res.setHeader("Content-Security-Policy", (hit.csp ??= policy(hit.scriptHashes)));
      res.vary("Accept-Encoding");
      const encoding = pickEncoding(req.headers["accept-encoding"]);
      // Set here, the compression middleware leaves the body as it is.
      if (encoding) res.setHeader("Content-Encoding", encoding);
      const body = encoding ? hit[encoding] : gunzipSync(hit.gzip);
      res.setHeader("Content-Length", body.length);
      res.status(hit.status);
      if (req.method === "HEAD") res.end();
      else res.end(body);
      return;
    }
    res.setHeader("X-Cache", "MISS");
    if (req.method === "HEAD") return next();

    const maxBytes = cache.options.maxBytes ?? Number.POSITIVE_INFINITY;
    const scope = currentRequestScope();
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const record = (chunk: unknown, encoding?: unknown) => {
      if (tooLarge || chunk === undefined || chunk === null || typeof chunk === "function") return;
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk)
            : undefined;
      if (!buf) return;
      size += buf.length;
      if (size > maxBytes / 8) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(buf);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.write = ((...args: unknown[]) => {
      record(args[0], args[1]);
      return write(...args);
    }) as Response["write"];
    res.end = ((...args: unknown[]) => {
      record(args[0], args[1]);
      store();
      return end(...args);
    }) as Response["end"];

    const store = () => {
      if (tooLarge || res.statusCode !== 200) return;
      if (scope?.replicaReads && cache.droppedWithin(getEnv().DATABASE_READ_AFTER_WRITE_MS)) return;
      if (res.getHeader("set-cookie") !== undefined) return;
      const cacheControl = String(res.getHeader("cache-control") ?? "");
      if (/no-store|private/i.test(cacheControl)) return;
      const contentType = String(res.getHeader("content-type") ?? "");
      if (!contentType.startsWith("text/html")) return;
      const headers: Record<string, string> = {};
      for (const name of STORED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
      }
      const html = Buffer.concat(chunks).toString("utf8");
      keep(cache, key, generation, { headers, html, nonce: String(res.locals.nonce ?? ""), requestId: String(res.locals.requestId ?? "") }).catch(() => {});
    };
    next();
  };
}

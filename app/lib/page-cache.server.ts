// In-process cache of the anonymous public pages (landing, directory, profiles, static pages).
//
// - Only anonymous GET/HEAD documents (no cookie of ours) of an allowlist of public paths are
//   served from it; only 200 HTML responses without Set-Cookie or `no-store` are stored.
// - Each response carries its own CSP nonce and request id: the stored HTML keeps the ones it
//   was rendered with, and they are replaced by the current request's on the way out.
// - Kept in the "public-pages" cache of app/lib/cache.server.ts: emptied by every write to the
//   tables these pages show (PUBLIC_TABLES), on every instance; nothing is served while the
//   instance does not hear invalidations. A TTL bounds what cannot notify (the footer's year).
// - Read replica: a page that read the replica within DATABASE_READ_AFTER_WRITE_MS
//   of an invalidation is not stored — the replica may not have replayed the write that caused
//   it yet, and the stale page would otherwise be served until the next invalidation.
import type { NextFunction, Request, Response } from "express";
import { getCache } from "./cache.server";
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
  body: string;
  nonce: string;
  requestId: string;
  bytes: number;
};

/** The stored page with the current request's nonce and request id. */
export function personalise(page: CachedPage, nonce: string, requestId: string): string {
  let body = page.body;
  if (page.nonce) body = body.split(page.nonce).join(nonce);
  if (page.requestId) body = body.split(page.requestId).join(requestId);
  return body;
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
    const nonce = String(res.locals.nonce ?? "");
    const requestId = String(res.locals.requestId ?? "");
    const { value: hit, generation } = cache.lookup(key);
    if (hit) {
      for (const [name, value] of Object.entries(hit.headers)) res.setHeader(name, value);
      res.setHeader("X-Cache", "HIT");
      res.status(hit.status);
      if (req.method === "HEAD") {
        res.end();
        return;
      }
      res.send(personalise(hit, nonce, requestId));
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
      const body = Buffer.concat(chunks);
      cache.store(key, { status: 200, headers, body: body.toString("utf8"), nonce, requestId, bytes: body.length }, generation);
    };
    next();
  };
}

// better-auth's session cookie as the server reads it before better-auth does.
import { createHash } from "node:crypto";

/** better-auth's session cookie's name (prefix `rt`; `__Secure-` on https). */
const SESSION_COOKIE_NAME = String.raw`(?:__Secure-)?rt\.session_token`;
/** Each session cookie of a Cookie header: its name and value. */
const SESSION_COOKIE = new RegExp(String.raw`(?:^|;)\s*(${SESSION_COOKIE_NAME})=([^;]*)`, "g");
const HAS_SESSION_COOKIE = new RegExp(String.raw`(?:^|;)\s*${SESSION_COOKIE_NAME}=`);

/**
 * Whether a request carries better-auth's session cookie at all. Without it there is no session
 * to look up: an anonymous page skips better-auth's endpoint, a visible share of its time.
 */
export function hasSessionCookie(cookieHeader: string | null): boolean {
  return cookieHeader !== null && HAS_SESSION_COOKIE.test(cookieHeader);
}

/** SHA-256 of the request's session cookie(s), or null without one: the guard cache's key, never the token itself. */
export function sessionCacheKey(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const parts: string[] = [];
  for (const m of cookieHeader.matchAll(SESSION_COOKIE)) parts.push(`${m[1]}=${m[2]}`);
  if (parts.length === 0) return null;
  return createHash("sha256").update(parts.join("\n")).digest("base64url");
}

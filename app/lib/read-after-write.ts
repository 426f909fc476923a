// Reading one's own writes with a read replica: the pure part.
//
// A request whose writes invalidated what the public pages show (PUBLIC_TABLES of
// app/lib/cache.server.ts, called by the services that write them) gets a short-lived cookie in its
// response; while the browser carries it, its public reads go to the primary, which already
// holds the write, rather than to a replica that may not have replayed it yet.

/** The cookie's name: starts with `rt_`, so the anonymous page cache never serves that browser. */
export const READ_AFTER_WRITE_COOKIE = "rt_fresh";

/** The Set-Cookie value sent with the response of a request that wrote public content. */
export function readAfterWriteCookie(now: number, windowMs: number, secure: boolean): string {
  const until = now + windowMs;
  const maxAge = Math.ceil(windowMs / 1000);
  return `${READ_AFTER_WRITE_COOKIE}=${until}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

const COOKIE = new RegExp(`(?:^|;)\\s*${READ_AFTER_WRITE_COOKIE}=(\\d{1,16})(?=;|\\s|$)`);

/**
 * Whether this browser wrote public content recently: its cookie names a time still to come (the
 * value is checked as well as the browser's Max-Age, which counts whole seconds), and no further
 * than one window ahead (a forged far-off value would send a client's reads to the primary for
 * ever; clocks of other instances may differ by a second).
 */
export function wroteRecently(cookieHeader: string | null | undefined, now: number, windowMs: number): boolean {
  if (!cookieHeader) return false;
  const m = COOKIE.exec(cookieHeader);
  if (!m) return false;
  const until = Number(m[1]);
  return until > now && until <= now + windowMs + 1_000;
}

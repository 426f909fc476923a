import { describe, expect, it } from "vitest";
import { hasAppCookie } from "./page-cache.server";
import { READ_AFTER_WRITE_COOKIE, readAfterWriteCookie, wroteRecently } from "./read-after-write";

describe("the read-after-write cookie", () => {
  const now = 1_800_000_000_000;

  it("names the end of the window, lives as many whole seconds, and is HttpOnly and Lax", () => {
    expect(readAfterWriteCookie(now, 5_000, false)).toBe(`rt_fresh=${now + 5_000}; Max-Age=5; Path=/; HttpOnly; SameSite=Lax`);
    expect(readAfterWriteCookie(now, 2_500, true)).toBe(`rt_fresh=${now + 2_500}; Max-Age=3; Path=/; HttpOnly; SameSite=Lax; Secure`);
  });

  it("keeps that browser out of the anonymous page cache", () => {
    expect(hasAppCookie(`${READ_AFTER_WRITE_COOKIE}=${now}`)).toBe(true);
  });

  it.each([
    [undefined, false],
    ["", false],
    [`rt_fresh=${now + 3_000}`, true],
    [`theme=dark; rt_fresh=${now + 1}; other=1`, true],
    [`rt_fresh=${now}`, false], // the window has ended
    [`rt_fresh=${now - 10}`, false],
    [`rt_fresh=${now + 60_000}`, false], // further than one window: forged
    ["rt_fresh=abc", false],
    [`xrt_fresh=${now + 3_000}`, false],
  ])("%s → reads the primary: %s", (cookie, expected) => {
    expect(wroteRecently(cookie, now, 5_000)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import { privateCacheControl } from "./private-cache";

describe("privateCacheControl", () => {
  it.each([
    // Anonymous requests, no cookie set: the route's own rule, or none.
    [{ current: null, signedIn: false, setsCookie: false }, null],
    [{ current: "public, max-age=3600", signedIn: false, setsCookie: false }, "public, max-age=3600"],
    [{ current: "no-store", signedIn: false, setsCookie: false }, "no-store"],
    // Signed in: nothing said, a lifetime, or `private` alone become private, no-store.
    [{ current: null, signedIn: true, setsCookie: false }, "private, no-store"],
    [{ current: "", signedIn: true, setsCookie: false }, "private, no-store"],
    [{ current: "max-age=600", signedIn: true, setsCookie: false }, "private, no-store"],
    [{ current: "private", signedIn: true, setsCookie: false }, "private, no-store"],
    [{ current: "private, max-age=60", signedIn: true, setsCookie: false }, "private, no-store"],
    [{ current: "s-maxage=600, stale-while-revalidate=30", signedIn: true, setsCookie: false }, "private, no-store"],
    // Already not stored, or revalidated each time: made private, its other directives kept.
    [{ current: "no-store", signedIn: true, setsCookie: false }, "private, no-store"],
    [{ current: "private, no-store", signedIn: true, setsCookie: false }, "private, no-store"],
    [{ current: "No-Store", signedIn: true, setsCookie: false }, "private, No-Store"],
    [{ current: "no-cache, no-transform", signedIn: true, setsCookie: false }, "private, no-cache, no-transform"],
    [{ current: "private, no-cache", signedIn: true, setsCookie: false }, "private, no-cache"],
    // The same bytes for everyone (profile images, robots.txt): their own rule stands…
    [{ current: "public, max-age=31536000, immutable", signedIn: true, setsCookie: false }, "public, max-age=31536000, immutable"],
    // …unless the response sets a cookie: never shared, whoever asked.
    [{ current: "public, max-age=3600", signedIn: true, setsCookie: true }, "private, no-store"],
    [{ current: "public, no-cache", signedIn: false, setsCookie: true }, "private, no-cache"],
    [{ current: null, signedIn: false, setsCookie: true }, "private, no-store"],
    [{ current: "max-age=60", signedIn: false, setsCookie: true }, "private, no-store"],
  ])("%o → %s", (input, expected) => {
    expect(privateCacheControl(input)).toBe(expected);
  });
});

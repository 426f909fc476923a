import { describe, expect, it } from "vitest";
import { hasAppCookie, isCacheablePath, PageCache, personalise } from "./page-cache.server";

const page = (body: string, nonce = "N0NCE", requestId = "REQ-1") => ({ status: 200, headers: { "content-type": "text/html" }, body, nonce, requestId });

describe("isCacheablePath", () => {
  it.each([
    ["/", true],
    ["/annuaire", true],
    ["/consultant/jean-dupont-avocat-0f8fad5b", true],
    ["/faq", true],
    ["/cgu", true],
    ["/consultant/x.data", false],
    ["/annuaire.data", false],
    ["/consultant/", false],
    ["/consultant/a/b", false],
    ["/dashboard", false],
    ["/admin", false],
    ["/auth", false],
    ["/onboarding", false],
    ["/dev/mailbox", false],
    ["/api/auth/get-session", false],
    ["/parametres", false],
    ["/premium", false],
  ])("%s → %s", (path, expected) => {
    expect(isCacheablePath(path)).toBe(expected);
  });
});

describe("hasAppCookie", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["theme=dark", false],
    ["rt.session_token=abc", true],
    ["a=1; rt.session_token=abc", true],
    ["__Secure-rt.session_token=abc", true],
    ["rt_toast=xyz", true],
    ["a=1;rt.two_factor=1", true],
    ["smart.session=1", false],
    ["art_toast=1", false],
  ])("%s → %s", (header, expected) => {
    expect(hasAppCookie(header)).toBe(expected);
  });
});

describe("PageCache", () => {
  it("serves nothing until its invalidation listener is up", () => {
    const cache = new PageCache();
    expect(cache.set("/", page("a"), cache.currentGeneration)).toBe(false);
    cache.setListening(true);
    expect(cache.set("/", page("a"), cache.currentGeneration)).toBe(true);
    expect(cache.get("/")?.body).toBe("a");
    cache.setListening(false);
    expect(cache.get("/")).toBeUndefined();
    cache.setListening(true);
    // Whatever was stored before the listener went down is gone.
    expect(cache.get("/")).toBeUndefined();
  });

  it("tells whether the last invalidation is recent (pages read from a replica are not stored then)", () => {
    let now = 1_000_000;
    const cache = new PageCache({ now: () => now });
    expect(cache.invalidatedWithin(5_000)).toBe(false);
    cache.setListening(true);
    expect(cache.invalidatedWithin(5_000)).toBe(true);
    now += 5_000;
    expect(cache.invalidatedWithin(5_000)).toBe(false);
    cache.invalidate();
    now += 4_999;
    expect(cache.invalidatedWithin(5_000)).toBe(true);
  });

  it("drops everything on invalidation and refuses a render started before it", () => {
    const cache = new PageCache();
    cache.setListening(true);
    cache.set("/a", page("a"), cache.currentGeneration);
    const before = cache.currentGeneration;
    cache.invalidate();
    expect(cache.get("/a")).toBeUndefined();
    expect(cache.set("/b", page("b"), before)).toBe(false);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.set("/b", page("b"), cache.currentGeneration)).toBe(true);
  });

  it("expires entries after the TTL", () => {
    let now = 1000;
    const cache = new PageCache({ ttlMs: 100, now: () => now });
    cache.setListening(true);
    cache.set("/", page("a"), cache.currentGeneration);
    now = 1099;
    expect(cache.get("/")?.body).toBe("a");
    now = 1100;
    expect(cache.get("/")).toBeUndefined();
  });

  it("evicts the least recently used entries past the entry and byte limits", () => {
    const cache = new PageCache({ maxEntries: 2, maxBytes: 1_000_000 });
    cache.setListening(true);
    const g = cache.currentGeneration;
    cache.set("/1", page("1"), g);
    cache.set("/2", page("2"), g);
    cache.get("/1");
    cache.set("/3", page("3"), g);
    expect(cache.get("/2")).toBeUndefined();
    expect(cache.get("/1")?.body).toBe("1");
    expect(cache.get("/3")?.body).toBe("3");

    const small = new PageCache({ maxBytes: 80 });
    small.setListening(true);
    const gs = small.currentGeneration;
    small.set("/a", page("x".repeat(10)), gs);
    small.set("/b", page("y".repeat(10)), gs);
    // A page above an eighth of the budget is never stored.
    expect(small.set("/c", page("z".repeat(11)), gs)).toBe(false);
    expect(small.size).toBe(2);
  });
});

describe("personalise", () => {
  it("puts the current nonce and request id in place of the stored ones", () => {
    const cached = { ...page('<script nonce="OLD">x</script><p>REQ-OLD</p><script nonce="OLD"></script>', "OLD", "REQ-OLD"), bytes: 0, expiresAt: 0 };
    expect(personalise(cached, "NEW", "REQ-NEW")).toBe('<script nonce="NEW">x</script><p>REQ-NEW</p><script nonce="NEW"></script>');
  });
});

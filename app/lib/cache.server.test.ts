import { describe, expect, it } from "vitest";
import { CacheSet, cacheStats, invalidate, useCacheSet, type CacheOptions } from "./cache.server";
import { withRequestScope, currentRequestScope } from "./request-scope.server";

function cacheOf(options: Partial<CacheOptions<string>> = {}, listening = true) {
  const set = new CacheSet();
  const cache = set.create<string>("t", { ttlMs: 5_000, max: 100, tags: ["profiles"], ...options });
  set.setListening(listening);
  return { set, cache };
}

describe("Cache", () => {
  it("serves nothing until its invalidation listener is up, and starts empty when it is back", () => {
    const { set, cache } = cacheOf({}, false);
    expect(cache.store("k", "a", cache.lookup("k").generation)).toBe(false);
    set.setListening(true);
    expect(cache.store("k", "a", cache.lookup("k").generation)).toBe(true);
    expect(cache.lookup("k").value).toBe("a");
    set.setListening(false);
    expect(cache.lookup("k").value).toBeUndefined();
    set.setListening(true);
    expect(cache.lookup("k").value).toBeUndefined();
  });

  it("refuses a value read before an invalidation; a TTL of 0 keeps nothing", () => {
    const { set, cache } = cacheOf();
    const before = cache.lookup("k").generation;
    set.drop(["profiles"]);
    expect(cache.store("k", "stale", before)).toBe(false);
    expect(cache.store("k", "fresh", cache.lookup("k").generation)).toBe(true);
    const off = cacheOf({ ttlMs: 0 }).cache;
    expect(off.store("k", "v", off.lookup("k").generation)).toBe(false);
  });

  it("expires entries after the TTL, or sooner when asked (a session ending first)", () => {
    let now = 1_000;
    const { cache } = cacheOf({ ttlMs: 100, now: () => now });
    cache.store("a", "a", cache.lookup("a").generation);
    cache.store("b", "b", cache.lookup("b").generation, { ttlMs: 10 });
    now = 1_011;
    expect(cache.lookup("b").value).toBeUndefined();
    now = 1_100;
    expect(cache.lookup("a").value).toBe("a");
    now = 1_101;
    expect(cache.lookup("a").value).toBeUndefined();
  });

  it("evicts the least recently used past the entry and byte limits; an entry above an eighth of the bytes is never kept", () => {
    const { cache } = cacheOf({ max: 2 });
    for (const k of ["1", "2"]) cache.store(k, k, cache.lookup(k).generation);
    cache.lookup("1");
    cache.store("3", "3", cache.lookup("3").generation);
    expect(cache.lookup("2").value).toBeUndefined();
    expect(cache.lookup("1").value).toBe("1");
    const small = cacheOf({ maxBytes: 80, sizeOf: (v) => v.length }).cache;
    small.store("a", "x".repeat(10), small.lookup("a").generation);
    small.store("b", "y".repeat(10), small.lookup("b").generation);
    expect(small.store("c", "z".repeat(11), small.lookup("c").generation)).toBe(false);
    expect(small.size).toBe(2);
    expect(small.bytes).toBe(20);
  });

  it("drops everything for one of its tags, the tagged entries for an entry's tag, nothing for another tag", () => {
    const { set, cache } = cacheOf();
    cache.store("a", "a", cache.lookup("a").generation, { tags: ["user:1"] });
    cache.store("b", "b", cache.lookup("b").generation, { tags: ["user:2"] });
    set.drop(["mandates"]);
    expect(cache.size).toBe(2);
    set.drop(["user:1"]);
    expect(cache.lookup("a").value).toBeUndefined();
    expect(cache.lookup("b").value).toBe("b");
    expect(cache.holds("user:2")).toBe(true);
    set.drop(["profiles"]);
    expect(cache.size).toBe(0);
    expect(cache.holds("user:2")).toBe(false);
  });

  it("tells whether the last drop is recent (pages read from a replica are not stored then)", () => {
    let now = 1_000_000;
    const { set, cache } = cacheOf({ now: () => now });
    now += 5_000;
    expect(cache.droppedWithin(5_000)).toBe(false);
    set.drop(["profiles"]);
    now += 4_999;
    expect(cache.droppedWithin(5_000)).toBe(true);
  });
});

describe("invalidate and cacheStats", () => {
  it("drops on the instance's caches, remembers the tags in the request, and counts hits and misses per cache", async () => {
    const { set, cache } = cacheOf();
    useCacheSet(set);
    try {
      cache.store("k", "v", cache.lookup("k").generation);
      expect(cache.lookup("k").value).toBe("v");
      expect(cache.lookup("other").value).toBeUndefined();
      const tags = await withRequestScope("POST", async () => {
        invalidate("profiles");
        return [...currentRequestScope()!.invalidated];
      });
      expect(tags).toEqual(["profiles"]);
      expect(cache.size).toBe(0);
      expect(cacheStats()).toEqual([{ name: "t", size: 0, hits: 1, misses: 2, bytes: null, invalidations: 2 }]);
    } finally {
      useCacheSet(new CacheSet());
    }
  });
});

import { describe, expect, it } from "vitest";
import { cachedCount, CountCache, writesAdminCounts } from "./count-cache.server";

function cache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  let now = 1_000;
  const c = new CountCache({ ttlMs: options.ttlMs ?? 60_000, maxEntries: options.maxEntries, now: () => now });
  c.setListening(true);
  return { c, advance: (ms: number) => (now += ms) };
}

describe("CountCache", () => {
  it("keeps a count for its key, until its TTL", () => {
    const { c, advance } = cache({ ttlMs: 1_000 });
    const miss = c.lookup("a");
    expect(miss.count).toBeUndefined();
    c.store("a", 42, miss.generation);
    expect(c.lookup("a").count).toBe(42);
    expect(c.lookup("b").count).toBeUndefined();
    advance(999);
    expect(c.lookup("a").count).toBe(42);
    advance(1);
    expect(c.lookup("a").count).toBeUndefined();
    expect(c.stats).toMatchObject({ hits: 2, misses: 3 });
  });

  it("drops everything on an invalidation, and refuses a count that started before it", () => {
    const { c } = cache();
    c.store("a", 1, c.lookup("a").generation);
    const started = c.lookup("b");
    c.invalidate();
    c.store("b", 2, started.generation);
    expect(c.lookup("a").count).toBeUndefined();
    expect(c.lookup("b").count).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it("serves and keeps nothing while the listener is down, and starts empty when it is back", () => {
    const { c } = cache();
    c.store("a", 1, c.lookup("a").generation);
    c.setListening(false);
    expect(c.enabled).toBe(false);
    expect(c.lookup("a").count).toBeUndefined();
    c.store("a", 2, c.lookup("a").generation);
    c.setListening(true);
    expect(c.lookup("a").count).toBeUndefined();
  });

  it("forgets one key, and refuses a value of any key that started before", () => {
    const { c } = cache();
    c.store("alice", 1, c.lookup("alice").generation);
    c.store("bob", 2, c.lookup("bob").generation);
    const started = c.lookup("carol");
    c.forget("alice");
    expect(c.lookup("alice").count).toBeUndefined();
    expect(c.lookup("bob").count).toBe(2);
    c.store("carol", 3, started.generation);
    expect(c.lookup("carol").count).toBeUndefined();
  });

  it("is off with a TTL of 0", () => {
    const c = new CountCache({ ttlMs: 0 });
    c.setListening(true);
    c.store("a", 1, c.lookup("a").generation);
    expect(c.lookup("a").count).toBeUndefined();
  });

  it("keeps at most maxEntries keys, the least recently used going first", () => {
    const { c } = cache({ maxEntries: 2 });
    for (const key of ["a", "b"]) c.store(key, key.charCodeAt(0), c.lookup(key).generation);
    expect(c.lookup("a").count).toBe(97); // a is now the most recently used
    c.store("c", 99, c.lookup("c").generation);
    expect(c.size).toBe(2);
    expect(c.lookup("b").count).toBeUndefined();
    expect(c.lookup("a").count).toBe(97);
    expect(c.lookup("c").count).toBe(99);
  });
});

describe("CountCache bounded by weight", () => {
  const bytes = (n: number) => new Uint8Array(n);
  const cache = () => {
    const c = new CountCache<Uint8Array>({ ttlMs: 1_000, maxEntries: 10, maxWeight: 100, weigh: (v) => v.byteLength, now: () => 0 });
    c.setListening(true);
    return c;
  };

  it("keeps at most its weight, least recently used out first", () => {
    const c = cache();
    c.store("a", bytes(40), c.lookup("a").generation);
    c.store("b", bytes(40), c.lookup("b").generation);
    expect(c.lookup("a").count?.byteLength).toBe(40); // "a" is now the most recently used
    c.store("c", bytes(40), c.lookup("c").generation);
    expect(c.size).toBe(2);
    expect(c.weight).toBe(80);
    expect(c.lookup("b").count).toBeUndefined();
    expect(c.lookup("a").count).toBeDefined();
  });

  it("does not keep a value heavier than its whole weight, and counts a replaced, forgotten or cleared value out", () => {
    const c = cache();
    c.store("big", bytes(101), c.lookup("big").generation);
    expect(c.size).toBe(0);
    c.store("a", bytes(30), c.lookup("a").generation);
    c.store("a", bytes(50), c.lookup("a").generation);
    expect(c.weight).toBe(50);
    c.forget("a");
    expect(c.weight).toBe(0);
    c.store("b", bytes(20), c.lookup("b").generation);
    c.invalidate();
    expect(c.weight).toBe(0);
  });

  it("counts an expired value out when it is looked up", () => {
    let now = 0;
    const c = new CountCache<Uint8Array>({ ttlMs: 10, maxWeight: 100, weigh: (v) => v.byteLength, now: () => now });
    c.setListening(true);
    c.store("a", bytes(60), c.lookup("a").generation);
    now = 11;
    expect(c.lookup("a").count).toBeUndefined();
    expect(c.weight).toBe(0);
  });
});

describe("writesAdminCounts", () => {
  it.each([
    ['insert into "audit_log" ("actor_user_id", "action") values ($1, $2)', true],
    ["update recommendations set confirmed_at = now() where id = $1", true],
    ['delete from "public"."recommendations" where id = $1', true],
    ["truncate table audit_log", true],
    ['insert into "certified_deals" ("profile_id", "year") values ($1, $2)', true],
    ["update certified_deals set status = 'validated' where id = $1", true],
    ["with x as (insert into audit_log (action) values ('a') returning id) select * from x", true],
    ['select count(*) from "audit_log"', false],
    ["update recommendations_archive set x = 1", false],
    ['insert into "audit_logs" values (1)', false],
    ["update profiles set company = $1", false],
  ])("%s → %s", (statement, expected) => {
    expect(writesAdminCounts(statement)).toBe(expected);
  });
});

describe("cachedCount", () => {
  it("counts once while kept, every time without a cache", async () => {
    const { c } = cache();
    let runs = 0;
    const count = async () => ++runs * 10;
    expect(await cachedCount(c, "k", count)).toBe(10);
    expect(await cachedCount(c, "k", count)).toBe(10);
    c.invalidate();
    expect(await cachedCount(c, "k", count)).toBe(20);
    expect(await cachedCount(undefined, "k", count)).toBe(30);
    expect(await cachedCount(undefined, "k", count)).toBe(40);
  });
});

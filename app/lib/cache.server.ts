// The instance's in-memory caches, all of them: named, bounded (entries, bytes),
// each entry kept at most a TTL, dropped by tags.
//
// - A cache declares the tags it is computed from (tables: "profiles", "mandates"…): invalidating
//   one of them empties it. An entry may carry its own tags ("user:<id>"): invalidating one drops
//   those entries only.
// - The services that write call `invalidate(tag, …)` after their write: this instance drops at
//   once (and again when the request's response leaves, after its commit: server.ts). Every other
//   instance hears the same tags on one channel, 'rt_cache', which the database's triggers notify
//   at commit (migration 0027: the table written, or "user:<id>" for the guards' tables), so that
//   writes by scripts, jobs and other instances reach every cache. PGlite: its in-process LISTEN.
// - While that listener is not connected nothing is served, and every cache starts empty when it
//   is back (notifications may have been missed).
// - A value read before an invalidation is not stored (generation counter per cache).
//
// The caches live on globalThis: server.ts creates them, the server build's features read them
// (two module instances of this file).
import { LRUCache } from "lru-cache";
import type { Listen } from "~/db/listen.server";
import { currentRequestScope } from "./request-scope.server";

export const CACHE_CHANNEL = "rt_cache";

/** The tables the public pages show (and the read-after-write cookie follows). */
export const PUBLIC_TABLES = ["profiles", "certified_deals", "collaboration_files", "member_reputation"] as const;

export type CacheOptions<V> = {
  ttlMs: number;
  max: number;
  /** Tags whose invalidation empties the whole cache. */
  tags: readonly string[];
  /** With `sizeOf`: at most this many bytes in all, and an eighth of it per entry. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  /** Tests: the clock. */
  now?: () => number;
};

/** What a metrics endpoint or the development page shows of each cache. Stable. */
/** `bytes`: null for a cache bounded by its number of entries only. */
export type CacheStat = { name: string; size: number; hits: number; misses: number; bytes: number | null; invalidations: number };

type Slot<V> = { value: V; tags: readonly string[] };

export class Cache<V = unknown> {
  readonly name: string;
  readonly tags: ReadonlySet<string>;
  private readonly lru: LRUCache<string, Slot<V>>;
  private readonly byTag = new Map<string, Set<string>>();
  private readonly now: () => number;
  private generation = 0;
  private lastDropAt = Number.NEGATIVE_INFINITY;
  hits = 0;
  misses = 0;
  invalidations = 0;

  constructor(
    name: string,
    readonly options: CacheOptions<V>,
    private readonly set: CacheSet,
  ) {
    this.name = name;
    this.tags = new Set(options.tags);
    this.now = options.now ?? Date.now;
    const sizeOf = options.sizeOf;
    this.lru = new LRUCache<string, Slot<V>>({
      max: options.max,
      ttl: Math.max(1, options.ttlMs),
      ttlResolution: 0,
      perf: { now: this.now },
      ...(options.maxBytes && sizeOf
        ? { maxSize: options.maxBytes, maxEntrySize: Math.max(1, Math.floor(options.maxBytes / 8)), sizeCalculation: (slot: Slot<V>) => Math.max(1, sizeOf(slot.value)) }
        : {}),
      dispose: (slot, key) => {
        for (const tag of slot.tags) this.byTag.get(tag)?.delete(key);
      },
    });
  }

  /** Served and stored only while the instance hears invalidations, and with a TTL. */
  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.set.listening;
  }

  get size(): number {
    return this.lru.size;
  }

  /** The kept values' bytes (0 without `sizeOf`). */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /** The value kept for `key` (undefined when absent, expired or not trusted), and the generation a fresh value must be stored with. */
  lookup(key: string): { value: V | undefined; generation: number } {
    const generation = this.generation;
    if (!this.enabled) return { value: undefined, generation };
    const slot = this.lru.get(key);
    if (slot) this.hits++;
    else this.misses++;
    return { value: slot?.value, generation };
  }

  /** Keeps a value read during `generation` (not if an invalidation came since); `ttlMs` may shorten the cache's TTL. */
  store(key: string, value: V, generation: number, options: { tags?: readonly string[]; ttlMs?: number } = {}): boolean {
    if (!this.enabled || generation !== this.generation) return false;
    const tags = options.tags ?? [];
    const ttl = Math.min(this.options.ttlMs, options.ttlMs ?? Number.POSITIVE_INFINITY);
    if (ttl <= 0) return false;
    this.lru.set(key, { value, tags }, { ttl });
    if (!this.lru.has(key)) return false; // larger than an entry may be
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    return true;
  }

  /** The value kept under `key`, or `load()`'s, kept unless an invalidation came meanwhile. */
  async fetch(key: string, load: () => Promise<V>, options?: { tags?: readonly string[] }): Promise<V> {
    const kept = this.lookup(key);
    if (kept.value !== undefined) return kept.value;
    const value = await load();
    this.store(key, value, kept.generation, options);
    return value;
  }

  /** Drops one key. */
  forget(key: string): void {
    this.generation++;
    this.lru.delete(key);
  }

  /** Drops everything. */
  clear(): void {
    this.generation++;
    this.invalidations++;
    this.lastDropAt = this.now();
    this.lru.clear();
    this.byTag.clear();
  }

  /** Whether the last drop is less than `ms` old. */
  droppedWithin(ms: number): boolean {
    return this.now() - this.lastDropAt < ms;
  }

  /** Drops what `tag` covers: everything for one of the cache's tags, else the entries carrying it. */
  drop(tag: string): void {
    if (this.tags.has(tag)) return this.clear();
    const keys = this.byTag.get(tag);
    if (!keys) return;
    this.generation++;
    this.invalidations++;
    this.lastDropAt = this.now();
    for (const key of [...keys]) this.lru.delete(key);
    this.byTag.delete(tag);
  }

  /** Whether an entry carries `tag` (tests). */
  holds(tag: string): boolean {
    return (this.byTag.get(tag)?.size ?? 0) > 0;
  }

  stat(): CacheStat {
    return { name: this.name, size: this.size, hits: this.hits, misses: this.misses, bytes: this.options.maxBytes && this.options.sizeOf ? this.bytes : null, invalidations: this.invalidations };
  }
}

/** One instance's caches and whether it hears the invalidation channel. Tests make two to stand for two instances. */
export class CacheSet {
  readonly caches = new Map<string, Cache<unknown>>();
  listening = false;

  create<V>(name: string, options: CacheOptions<V>): Cache<V> {
    const cache = new Cache<V>(name, options, this);
    this.caches.set(name, cache as Cache<unknown>);
    return cache;
  }

  setListening(listening: boolean): void {
    // Notifications may have been missed while the listener was down: start empty.
    if (listening !== this.listening) for (const cache of this.caches.values()) cache.clear();
    this.listening = listening;
  }

  drop(tags: Iterable<string>): void {
    for (const tag of tags) for (const cache of this.caches.values()) cache.drop(tag);
  }

  /** LISTENs on the channel (server.ts, tests); returns how to stop. */
  listen(listen: Listen): () => Promise<void> {
    return listen(CACHE_CHANNEL, { notify: (payload) => this.drop(payload.split(",")), state: (up) => this.setListening(up) });
  }
}

const g = globalThis as unknown as { __rtCaches?: CacheSet };

/** The instance's caches. */
export function caches(): CacheSet {
  return (g.__rtCaches ??= new CacheSet());
}

/** Tests: makes `set` the instance's caches (two sets stand for two instances). */
export function useCacheSet(set: CacheSet): void {
  g.__rtCaches = set;
}

/** The cache named `name`, when server.ts (or a test) created it. */
export function getCache<V = unknown>(name: CacheName): Cache<V> | undefined {
  return caches().caches.get(name) as Cache<V> | undefined;
}

/**
 * A write changed what `tags` name: this instance drops it now, and again when the request's
 * response leaves (after its commit); other instances by the database's notification at commit.
 * Call it after the write (its transaction included).
 */
export function invalidate(...tags: string[]): void {
  caches().drop(tags);
  const scope = currentRequestScope();
  if (scope) for (const tag of tags) scope.invalidated.add(tag);
}

/** Name, size, hits and misses of each cache of this instance (metrics, /dev/caches). */
export function cacheStats(): CacheStat[] {
  return [...caches().caches.values()].map((cache) => cache.stat());
}

/** Whether a request's invalidations touched what the public pages show (read-after-write cookie). */
export function touchesPublicContent(tags: ReadonlySet<string>): boolean {
  return PUBLIC_TABLES.some((t) => tags.has(t));
}

/** The instance's caches, by name. */
export type CacheName = "public-pages" | "profile-totals" | "admin-totals" | "rankings" | "bells" | "guard-sessions" | "guard-members";

const MINUTE = 60_000;

/** Every cache of the app: what it is computed from and its bounds. */
export function cacheDefinitions(env: { sessionTtlMs: number; pageCacheBytes: number }): Record<CacheName, CacheOptions<never>> {
  const guardTags = ["profiles", "user_roles", "guard"];
  return {
    // Anonymous public pages: 5 minutes bound what cannot notify (the footer's year).
    "public-pages": { ttlMs: env.pageCacheBytes > 0 ? 5 * MINUTE : 0, max: 2_000, tags: PUBLIC_TABLES, maxBytes: Math.max(1, env.pageCacheBytes), sizeOf: (page: { bytes: number }) => page.bytes },
    // The directory's and the back office's profile totals and kept pages.
    "profile-totals": { ttlMs: MINUTE, max: 5_000, tags: PUBLIC_TABLES },
    "admin-totals": { ttlMs: MINUTE, max: 1_000, tags: ["recommendations", "audit_log", "certified_deals"] },
    // A ranking's rows weigh ~10–20 KB.
    rankings: { ttlMs: MINUTE, max: 5_000, tags: ["mandates", "profiles", "mandate_match_requests"], maxBytes: 64 * 1024 * 1024, sizeOf: (rows: unknown) => Buffer.byteLength(JSON.stringify(rows)) },
    // Each member's bell, entries tagged "notifications:<user id>".
    bells: { ttlMs: MINUTE, max: 10_000, tags: ["notifications"] },
    // The guards, entries tagged "user:<id>"; "guard": a write to more than 100 users.
    "guard-sessions": { ttlMs: env.sessionTtlMs, max: 10_000, tags: guardTags },
    "guard-members": { ttlMs: env.sessionTtlMs, max: 10_000, tags: guardTags },
  } as Record<CacheName, CacheOptions<never>>;
}

/** Creates every cache in `set` and connects it to the channel (server.ts). */
export function startCaches(set: CacheSet, listen: Listen, env: { sessionTtlMs: number; pageCacheBytes: number; off?: readonly string[] }): () => Promise<void> {
  for (const [name, options] of Object.entries(cacheDefinitions(env))) set.create(name, { ...(options as CacheOptions<unknown>), ...(env.off?.includes(name) ? { ttlMs: 0 } : {}) });
  return set.listen(listen);
}

/** A value kept by `cache` under `key`, or loaded (and kept). Without a cache, loaded each time. */
export function cached<V>(cache: Cache<unknown> | undefined, key: string, load: () => Promise<V>, options?: { tags?: readonly string[] }): Promise<V> {
  return cache ? (cache as Cache<V>).fetch(key, load, options) : load();
}

/**
 * Which rows a page of a search shows, in order, and the search's total: kept with the
 * profiles' totals by the internal directory and the back office's search, whose repeated views
 * read those rows by primary key (and check the search's conditions on them).
 */
export type KeptPage = { total: number; ids: string[] };

/** The page kept under `key` (none when absent or empty) and how to keep the page just read. */
export function keptPage(cache: Cache<unknown> | undefined, key: string): { page: KeptPage | undefined; keep: (page: KeptPage) => void } {
  const slot = cache?.lookup(key);
  const page = slot?.value as KeptPage | undefined;
  return {
    page: page && page.ids.length > 0 ? page : undefined,
    keep: (fresh) => {
      if (cache && slot && fresh.ids.length > 0) cache.store(key, fresh, slot.generation);
    },
  };
}

// Per-instance caches of totals over whole tables (issue 17, decision 023). The internal
// directory's: "99 999 confrères trouvés" counted the whole validated membership on every page of
// the unfiltered directory (33 ms of PostgreSQL at 100 000 members, the page's whole database
// time). The back office's: the recommendations' counts and the journal's total (their own
// channel, 'rt_admin_counts', migration 0019; see the end of this file).
//
// - Keyed by the search and filters; the value is the count of validated members that match,
//   the reader's own profile included (each reader subtracts their own match, read by primary key).
// - Invalidation: every write to profiles notifies 'rt_public_content' at commit (migration 0004),
//   on every instance; each one drops its totals, as it drops its anonymous pages. While the
//   listener is not connected (start, database outage), nothing is served from it.
// - A count that started before an invalidation is not stored (generation counter).
// - Bounded: at most `maxEntries` keys (least recently used go first), each for at most `ttlMs`.
//
// The instance's cache lives on globalThis: server.ts creates it and connects its listener, the
// server build's directory reads it (two module instances of this file).

import { writesTo } from "./sql-writes";

export type CountCacheOptions = { ttlMs: number; maxEntries?: number; now?: () => number };

type Entry = { count: number; expires: number };

export class CountCache {
  readonly ttlMs: number;
  readonly maxEntries: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private listening = false;
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  constructor(options: CountCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.ttlMs > 0 && this.listening;
  }

  get size(): number {
    return this.entries.size;
  }

  setListening(listening: boolean): void {
    // Notifications may have been missed while the listener was down: start empty.
    if (listening !== this.listening) this.invalidate();
    this.listening = listening;
  }

  invalidate(): void {
    this.generation++;
    this.stats.invalidations++;
    this.entries.clear();
  }

  /** The count kept for `key` (undefined when absent, expired or not trusted), and the generation a fresh count must be stored with. */
  lookup(key: string): { count: number | undefined; generation: number } {
    const generation = this.generation;
    if (!this.enabled) return { count: undefined, generation };
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      if (entry.expires > this.now()) {
        this.entries.set(key, entry); // most recently used last
        this.stats.hits++;
        return { count: entry.count, generation };
      }
    }
    this.stats.misses++;
    return { count: undefined, generation };
  }

  /** Keeps a count read from the database, unless an invalidation came since its `lookup`. */
  store(key: string, count: number, generation: number): void {
    if (!this.enabled || generation !== this.generation) return;
    this.entries.delete(key);
    this.entries.set(key, { count, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/** How long a total is kept when no write comes (a bound on anything a notification could miss). */
export const DIRECTORY_COUNT_TTL_MS = 60_000;

const g = globalThis as unknown as { __rtDirectoryCounts?: CountCache };

/** The instance's cache of directory totals, when server.ts created one. */
export function getDirectoryCounts(): CountCache | undefined {
  return g.__rtDirectoryCounts;
}

export function setDirectoryCounts(cache: CountCache | undefined): void {
  g.__rtDirectoryCounts = cache;
}

/** Writes to recommendations and audit_log notify this channel at commit (migration 0019). */
export const ADMIN_COUNTS_CHANNEL = "rt_admin_counts";

/** The back office's totals; also dropped at once by this instance's own writes to those tables. */
export const ADMIN_COUNT_TTL_MS = 60_000;

/** Whether a statement writes a table behind the back office's totals. */
export const writesAdminCounts = writesTo(["recommendations", "audit_log"]);

const admin = globalThis as unknown as { __rtAdminCounts?: CountCache };

export function getAdminCounts(): CountCache | undefined {
  return admin.__rtAdminCounts;
}

export function setAdminCounts(cache: CountCache | undefined): void {
  admin.__rtAdminCounts = cache;
}

/**
 * A total kept by `cache` under `key`, or counted by `count` (and kept unless an invalidation
 * came meanwhile). Without a cache, counted each time.
 */
export async function cachedCount(cache: CountCache | undefined, key: string, count: () => Promise<number>): Promise<number> {
  const kept = cache?.lookup(key);
  if (kept?.count !== undefined) return kept.count;
  const value = await count();
  if (cache && kept) cache.store(key, value, kept.generation);
  return value;
}

// Per-instance caches of totals over whole tables (issue 17, decision 023):
// - the profiles' totals: the internal directory's "99 999 confrères trouvés" (it counted the
//   whole validated membership on every view: 33 ms of PostgreSQL at 100 000 members, the page's
//   whole database time), which members each internal-directory page a member saw shows (a
//   search otherwise reads every match to sort them) and the back office's tiles. Every write to profiles notifies
//   'rt_public_content' at commit (migration 0004), on every instance;
// - the back office's other totals: the recommendations' counts, the journal's and the pending
//   deals'. Writes to those tables notify 'rt_admin_counts' (migrations 0019, 0020);
// - each member's notification state (the bell on every member page), by user id: the
//   notifications trigger names the user on 'rt_notifications' (migration 0013);
// - the rankings of potential matches (decision 031): a ranking statement's rows, by its text,
//   parameters and day; writes to mandates, profiles and mandate_match_requests notify
//   'rt_matching' (migration 0021).
//
// - A value is a count or a record of counts, keyed by what was counted (a search and its filters…).
// - Invalidation: each instance listening on the cache's channel drops all of it (server.ts); the
//   instance that writes drops it at once, before its statement runs (app/lib/request-scope.server.ts;
//   the bell: by explicit calls of the notifications service, decision 037).
//   While the listener is not connected (start, database outage), nothing is served from it.
// - A count that started before an invalidation is not stored (generation counter).
// - Bounded: at most `maxEntries` keys (least recently used go first), each for at most `ttlMs`.
//
// server.ts creates the instance's caches and connects their listeners; the features read them.

import { writesTo } from "./sql-writes";

export type CountCacheOptions<V = unknown> = {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
  /** With `weigh` (bytes of a kept value…): at most this total weight, least recently used out first. */
  maxWeight?: number;
  weigh?: (value: V) => number;
};

type Entry<V> = { count: V; expires: number; weight: number };

export class CountCache<V = number> {
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly maxWeight: number;
  // Held as taking any value, so that a cache of numbers is still a cache of unknown values.
  private readonly weigh: ((value: unknown) => number) | undefined;
  private readonly now: () => number;
  private readonly entries = new Map<string, Entry<V>>();
  private totalWeight = 0;
  private generation = 0;
  private listening = false;
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  constructor(options: CountCacheOptions<V>) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 1_000;
    this.maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
    this.weigh = options.weigh as ((value: unknown) => number) | undefined;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.ttlMs > 0 && this.listening;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The kept values' total weight (0 without `weigh`). */
  get weight(): number {
    return this.totalWeight;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
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
    this.totalWeight = 0;
  }

  /** Drops one key (a change to what it counted, notified for that key only). */
  forget(key: string): void {
    this.generation++;
    this.drop(key);
  }

  /** The count kept for `key` (undefined when absent, expired or not trusted), and the generation a fresh count must be stored with. */
  lookup(key: string): { count: V | undefined; generation: number } {
    const generation = this.generation;
    if (!this.enabled) return { count: undefined, generation };
    const entry = this.entries.get(key);
    if (entry) {
      if (entry.expires > this.now()) {
        this.entries.delete(key);
        this.entries.set(key, entry); // most recently used last
        this.stats.hits++;
        return { count: entry.count, generation };
      }
      this.drop(key);
    }
    this.stats.misses++;
    return { count: undefined, generation };
  }

  /** Keeps a count read from the database, unless an invalidation came since its `lookup`. */
  store(key: string, count: V, generation: number): void {
    if (!this.enabled || generation !== this.generation) return;
    const weight = this.weigh?.(count) ?? 0;
    this.drop(key);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { count, expires: this.now() + this.ttlMs, weight });
    this.totalWeight += weight;
    while (this.entries.size > this.maxEntries || this.totalWeight > this.maxWeight) this.drop(this.entries.keys().next().value as string);
  }
}

/** How long a total is kept when no write comes (a bound on anything a notification could miss). */
export const COUNT_TTL_MS = 60_000;

/** Writes to recommendations, audit_log (migration 0019) and certified_deals (0020) notify this channel at commit. */
export const ADMIN_COUNTS_CHANNEL = "rt_admin_counts";

/** Whether a statement writes a table behind the profiles' totals. */
export const writesProfileCounts = writesTo(["profiles"]);

/** Whether a statement writes a table behind the back office's other totals. */
export const writesAdminCounts = writesTo(["recommendations", "audit_log", "certified_deals"]);

/** Writes to mandates, profiles and mandate_match_requests notify this channel at commit (migration 0021). */
export const MATCHING_CHANNEL = "rt_matching";

/** Whether a statement writes a table the rankings of potential matches read. */
export const writesMatching = writesTo(["mandates", "profiles", "mandate_match_requests"]);

type Caches = { profiles?: CountCache<unknown>; admin?: CountCache<unknown>; notifications?: CountCache<unknown>; matching?: CountCache<unknown> };
const caches: Caches = {};

/** The instance's cache of the profiles' totals, when server.ts created one. */
export function getProfileCountCache(): CountCache<unknown> | undefined {
  return caches.profiles;
}

export function setProfileCountCache(cache: CountCache<unknown> | undefined): void {
  caches.profiles = cache;
}

/** The instance's cache of the back office's other totals, when server.ts created one. */
export function getAdminCountCache(): CountCache<unknown> | undefined {
  return caches.admin;
}

export function setAdminCountCache(cache: CountCache<unknown> | undefined): void {
  caches.admin = cache;
}

/**
 * A total (or a record of totals) kept by `cache` under `key`, or counted by `count` and kept
 * unless an invalidation came meanwhile. Without a cache, counted each time.
 */
export async function cachedCount<V>(cache: CountCache<unknown> | undefined, key: string, count: () => Promise<V>): Promise<V> {
  const kept = cache?.lookup(key);
  if (kept?.count !== undefined) return kept.count as V;
  const value = await count();
  if (cache && kept) cache.store(key, value, kept.generation);
  return value;
}

/**
 * Which rows a page of a search shows, in order, and the search's total (issue 17): kept with the
 * profiles' totals by the internal directory and the back office's search, whose repeated views
 * read those rows by primary key (and check the search's conditions on them) instead of every
 * match of the search to sort them.
 */
export type KeptPage = { total: number; ids: string[] };

/**
 * The page kept under `key` (none when absent, empty or not trusted) and how to keep the page just
 * read (not kept when an invalidation came since this lookup, nor when empty).
 */
export function keptPage(cache: CountCache<unknown> | undefined, key: string): { page: KeptPage | undefined; keep: (page: KeptPage) => void } {
  const slot = cache?.lookup(key);
  const page = slot?.count as KeptPage | undefined;
  return {
    page: page && page.ids.length > 0 ? page : undefined,
    keep: (fresh) => {
      if (cache && slot && fresh.ids.length > 0) cache.store(key, fresh, slot.generation);
    },
  };
}

/**
 * The instance's cache of each member's notification state (the bell: unread count and latest
 * notifications), by user id, when server.ts created one: dropped for a user when the
 * notifications trigger names them on 'rt_notifications' (every insert or update, at commit, on
 * every instance), and at once by the writes of app/features/notifications/notifications.server.ts.
 */
export function getNotificationCache(): CountCache<unknown> | undefined {
  return caches.notifications;
}

export function setNotificationCache(cache: CountCache<unknown> | undefined): void {
  caches.notifications = cache;
}

/** The instance's cache of the rankings of potential matches (decision 031), when server.ts created one. */
export function getMatchingCache(): CountCache<unknown> | undefined {
  return caches.matching;
}

export function setMatchingCache(cache: CountCache<unknown> | undefined): void {
  caches.matching = cache;
}

// The app's in-memory caches (app/lib/cache.server.ts) in `rt_cache_*{cache}`, read at scrape
// time: a cache turned off (CACHES_OFF) or not started reports nothing.
import { cacheStats, type CacheName } from "../cache.server";
import type { CacheStatsSource } from "./registry.server";

const NAMES: readonly CacheName[] = ["public-pages", "profile-totals", "admin-totals", "rankings", "bells", "guard-sessions", "guard-members"];

export function registerAppCaches(register: (name: string, source: CacheStatsSource) => void): void {
  for (const name of NAMES) {
    register(name, () => {
      const stat = cacheStats().find((s) => s.name === name);
      return stat && { hits: stat.hits, misses: stat.misses, size: stat.size, ...(stat.bytes === null ? {} : { bytes: stat.bytes }) };
    });
  }
}

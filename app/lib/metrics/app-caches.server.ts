// The app's in-memory caches in `rt_cache_*{cache}`: every registration in one place, so that a
// cache that changes module changes one line here. The page cache is created by server.ts,
// which registers it itself. Each source is read at scrape time (a cache may come later or go).
import { getAdminCountCache, getMatchingCache, getNotificationCache, getProfileCountCache, type CountCache } from "../count-cache.server";
import { getGuardCache } from "../guard-cache.server";
import type { CacheStatsSource } from "./registry.server";

const countCache = (get: () => CountCache<unknown> | undefined): CacheStatsSource => () => {
  const cache = get();
  return cache && { hits: cache.stats.hits, misses: cache.stats.misses, size: cache.size };
};

export function registerAppCaches(register: (name: string, source: CacheStatsSource) => void): void {
  register("guard", () => {
    const cache = getGuardCache();
    return cache && { hits: cache.stats.hits, misses: cache.stats.misses, size: cache.size.sessions + cache.size.members };
  });
  register("profile_counts", countCache(getProfileCountCache));
  register("admin_counts", countCache(getAdminCountCache));
  register("notification_states", countCache(getNotificationCache));
  register("matching", countCache(getMatchingCache));
}

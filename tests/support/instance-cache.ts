// The instance's caches (app/lib/cache.server.ts) as the integration tests install them:
// listening (as once server.ts's listener is connected), fresh for each test.
import { afterEach, beforeEach } from "vitest";
import { CacheSet, cacheDefinitions, useCacheSet, type Cache, type CacheName, type CacheOptions } from "~/lib/cache.server";

/** A listening set holding only the caches named (as an instance holds them once its listener is connected). */
export function listeningCaches(...names: CacheName[]): CacheSet {
  const definitions = cacheDefinitions({ sessionTtlMs: 60_000, pageCacheBytes: 64 * 1024 * 1024 });
  const set = new CacheSet();
  for (const name of names) set.create(name, definitions[name] as CacheOptions<unknown>);
  set.setListening(true);
  return set;
}

/** Installs a fresh listening cache named `name` as the instance's only one; returns it. */
export function installCache(name: CacheName): Cache<unknown> {
  const set = listeningCaches(name);
  useCacheSet(set);
  return set.caches.get(name)!;
}

/** Back to no cache at all (each statement runs). */
export function uninstallCaches(): void {
  useCacheSet(new CacheSet());
}

/** A fresh listening cache installed around each test of the enclosing describe; the getter gives the current one. */
export function useInstanceCache(name: CacheName): () => Cache<unknown> {
  let cache: Cache<unknown> | undefined;
  beforeEach(() => {
    cache = installCache(name);
  });
  afterEach(() => uninstallCaches());
  return () => cache!;
}

/** Replaces what `cache` keeps under `key` (as a write on another instance, its notification not yet arrived, would leave it stale). */
export function plant(cache: Cache<unknown>, key: string, value: unknown): void {
  cache.forget(key);
  cache.store(key, value, cache.lookup(key).generation);
}

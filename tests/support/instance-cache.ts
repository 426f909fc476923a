// The instance's caches of decision 023 (count-cache.server.ts) as the integration tests install
// them: listening (as once server.ts's listener is connected), fresh for each test.
import { afterEach, beforeEach } from "vitest";
import { CountCache } from "~/lib/count-cache.server";

type Install = (cache: CountCache<unknown> | undefined) => void;

/** A cache as an instance holds it once its listener is connected. */
export function listeningCache(): CountCache<unknown> {
  const cache = new CountCache<unknown>({ ttlMs: 60_000 });
  cache.setListening(true);
  return cache;
}

/** A fresh listening cache installed by `install` around each test of the enclosing describe; the getter gives the current one. */
export function useInstanceCache(install: Install): () => CountCache<unknown> {
  let cache = listeningCache();
  beforeEach(() => {
    cache = listeningCache();
    install(cache);
  });
  afterEach(() => install(undefined));
  return () => cache;
}

/** Replaces what `cache` keeps under `key` (as a write on another instance, its notification not yet arrived, would leave it stale). */
export function plant(cache: CountCache<unknown>, key: string, value: unknown): void {
  cache.forget(key);
  cache.store(key, value, cache.lookup(key).generation);
}

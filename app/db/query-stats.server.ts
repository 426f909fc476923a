// Queries per request, for the benchmark (issue 17: "queries per request counted and reported per
// page"). Every statement that goes through Drizzle — the app's own and better-auth's, which uses
// the same instance — is counted in the store of the request being served. The server opens a
// store per request only when QUERY_STATS is on; otherwise counting is one lookup that finds none.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "drizzle-orm/logger";

type QueryStats = { count: number };

const storage = new AsyncLocalStorage<QueryStats>();

/** Runs `fn` with a fresh counter; `stats()` inside it (and in what it awaits) reads it. */
export function withQueryStats<T>(fn: () => T): T {
  return storage.run({ count: 0 }, fn);
}

/** The counter of the request being served, or undefined outside withQueryStats. */
export function currentQueryStats(): QueryStats | undefined {
  return storage.getStore();
}

/** Drizzle's logger hook: counts, logs nothing (values could carry personal data). */
export const queryCounter: Logger = {
  logQuery() {
    const stats = storage.getStore();
    if (stats) stats.count += 1;
  },
};

// The scope of one HTTP request, carried by AsyncLocalStorage through everything that serves it:
// - a memo for what every loader of a page asks again (the session, the member's profile: the
//   root's header, the layout and the page each start with their guard), only for requests that
//   change nothing (GET, HEAD) — after an action, its loaders must see what it changed;
// - the count of SQL statements run to serve it (QUERY_STATS, for the benchmark of issue 17):
//   every statement through the app's Drizzle instance, better-auth's included.
// Outside a request (jobs, scripts, tests) there is no scope: nothing is memoised or counted.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "drizzle-orm/logger";

export type RequestScope = { readOnly: boolean; memo: Map<string, Promise<unknown>>; queries: number };

// One storage per process: server.ts loads this module from the sources (tsx) while the app's
// copy is bundled in build/server; both must see the same storage.
const g = globalThis as unknown as { __rtRequestScope?: AsyncLocalStorage<RequestScope> };
const storage = (g.__rtRequestScope ??= new AsyncLocalStorage<RequestScope>());

/** Runs `fn` (and everything it starts) in a new request scope. */
export function withRequestScope<T>(method: string, fn: () => T): T {
  return storage.run({ readOnly: method === "GET" || method === "HEAD", memo: new Map(), queries: 0 }, fn);
}

/** The scope of the request being served, or undefined outside one. */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}

/**
 * `load()` once per read-only request for a given key; every time elsewhere. A rejection is kept
 * too (a database outage met by the first loader is the answer for the others).
 */
export function oncePerRequest<T>(key: string, load: () => Promise<T>): Promise<T> {
  const scope = storage.getStore();
  if (!scope?.readOnly) return load();
  let value = scope.memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = load();
    scope.memo.set(key, value);
  }
  return value;
}

/** Drizzle's logger hook: counts, logs nothing (values could carry personal data). */
export const queryCounter: Logger = {
  logQuery() {
    const scope = storage.getStore();
    if (scope) scope.queries += 1;
  },
};

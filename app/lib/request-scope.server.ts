// The scope of one HTTP request, carried by AsyncLocalStorage through everything that serves it:
// - a memo for what every loader of a page asks again (the session, the member's profile: the
//   root's header, the layout and the page each start with their guard), only for requests that
//   change nothing (GET, HEAD) — after an action, its loaders must see what it changed;
// - the count of SQL statements run to serve it (QUERY_STATS, for the benchmark):
//   every statement through the app's Drizzle instance, better-auth's included.
// - the cache tags its writes invalidated (app/lib/cache.server.ts), and its reads from the
//   replica.
// Outside a request (jobs, scripts, tests) there is no scope: nothing is memoised or counted.
import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync } from "node:fs";
import type { Logger } from "drizzle-orm/logger";

/**
 * Benchmark only (QUERY_LOG): the statements of this request, with their parameters, appended to
 * a file as JSON lines `{ label, path, sql, params }` so that the bench can EXPLAIN each one. Only
 * for the requests that ask for it (the label is what they sent in `X-Query-Log`); parameters can
 * carry personal data, so never in production.
 */
export type QueryLog = { file: string; label: string; path: string };

export type RequestScope = {
  readOnly: boolean;
  memo: Map<string, Promise<unknown>>;
  queries: number;
  log: QueryLog | null;
  /** The cache tags this request's writes invalidated: dropped again once committed (server.ts). */
  invalidated: Set<string>;
  /** Reads served by the read replica (app/db/read-replica.server.ts); such a page may be stale. */
  replicaReads: number;
};

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (and everything it starts) in a new request scope. */
export function withRequestScope<T>(method: string, fn: () => T, log: QueryLog | null = null): T {
  return storage.run({ readOnly: method === "GET" || method === "HEAD", memo: new Map(), queries: 0, log, invalidated: new Set(), replicaReads: 0 }, fn);
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

/** Drizzle's logger hook: counts; logs nothing, except to the benchmark's QUERY_LOG file. */
export const queryCounter: Logger = {
  logQuery(query: string, params: unknown[]) {
    const scope = storage.getStore();
    if (!scope) return;
    scope.queries += 1;
    if (scope.log) appendFileSync(scope.log.file, `${JSON.stringify({ label: scope.log.label, path: scope.log.path, sql: query, params })}\n`);
  },
};

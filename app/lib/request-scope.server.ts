// The scope of one HTTP request, carried by AsyncLocalStorage through everything that serves it:
// - a memo for what every loader of a page asks again (the session, the member's profile: the
//   root's header, the layout and the page each start with their guard), only for requests that
//   change nothing (GET, HEAD) — after an action, its loaders must see what it changed;
// - the count of SQL statements run to serve it (QUERY_STATS, for the benchmark of issue 17):
//   every statement through the app's Drizzle instance, better-auth's included.
// - whether it wrote what the public pages show, and read from the replica (decision 022).
// Outside a request (jobs, scripts, tests) there is no scope: nothing is memoised or counted.
import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync } from "node:fs";
import type { Logger } from "drizzle-orm/logger";
import {
  getAdminCountCache,
  getMatchingCache,
  getProfileCountCache,
  writesAdminCounts,
  writesMatching,
  writesProfileCounts,
} from "./count-cache.server";
import { getGuardCache, guardTablesWritten, writesGuardTables } from "./guard-cache.server";
import { writesPublicContent } from "./read-after-write";

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
  /** A statement wrote the tables behind the guards (app/lib/guard-cache.server.ts). */
  wroteGuard: boolean;
  /** A statement wrote what the public pages show: the response sets the read-after-write cookie. */
  wrotePublic: boolean;
  /** Reads served by the read replica (app/db/read-replica.server.ts); such a page may be stale. */
  replicaReads: number;
};

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` (and everything it starts) in a new request scope. */
export function withRequestScope<T>(method: string, fn: () => T, log: QueryLog | null = null): T {
  return storage.run({ readOnly: method === "GET" || method === "HEAD", memo: new Map(), queries: 0, log, wroteGuard: false, wrotePublic: false, replicaReads: 0 }, fn);
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

/**
 * Drizzle's logger hook: counts; logs nothing, except to the benchmark's QUERY_LOG file. A write
 * to the guards' tables empties this instance's guard cache at once (before the statement runs;
 * the request's end empties it again, after its commit: server.ts); a write to the tables behind
 * a totals cache drops it (again at commit, by notification: app/lib/count-cache.server.ts).
 */
export const queryCounter: Logger = {
  logQuery(query: string, params: unknown[]) {
    const scope = storage.getStore();
    if (getGuardCache() && writesGuardTables(query)) {
      guardTablesWritten();
      if (scope) scope.wroteGuard = true;
    }
    // Totals over the tables written: dropped now on this instance, again at commit by notification.
    if (writesProfileCounts(query)) getProfileCountCache()?.invalidate();
    if (writesAdminCounts(query)) getAdminCountCache()?.invalidate();
    if (writesMatching(query)) getMatchingCache()?.invalidate();
    if (!scope) return;
    if (!scope.wrotePublic && writesPublicContent(query)) scope.wrotePublic = true;
    scope.queries += 1;
    if (scope.log) appendFileSync(scope.log.file, `${JSON.stringify({ label: scope.log.label, path: scope.log.path, sql: query, params })}\n`);
  },
};

// The read replica (DATABASE_READ_URL): the one way to read from it.
//
// Only the public directory's search (/annuaire) and the public profile (/consultant/:slug) read
// there, through `withReadReplica(request, (handle) => …)`. Everything else — the member area,
// sessions and guards, every action, every transaction, the jobs — uses the primary (`db`).
//
// A read goes to the primary instead when:
// - no replica is configured (DATABASE_READ_URL unset, or the embedded database);
// - the request is not a GET or HEAD (an action reads what it is about to write);
// - the browser wrote public content a few seconds ago (its `rt_fresh` cookie,
//   app/lib/read-after-write.ts): the replica may not have replayed that write yet;
// - the replica failed a moment ago (circuit open, see below).
// When the replica fails (unreachable, no free connection within 1 s, a query cancelled by a
// recovery conflict…), the same read runs again on the primary and a warning is logged: a replica
// never causes an error page. After a failure the replica is left alone for REPLICA_RETRY_MS, so
// that each request does not wait for its connection timeout while it is down.
import { getDatabase, type Db } from "./client.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { wroteRecently } from "~/lib/read-after-write";
import { currentRequestScope } from "~/lib/request-scope.server";

/** How long the replica is left alone after it failed. */
export const REPLICA_RETRY_MS = 10_000;

const state = { downUntil: 0, failures: 0 };

/** Forgets a past failure (tests). */
export function resetReplicaState() {
  state.downUntil = 0;
  state.failures = 0;
}

export type ReadTarget = "replica" | "primary";

/**
 * Pure: where a public read of this request goes. `request` carries the method and the cookies;
 * `replica` says whether one is configured and not failing.
 */
export function publicReadTarget(
  request: Pick<Request, "method" | "headers">,
  options: { replica: boolean; now: number; afterWriteMs: number },
): ReadTarget {
  if (!options.replica) return "primary";
  if (request.method !== "GET" && request.method !== "HEAD") return "primary";
  if (wroteRecently(request.headers.get("cookie"), options.now, options.afterWriteMs)) return "primary";
  return "replica";
}

/**
 * Runs one public read on the replica when the rule allows it, else on the primary; on any error
 * from the replica, runs it again on the primary. `read` must only read (it may run twice).
 */
export async function withReadReplica<T>(request: Request, read: (handle: Db) => Promise<T>): Promise<T> {
  const holder = getDatabase();
  const now = Date.now();
  const replica = holder.read && now >= state.downUntil ? holder.read.db : undefined;
  const target = publicReadTarget(request, { replica: Boolean(replica), now, afterWriteMs: getEnv().DATABASE_READ_AFTER_WRITE_MS });
  if (target === "primary" || !replica) return read(holder.db);
  try {
    const result = await read(replica);
    const scope = currentRequestScope();
    if (scope) scope.replicaReads += 1;
    if (state.failures > 0) {
      logger.info({ failures: state.failures }, "read replica answers again");
      state.failures = 0;
    }
    return result;
  } catch (error) {
    state.downUntil = Date.now() + REPLICA_RETRY_MS;
    state.failures += 1;
    logger.warn({ err: error, retryInMs: REPLICA_RETRY_MS }, "read replica failed: reading from the primary");
    return read(holder.db);
  }
}

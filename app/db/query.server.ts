// Raw SQL with typed rows, on either driver (both return `{ rows }`).
import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { db as defaultDb, getDatabase, REUSABLE_PLAN_MARK, REUSABLE_PLAN_NAME, type Db } from "./client.server";
import { cached, type Cache } from "~/lib/cache.server";
import { memoByObject } from "~/lib/memo";

export async function queryRows<T>(query: SQL, handle: Db = defaultDb): Promise<T[]> {
  const result = (await handle.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const dialect = new PgDialect();

/**
 * A read-only statement's rows kept by `cache` under its text, its parameters and
 * `scope` (what else its answer depends on: the Paris day a `current_date` reads…), until a write
 * to the tables behind that cache drops it. Without a cache, or while its listener is down, the
 * statement runs each time. The rows are shared by the requests that read them: callers map them
 * into their own objects and never change them.
 */
export async function queryRowsKept<T>(cache: Cache<unknown> | undefined, query: SQL, scope = ""): Promise<T[]> {
  if (!cache?.enabled) return queryRows<T>(query);
  const compiled = dialect.sqlToQuery(query);
  const key = createHash("sha256").update(compiled.sql).update("\0").update(JSON.stringify(compiled.params)).update("\0").update(scope).digest("base64url");
  return cached(cache, key, () => queryRows<T>(query));
}

/**
 * Marks a statement whose best plan does not depend on its parameters' values (lookups by the
 * acting member's id): on PostgreSQL it is
 * prepared once per connection and its plan reused. Never for a search or a filter.
 */
export function withReusablePlan(query: SQL): SQL {
  return sql`${sql.raw(REUSABLE_PLAN_MARK)} ${query}`;
}

/** What drizzle's query builders can turn into a prepared query. */
type Preparable = { prepare(name: string): unknown };

/**
 * A query-builder statement built once per database instead of on every call: drizzle turns the
 * builder into SQL text and a row mapper when it is prepared, then only binds the values
 * (`sql.placeholder`) on each execution. Building a select with its columns cost more CPU than
 * the rest of the frame's loader on every member page.
 *
 * With `reusablePlan` (same rule as `withReusablePlan`: a lookup by the acting member's id), PostgreSQL also keeps its plan; otherwise the statement
 * runs unnamed, as any other. A transaction handle gets its own build. Every value that varies
 * must be a placeholder: anything else in the builder is fixed at its first use.
 */
export function builtOnce<Q extends Preparable>(build: (db: Db) => Q, options: { reusablePlan?: boolean } = {}): (handle?: Db) => ReturnType<Q["prepare"]> {
  const name = options.reusablePlan ? REUSABLE_PLAN_NAME : "";
  const built = memoByObject((target: Db) => build(target).prepare(name) as ReturnType<Q["prepare"]>);
  return (handle = defaultDb) => built(handle === defaultDb ? getDatabase().db : handle);
}

/** A JSON value of a row (json_agg, json_build_object…): parsed by the driver, or still text. */
export function jsonValue<T>(value: T | string | null | undefined): T | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

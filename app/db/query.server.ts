// Raw SQL with typed rows, on either driver (both return `{ rows }`).
import { sql, type SQL } from "drizzle-orm";
import { db as defaultDb, REUSABLE_PLAN_MARK, type Db } from "./client.server";

export async function queryRows<T>(query: SQL, handle: Db = defaultDb): Promise<T[]> {
  const result = (await handle.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Marks a statement whose best plan does not depend on its parameters' values (lookups by the
 * acting member's id, measured with a generic plan at 100 000 members): on PostgreSQL it is
 * prepared once per connection and its plan reused (decision 026). Never for a search or a filter.
 */
export function withReusablePlan(query: SQL): SQL {
  return sql`${sql.raw(REUSABLE_PLAN_MARK)} ${query}`;
}

/** A JSON value of a row (json_agg, json_build_object…): parsed by the driver, or still text. */
export function jsonValue<T>(value: T | string | null | undefined): T | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

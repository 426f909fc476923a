// Raw SQL with typed rows, on either driver (both return `{ rows }`).
import type { SQL } from "drizzle-orm";
import { db as defaultDb, type Db } from "./client.server";

export async function queryRows<T>(query: SQL, handle: Db = defaultDb): Promise<T[]> {
  const result = (await handle.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A JSON value of a row (json_agg, json_build_object…): parsed by the driver, or still text. */
export function jsonValue<T>(value: T | string | null | undefined): T | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

// Raw SQL with typed rows, on either driver (both return `{ rows }`).
import type { SQL } from "drizzle-orm";
import { db as defaultDb, type Db } from "./client.server";

export async function queryRows<T>(query: SQL, handle: Db = defaultDb): Promise<T[]> {
  const result = (await handle.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

// Queries per request (QUERY_STATS, for the benchmark): every statement through the app's Drizzle
// instance — plain queries, the query builder and transactions — is counted in the store of the
// request it serves, and only there.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { currentQueryStats, withQueryStats } from "~/db/query-stats.server";
import { profiles } from "~/db/schema";
import { useTestDatabase } from "../support/db";

useTestDatabase();

describe("query stats", () => {
  it("counts each statement of the request it serves, awaited calls included", async () => {
    const count = await withQueryStats(async () => {
      await db.execute(sql`select 1`);
      await db.select({ id: profiles.id }).from(profiles).limit(1);
      await Promise.all([db.execute(sql`select 2`), db.execute(sql`select 3`)]);
      return currentQueryStats()?.count;
    });
    expect(count).toBe(4);
  });

  it("keeps two concurrent requests apart, and counts nothing outside a request", async () => {
    const run = (n: number) =>
      withQueryStats(async () => {
        for (let i = 0; i < n; i++) await db.execute(sql`select ${i}`);
        return currentQueryStats()?.count;
      });
    expect(await Promise.all([run(1), run(3)])).toEqual([1, 3]);
    await db.execute(sql`select 1`);
    expect(currentQueryStats()).toBeUndefined();
  });
});

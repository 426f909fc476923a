// Statements marked with a reusable plan are prepared once per PostgreSQL connection (decision
// 026): named by their text, reused with other parameters; unmarked ones (searches, filters) and
// statements without parameters are never prepared.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PREPARED_STATEMENTS_MAX, preparedStatementName } from "~/db/client.server";
import { queryRows, withReusablePlan } from "~/db/query.server";
import { useTestDatabase } from "../support/db";

const database = useTestDatabase();

describe("on PostgreSQL", () => {
  it("a marked statement with parameters is prepared on its connection and reused with other values; others are not", async (ctx) => {
    if (database.driver !== "pg") {
      ctx.skip(); // PGlite runs in process: nothing to prepare.
      return;
    }
    const db = database.db!;
    await db.transaction(async (tx) => {
      // One connection for the whole transaction.
      const first = await queryRows<{ n: number }>(withReusablePlan(sql`select ${20}::int + 1 as n, 'rt-prepared-probe' as probe`), tx as never);
      const second = await queryRows<{ n: number }>(withReusablePlan(sql`select ${40}::int + 1 as n, 'rt-prepared-probe' as probe`), tx as never);
      expect(first[0]!.n).toBe(21);
      expect(second[0]!.n).toBe(41);
      const prepared = await queryRows<{ name: string; statement: string }>(
        sql.raw(`select name, statement from pg_prepared_statements where statement like '%rt-prepared-probe%' and statement not like '%pg_prepared_statements%'`),
        tx as never,
      );
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.name).toMatch(/^rt_/);
      // Not marked (a search, a filter): planned for its values on every run, nothing prepared.
      const unmarked = await queryRows<{ n: number }>(sql`select ${1}::int as n, 'rt-unprepared-probe' as probe`, tx as never);
      expect(unmarked[0]!.n).toBe(1);
      // Marked but without parameters: the simple protocol, nothing prepared.
      await queryRows(withReusablePlan(sql.raw("select 'rt-unprepared-probe' as probe")), tx as never);
      const unprepared = await queryRows<{ name: string }>(
        sql.raw(`select name from pg_prepared_statements where statement like '%rt-unprepared-probe%' and statement not like '%pg_prepared_statements%'`),
        tx as never,
      );
      expect(unprepared).toHaveLength(0);
    });
  });
});

describe("preparedStatementName", () => {
  it("names a text the same way every time, and two texts apart", () => {
    const a = preparedStatementName("select $1::int as rt_name_test_a");
    expect(a).toMatch(/^rt_[A-Za-z0-9_-]{40}$/);
    expect(preparedStatementName("select $1::int as rt_name_test_a")).toBe(a);
    expect(preparedStatementName("select $1::int as rt_name_test_b")).not.toBe(a);
    // PostgreSQL keeps NAMEDATALEN - 1 = 63 bytes of a name.
    expect(a!.length).toBeLessThanOrEqual(63);
  });

  // Last: it fills this file's process-wide table of names.
  it(`names at most ${PREPARED_STATEMENTS_MAX} texts per process; the others run unnamed`, () => {
    const names = new Set<string | undefined>();
    for (let i = 0; i <= PREPARED_STATEMENTS_MAX; i++) names.add(preparedStatementName(`select $1::int + ${i} as rt_bound_test`));
    expect(names.has(undefined)).toBe(true);
    // Texts named before the bound keep their name.
    expect(preparedStatementName("select $1::int as rt_name_test_a")).toMatch(/^rt_/);
  });
});

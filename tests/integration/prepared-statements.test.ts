// Statements marked with a reusable plan are prepared once per PostgreSQL connection (decision
// 026): named by their text, reused with other parameters; unmarked ones (searches, filters) and
// statements without parameters are never prepared.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db as appDb, PREPARED_STATEMENTS_MAX, preparedStatementName, REUSABLE_PLAN_MARK, REUSABLE_PLAN_NAME, withPreparedName } from "~/db/client.server";
import { builtOnce, queryRows, withReusablePlan } from "~/db/query.server";
import { user } from "~/db/schema";
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

describe("builtOnce", () => {
  it("builds a query-builder statement once per database, then runs it with each call's values", async () => {
    let builds = 0;
    const byEmail = builtOnce((db) => {
      builds++;
      return db.select({ email: user.email, createdAt: user.createdAt }).from(user).where(eq(user.email, sql.placeholder("email")));
    });
    const [a, b] = ["built-once-a@exemple.fr", "built-once-b@exemple.fr"];
    await appDb.insert(user).values([a, b].map((email) => ({ id: email, name: email, email, emailVerified: true })));
    const first = await byEmail().execute({ email: a });
    const second = await byEmail().execute({ email: b });
    expect(first.map((r) => r.email)).toEqual([a]);
    expect(second.map((r) => r.email)).toEqual([b]);
    // Mapped as the builder maps them.
    expect(first[0]!.createdAt).toBeInstanceOf(Date);
    expect(await byEmail().execute({ email: "nobody@exemple.fr" })).toEqual([]);
    expect(builds).toBe(1);
    // A transaction handle gets its own build, on its connection.
    await appDb.transaction(async (tx) => {
      expect((await byEmail(tx as never).execute({ email: a })).map((r) => r.email)).toEqual([a]);
    });
    expect(builds).toBe(2);
  });

  it("prepares a statement built with a reusable plan on PostgreSQL, and only that one", async (ctx) => {
    if (database.driver !== "pg") {
      ctx.skip(); // PGlite runs in process: nothing to prepare.
      return;
    }
    const reusable = builtOnce((db) => db.select({ n: sql<number>`${sql.placeholder("n")}::int + 1`.mapWith(Number), probe: sql`'rt-built-reusable'` }).from(user).limit(1), { reusablePlan: true });
    const plain = builtOnce((db) => db.select({ n: sql<number>`${sql.placeholder("n")}::int + 1`.mapWith(Number), probe: sql`'rt-built-plain'` }).from(user).limit(1));
    await appDb.transaction(async (tx) => {
      expect((await reusable(tx as never).execute({ n: 1 }))[0]!.n).toBe(2);
      expect((await reusable(tx as never).execute({ n: 5 }))[0]!.n).toBe(6);
      expect((await plain(tx as never).execute({ n: 1 }))[0]!.n).toBe(2);
      expect((await plain(tx as never).execute({ n: 7 }))[0]!.n).toBe(8);
      const prepared = await queryRows<{ name: string; statement: string }>(
        sql.raw(`select name, statement from pg_prepared_statements where statement like '%rt-built-%' and statement not like '%pg_prepared_statements%'`),
        tx as never,
      );
      expect(prepared.map((p) => p.statement.includes("rt-built-reusable"))).toEqual([true]);
      expect(prepared[0]!.name).toMatch(/^rt_/);
    });
  });
});

describe("withPreparedName", () => {
  const text = `${REUSABLE_PLAN_MARK} select $1::int`;
  const cases: Array<[string, unknown[], boolean, string | undefined]> = [
    ["a marked text with values", [{ text }, [1]], true, preparedStatementName(text)],
    ["a marked text, preparing off", [{ text }, [1]], false, undefined],
    ["a marked text without values", [{ text }, []], true, undefined],
    ["an unmarked text", [{ text: "select $1::int" }, [1]], true, undefined],
    ["drizzle's prepared query with the mark as its name", [{ text: "select $1::int", name: REUSABLE_PLAN_NAME }, [1]], true, preparedStatementName("select $1::int")],
    ["drizzle's prepared query, preparing off (the mark is no name)", [{ text: "select $1::int", name: REUSABLE_PLAN_NAME }, [1]], false, undefined],
    ["drizzle's unnamed prepared query", [{ text: "select $1::int", name: "" }, [1]], true, ""],
  ];
  it.each(cases)("%s", (_label, args, prepare, name) => {
    const [config] = withPreparedName(args, prepare) as [{ name?: string }];
    expect(config.name).toBe(name);
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

// The bench's EXPLAIN step (scripts/bench/explain.ts, issue 17): the statements of a request that
// asks for it are logged with their parameters, then explained on the database, and the plans that
// read a large table whole are named.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { withReusablePlan } from "~/db/query.server";
import { profiles } from "~/db/schema";
import { withRequestScope } from "~/lib/request-scope.server";
import { boundStatement, explainPages, explainTable, inspectPlan, readQueryLog, summarise, type PlanNode } from "../../scripts/bench/explain";
import { useTestDatabase } from "../support/db";

useTestDatabase();

const dir = mkdtempSync(path.join(os.tmpdir(), "rt-explain-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("query log", () => {
  it("logs the statements of the requests that ask for it, with their parameters, and only those", async () => {
    const file = path.join(dir, "log.jsonl");
    await withRequestScope("GET", async () => {
      await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.lastName, "Martin")).limit(3);
      await db.execute(sql`select ${"x"}::text as value`);
    }, { file, label: encodeURIComponent("/annuaire?q=martin (sans cache)"), path: "/annuaire?q=martin" });
    await withRequestScope("GET", async () => {
      await db.execute(sql`select 1`);
    });
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { path: string; sql: string; params: unknown[] });
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.path === "/annuaire?q=martin")).toBe(true);
    expect([...readQueryLog(file).keys()]).toEqual(["/annuaire?q=martin (sans cache)"]);
    expect(lines[0]!.sql).toMatch(/from "profiles"/);
    expect(lines[0]!.params).toEqual(["Martin", 3]);
    expect(lines[1]!.params).toEqual(["x"]);
  });

  it("explains each logged statement with its parameters bound, arrays included", async () => {
    const file = path.join(dir, "explain.jsonl");
    await withRequestScope("GET", async () => {
      await db.select({ id: profiles.id }).from(profiles).where(inArray(profiles.lastName, ["a", "b"]));
      await db.execute(sql`select count(*) from profiles where last_name = any(${sql.param(["a", "b"])}::text[])`);
      // A statement marked for a reusable plan (decision 026) starts with a comment: still explained.
      await db.execute(withReusablePlan(sql`select id from profiles where id = ${"00000000-0000-4000-8000-000000000000"}::uuid`));
    }, { file, label: "%2Fmandates%3Fmatching%3D%E2%80%A6", path: "/mandates?matching=1" });
    const logged = readQueryLog(file);
    expect([...logged.keys()]).toEqual(["/mandates?matching=…"]);
    const pages = await explainPages(logged);
    expect(pages).toHaveLength(1);
    const [first, second, marked] = pages[0]!.statements;
    expect(pages[0]!.statements).toHaveLength(3);
    expect(first!.error).toBeUndefined();
    expect(second!.error).toBeUndefined();
    expect(marked!.error).toBeUndefined();
    expect(marked!.summary).toBe("select profiles");
    expect(first!.summary).toBe("select profiles");
    expect(first!.nodes.join(" ")).toMatch(/profiles/);
    // An empty test table is not large: nothing to review.
    expect(first!.wholeTableScans).toEqual([]);
    const table = explainTable(pages);
    expect(table[1]).toEqual(expect.arrayContaining(["/mandates?matching=…", "3", "aucune", "OK"]));
  });
});

describe("plans", () => {
  const plan: PlanNode = {
    "Node Type": "Limit",
    Plans: [
      {
        "Node Type": "Nested Loop",
        Plans: [
          { "Node Type": "Seq Scan", "Relation Name": "profiles" },
          { "Node Type": "Index Scan", "Relation Name": "mandates", "Index Name": "mandates_profile_idx" },
          { "Node Type": "Seq Scan", "Relation Name": "sectors" },
        ],
      },
    ],
  };

  it.each([
    [100_000, 50, [{ table: "profiles", rows: 100_000 }]],
    [9_999, 50, []],
    [10_000, 20_000, [{ table: "profiles", rows: 10_000 }, { table: "sectors", rows: 20_000 }]],
  ])("profiles of %i rows, sectors of %i rows", (profileRows, sectorRows, expected) => {
    const sizes = new Map([["profiles", profileRows], ["mandates", 100_000], ["sectors", sectorRows]]);
    const result = inspectPlan(plan, sizes);
    expect(result.nodes).toEqual(["Limit", "Nested Loop", "Seq Scan profiles", "Index Scan mandates", "Seq Scan sectors"]);
    expect(result.wholeTableScans).toEqual(expected);
  });

  it.each([
    ['select "id" from "profiles" where "slug" = $1', "select profiles"],
    ['select * from profiles p join "user" u on u.id = p.user_id left join mandates m on m.profile_id = p.id', "select profiles, user, mandates"],
    ['update "session" set "updated_at" = $1 where "id" = $2', "update session"],
    ['insert into "audit_log" ("a") values ($1)', "insert audit_log"],
  ])("summarises %s", (text, expected) => {
    expect(summarise(text)).toBe(expected);
  });

  it("binds $n placeholders in their order, whatever the order they appear in", async () => {
    const rows = (await db.execute(boundStatement("select $2::int as b, $1::text as a, $2::int + 1 as c", ["x", 41]))) as unknown as { rows: Array<{ a: string; b: number; c: number }> };
    expect(rows.rows[0]).toEqual({ a: "x", b: 41, c: 42 });
  });
});

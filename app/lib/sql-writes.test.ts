import { describe, expect, it } from "vitest";
import { tablesWritten, writesTo } from "./sql-writes";

describe("tablesWritten", () => {
  it.each([
    ['select "profiles"."id" from "profiles" where "profiles"."user_id" = $1', []],
    ['update "profiles" set "company" = $1 where "profiles"."id" = $2', ["profiles"]],
    ['insert into "user" ("id") values ($1)', ["user"]],
    ["INSERT INTO public.mandates (id) VALUES ($1)", ["mandates"]],
    ['delete from "public"."mandate_match_requests" where id = $1', ["mandate_match_requests"]],
    ["truncate table session", ["session"]],
    ["truncate audit_log", ["audit_log"]],
    ['with x as (delete from "session" where "user_id" = $1 returning 1), y as (update profiles set a = 1 returning 1) select 1', ["session", "profiles"]],
    ['insert into "notifications" ("user_id") values ($1) on conflict do nothing', ["notifications"]],
    ['delete from "profiles_history" where true', ["profiles_history"]],
  ])("%s", (statement, expected) => {
    expect([...tablesWritten(statement)].sort()).toEqual([...expected].sort());
  });

  it("reads each statement once, whatever the number of tests", () => {
    const statement = 'update "mandates" set status = $1';
    expect(tablesWritten(statement)).toBe(tablesWritten(statement));
    expect(tablesWritten('update "profiles" set x = 1').has("profiles")).toBe(true);
    expect(tablesWritten(statement).has("mandates")).toBe(true);
  });
});

describe("writesTo", () => {
  const writesMatching = writesTo(["mandates", "profiles", "mandate_match_requests"]);
  it.each([
    ['update "mandates" set "updated_at" = $1', true],
    ['UPDATE "Profiles" SET x = 1', true],
    ['insert into "mandate_match_requests" ("id") values ($1)', true],
    ['select * from mandates m join profiles p on p.id = m.profile_id', false],
    ['update "mandates_archive" set x = 1', false],
    ['insert into "user_consents" ("user_id") values ($1)', false],
    ["select 1 from mandates for update", false],
  ])("%s: %s", (statement, expected) => {
    expect(writesMatching(statement)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import { hasAppCookie } from "./page-cache.server";
import { READ_AFTER_WRITE_COOKIE, readAfterWriteCookie, writesPublicContent, wroteRecently } from "./read-after-write";

describe("writesPublicContent", () => {
  it.each([
    ['update "profiles" set "location_city" = $1 where "profiles"."id" = $2', true],
    ['insert into "certified_deals" ("id", "profile_id") values ($1, $2)', true],
    ['delete from "certified_deals" where "id" = $1', true],
    ["update collaboration_files set stage = 'concluded' where id = $1", true],
    ['insert into "member_reputation" ("profile_id") values ($1) on conflict do nothing', true],
    ["with x as (update profiles set company = $1 returning id) select id from x", true],
    ['update "public"."profiles" set "company" = $1', true],
    ["truncate table profiles", true],
    ['select "id" from "profiles" where "id" = $1', false],
    ['update "session" set "expires_at" = $1', false],
    ['insert into "notifications" ("id") values ($1)', false],
    ['update "profiles_archive" set x = 1', false],
    ['insert into "audit_log" ("action") values (\'update profiles\')', false],
  ])("%s → %s", (statement, expected) => {
    expect(writesPublicContent(statement)).toBe(expected);
  });
});

describe("the read-after-write cookie", () => {
  const now = 1_800_000_000_000;

  it("names the end of the window, lives as many whole seconds, and is HttpOnly and Lax", () => {
    expect(readAfterWriteCookie(now, 5_000, false)).toBe(`rt_fresh=${now + 5_000}; Max-Age=5; Path=/; HttpOnly; SameSite=Lax`);
    expect(readAfterWriteCookie(now, 2_500, true)).toBe(`rt_fresh=${now + 2_500}; Max-Age=3; Path=/; HttpOnly; SameSite=Lax; Secure`);
  });

  it("keeps that browser out of the anonymous page cache", () => {
    expect(hasAppCookie(`${READ_AFTER_WRITE_COOKIE}=${now}`)).toBe(true);
  });

  it.each([
    [undefined, false],
    ["", false],
    [`rt_fresh=${now + 3_000}`, true],
    [`theme=dark; rt_fresh=${now + 1}; other=1`, true],
    [`rt_fresh=${now}`, false], // the window has ended
    [`rt_fresh=${now - 10}`, false],
    [`rt_fresh=${now + 60_000}`, false], // further than one window: forged
    ["rt_fresh=abc", false],
    [`xrt_fresh=${now + 3_000}`, false],
  ])("%s → reads the primary: %s", (cookie, expected) => {
    expect(wroteRecently(cookie, now, 5_000)).toBe(expected);
  });
});

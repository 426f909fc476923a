// The request scope (app/lib/request-scope.server.ts): SQL statements counted per request
// (QUERY_STATS, for the benchmark), and what the loaders of one page ask again read once — for
// read-only requests only.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getRequestIsAdmin, getRequestProfile, getSessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { profiles, user } from "~/db/schema";
import { currentRequestScope, oncePerRequest, withRequestScope } from "~/lib/request-scope.server";
import { useTestDatabase } from "../support/db";
import { buildUser, createMember } from "../support/factories";
import { signIn } from "./mandates-helpers";

useTestDatabase();

describe("statements per request", () => {
  it("counts each statement of the request it serves, awaited calls and the query builder included", async () => {
    const count = await withRequestScope("GET", async () => {
      await db.execute(sql`select 1`);
      await db.select({ id: profiles.id }).from(profiles).limit(1);
      await Promise.all([db.execute(sql`select 2`), db.execute(sql`select 3`)]);
      return currentRequestScope()?.queries;
    });
    expect(count).toBe(4);
  });

  it("keeps two concurrent requests apart, and counts nothing outside a request", async () => {
    const run = (n: number) =>
      withRequestScope("GET", async () => {
        for (let i = 0; i < n; i++) await db.execute(sql`select ${i}`);
        return currentRequestScope()?.queries;
      });
    expect(await Promise.all([run(1), run(3)])).toEqual([1, 3]);
    await db.execute(sql`select 1`);
    expect(currentRequestScope()).toBeUndefined();
  });
});

describe("once per request", () => {
  const counter = () => {
    let calls = 0;
    return { load: async () => ++calls, calls: () => calls };
  };

  it.each([
    ["GET", 1],
    ["HEAD", 1],
    ["POST", 3],
    ["PUT", 3],
    ["DELETE", 3],
  ])("a %s request loads a key %i time(s) for three asks", async (method, expected) => {
    const c = counter();
    const values = await withRequestScope(method, () => Promise.all([oncePerRequest("k", c.load), oncePerRequest("k", c.load), oncePerRequest("k", c.load)]));
    expect(c.calls()).toBe(expected);
    expect(new Set(values).size).toBe(expected);
  });

  it("loads every time outside a request, and apart per key and per request", async () => {
    const c = counter();
    await oncePerRequest("k", c.load);
    await oncePerRequest("k", c.load);
    expect(c.calls()).toBe(2);
    await withRequestScope("GET", async () => {
      await oncePerRequest("a", c.load);
      await oncePerRequest("b", c.load);
    });
    await withRequestScope("GET", () => oncePerRequest("a", c.load));
    expect(c.calls()).toBe(5);
  });

  it("the session of a page is read once, however many loaders ask", async () => {
    const request = new Request("http://localhost/dashboard", { headers: { cookie: "rt.session_token=nothing-valid" } });
    const count = await withRequestScope("GET", async () => {
      const users = await Promise.all([getSessionUser(request), getSessionUser(request), getSessionUser(request)]);
      expect(users).toEqual([null, null, null]);
      return currentRequestScope()?.queries ?? 0;
    });
    const single = await withRequestScope("GET", async () => {
      await getSessionUser(request);
      return currentRequestScope()?.queries ?? 0;
    });
    expect(count).toBe(single);
  });

  it("a signed-in page's guards take two statements: the session with its user, then the profile with the admin role", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    const request = new Request("http://localhost/dashboard", { headers: browser.headers });
    const result = await withRequestScope("GET", async () => {
      const sessionUser = await getSessionUser(request);
      const [profile, admin] = await Promise.all([getRequestProfile(sessionUser!.id), getRequestIsAdmin(sessionUser!.id)]);
      await getRequestProfile(sessionUser!.id);
      return { sessionUser, profile, admin, queries: currentRequestScope()?.queries ?? 0 };
    });
    expect(result.sessionUser?.email).toBe(member.email);
    expect(result.profile?.id).toBe(member.profile.id);
    expect(result.admin).toBe(false);
    expect(result.queries).toBe(2);
  });

  it("the admin role is read with the profile, and a user without a profile has none", async () => {
    const admin = await createMember(db, { profile: { profileStatus: "validated" }, admin: true });
    const plain = await db.insert(user).values(buildUser()).returning({ id: user.id });
    const [adminRole, plainRole, plainProfile] = await withRequestScope("GET", () =>
      Promise.all([getRequestIsAdmin(admin.user.id), getRequestIsAdmin(plain[0]!.id), getRequestProfile(plain[0]!.id)]),
    );
    expect([adminRole, plainRole, plainProfile]).toEqual([true, false, null]);
  });
});


// The per-instance cache of the signed-in member's guard results (decision 020,
// app/lib/guard-cache.server.ts): read-only requests only, keyed by a hash of the session cookie,
// bounded, a few seconds at most; dropped at once on this instance by every write to session,
// user, profiles or user_roles, and on the other instances by the 'rt_member_guard' notification
// (migration 0015). Two caches on one database stand for two instances.
import type { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getAuth } from "~/auth/auth.server";
import { getRequestIsAdmin, getRequestProfile, getSessionUser, requireMember, type SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { listenPg, listenPglite, type ListenHandlers } from "~/db/listen.server";
import { session, user, userRoles } from "~/db/schema";
import { changePassword, revokeOtherSessions, revokeSession } from "~/features/account/account.server";
import { suspendMember } from "~/features/admin/profiles-admin.server";
import { GuardCache, hasSessionCookie, MEMBER_GUARD_CHANNEL, sessionCacheKey, setGuardCache, writesGuardTables } from "~/lib/guard-cache.server";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import { useTestDatabase } from "../support/db";
import { createMember } from "../support/factories";
import { signIn } from "./mandates-helpers";

const ref = useTestDatabase();

type Instance = { cache: GuardCache<unknown, unknown>; stop: () => Promise<void> };
const instances: Instance[] = [];

function listen(handlers: ListenHandlers): () => Promise<void> {
  if (ref.driver === "pg") return listenPg(ref.url!, MEMBER_GUARD_CHANNEL, handlers);
  return listenPglite((ref.db as unknown as { $client: PGlite }).$client, MEMBER_GUARD_CHANNEL, handlers);
}

/** An instance's cache, listening like server.ts does; resolves once LISTEN is in place. */
async function startInstance(ttlMs = 60_000): Promise<GuardCache<unknown, unknown>> {
  const cache = new GuardCache<unknown, unknown>({ ttlMs });
  let up = false;
  const stop = listen({
    notify: (payload) => cache.applyNotification(payload),
    state: (listening) => {
      up = listening;
      cache.setListening(listening);
    },
  });
  instances.push({ cache, stop });
  for (let i = 0; i < 200 && !up; i++) await new Promise((r) => setTimeout(r, 10));
  expect(up).toBe(true);
  return cache;
}

async function until(check: () => boolean) {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

/** A page request's guards on the instance whose cache is `cache`: the session user, the statements. */
async function guard(cache: GuardCache<unknown, unknown> | undefined, headers: Headers, method = "GET") {
  setGuardCache(cache);
  const request = new Request("http://localhost/dashboard", { method, headers });
  return withRequestScope(method, async () => {
    const sessionUser = await getSessionUser(request);
    const profile = sessionUser ? await getRequestProfile(sessionUser.id) : null;
    const admin = sessionUser ? await getRequestIsAdmin(sessionUser.id) : false;
    return { sessionUser, profile, admin, queries: currentRequestScope()?.queries ?? 0 };
  });
}

/** What an action on the instance `cache` does: runs in a POST scope with that cache installed. */
function onInstance<T>(cache: GuardCache<unknown, unknown> | undefined, fn: () => Promise<T>): Promise<T> {
  setGuardCache(cache);
  return withRequestScope("POST", fn);
}

afterEach(() => setGuardCache(undefined));
afterAll(async () => {
  for (const i of instances) await i.stop();
});

describe("pure parts", () => {
  it.each([
    ['update "profiles" set "company" = $1 where "profiles"."id" = $2', true],
    ['delete from "session" where "session"."token" = $1', true],
    ['insert into "user_roles" ("id", "user_id", "role") values (default, $1, $2)', true],
    ['update "user" set "two_factor_enabled" = $1 where "user"."id" = $2', true],
    ["update profiles set company = company where false", true],
    ['with x as (delete from "session" where "user_id" = $1 returning 1) select count(*) from x', true],
    ["truncate table session", true],
    ['select "profiles"."id" from "profiles" where "profiles"."user_id" = $1', false],
    ['update "mandates" set "updated_at" = $1', false],
    ['insert into "user_consents" ("user_id") values ($1)', false],
    ['update "session_events" set x = 1', false],
    ['delete from "profiles_history" where true', false],
  ])("%s writes the guards' tables: %s", (statement, expected) => {
    expect(writesGuardTables(statement)).toBe(expected);
  });

  it("keys on a hash of the session cookie only, never the token itself", () => {
    const a = sessionCacheKey("theme=dark; rt.session_token=abc.sig; rt_toast=x");
    expect(a).toBe(sessionCacheKey("rt.session_token=abc.sig"));
    expect(a).not.toContain("abc");
    expect(sessionCacheKey("rt.session_token=abd.sig")).not.toBe(a);
    expect(sessionCacheKey("__Secure-rt.session_token=abc.sig")).not.toBe(a);
    expect(sessionCacheKey("theme=dark")).toBeNull();
    expect(sessionCacheKey(null)).toBeNull();
  });

  it.each([
    ["rt.session_token=abc.sig", true],
    ["theme=dark; rt.session_token=abc.sig; rt_toast=x", true],
    ["theme=dark;rt.session_token=abc.sig", true],
    ["__Secure-rt.session_token=abc.sig", true],
    ["rt.session_token=", true],
    ["rt_bench=no-cache", false],
    ["rt.session_data=abc; rt.two_factor=xyz", false],
    ["xrt.session_token=abc", false],
    ["theme=rt.session_token", false],
    ["", false],
    [null, false],
  ])("the cookie header %j carries a session cookie: %s", (header, expected) => {
    expect(hasSessionCookie(header)).toBe(expected);
  });

  it("a request without a session cookie is signed out without asking better-auth; a real sign-in's cookie is recognised", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    // The cookie better-auth really sets is the one looked for (a renamed cookie would sign everyone out).
    expect(hasSessionCookie(browser.headers.get("cookie"))).toBe(true);
    const getSession = vi.spyOn(getAuth().api, "getSession");
    try {
      const anonymous = await guard(undefined, new Headers({ cookie: "theme=dark; rt_bench=no-cache" }));
      expect(anonymous).toMatchObject({ sessionUser: null, queries: 0 });
      expect((await guard(undefined, new Headers())).sessionUser).toBeNull();
      expect(getSession).not.toHaveBeenCalled();
      const signedIn = await guard(undefined, browser.headers);
      expect(signedIn.sessionUser?.email).toBe(member.email);
      expect(getSession).toHaveBeenCalledTimes(1);
    } finally {
      getSession.mockRestore();
    }
  });

  it("bounds entries (least recently used first), the TTL and the session's expiry", async () => {
    let now = 1_000_000;
    const cache = new GuardCache<string, string>({ ttlMs: 5000, maxEntries: 2, now: () => now });
    cache.setListening(true);
    let loads = 0;
    const load = (userId: string, expiresAt = new Date(now + 3_600_000)) => async () => (loads++, { userId, value: userId, expiresAt });
    await cache.session("a", load("ua"));
    await cache.session("b", load("ub"));
    await cache.session("a", load("ua")); // a is now the most recent
    await cache.session("c", load("uc")); // b goes
    expect(loads).toBe(3);
    await cache.session("a", load("ua"));
    expect(loads).toBe(3);
    await cache.session("b", load("ub"));
    expect(loads).toBe(4);
    now += 5000;
    await cache.session("b", load("ub"));
    expect(loads).toBe(5);
    // A session ending in 1 s is kept 1 s, not 5.
    await cache.session("d", load("ud", new Date(now + 1000)));
    now += 1000;
    await cache.session("d", load("ud"));
    expect(loads).toBe(7);
  });

  it("stores nothing read before an invalidation, nothing while not listening, nothing with a TTL of 0", async () => {
    const cache = new GuardCache<string, string>({ ttlMs: 5000 });
    cache.setListening(true);
    let loads = 0;
    const slow = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 20));
      return { userId: "u", value: "v", expiresAt: new Date(Date.now() + 60_000) };
    };
    const pending = cache.session("k", slow);
    cache.invalidateUser("someone-else");
    await pending;
    await cache.session("k", slow);
    expect(loads).toBe(2);
    await cache.session("k", slow);
    expect(loads).toBe(2);
    cache.setListening(false);
    await cache.session("k", slow);
    expect(loads).toBe(3);
    cache.setListening(true);
    await cache.session("k", slow);
    expect(loads).toBe(4); // back: started empty
    const off = new GuardCache<string, string>({ ttlMs: 0 });
    off.setListening(true);
    await off.session("k", slow);
    await off.session("k", slow);
    expect(loads).toBe(6);
  });
});

describe("guards with the cache", () => {
  let a: GuardCache<unknown, unknown>;
  let b: GuardCache<unknown, unknown>;
  beforeAll(async () => {
    a = await startInstance();
    b = await startInstance();
  });

  it("a GET after the first reads no statement; a POST always reads", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    const first = await guard(a, browser.headers);
    expect(first.queries).toBe(2);
    const second = await guard(a, browser.headers);
    expect(second.queries).toBe(0);
    expect(second.sessionUser).toEqual(first.sessionUser);
    expect(second.profile?.id).toBe(member.profile.id);
    // A POST reads everything, every time (nothing memoised: its profile and role twice).
    const post = await guard(a, browser.headers, "POST");
    expect(post.queries).toBe(3);
    // Another cookie is another entry.
    expect((await guard(a, new Headers({ cookie: "rt.session_token=forged.sig" }))).sessionUser).toBeNull();
  });

  it("sign-out: the session is gone at once on this instance, and on the other one by notification", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    await guard(a, browser.headers);
    await guard(b, browser.headers);
    expect((await guard(b, browser.headers)).queries).toBe(0);
    await onInstance(a, () => getAuth().api.signOut({ headers: browser.headers }));
    expect((await guard(a, browser.headers)).sessionUser).toBeNull();
    await until(() => !b.holds(member.user.id));
    expect((await guard(b, browser.headers)).sessionUser).toBeNull();
  });

  it("revoking another session, or every other session, ends it at once here and by notification elsewhere", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const laptop = await signIn(member);
    const phone = await signIn(member);
    const tablet = await signIn(member);
    for (const c of [a, b]) for (const h of [laptop, phone, tablet]) await guard(c, h.headers);
    const actor = (await guard(undefined, laptop.headers)).sessionUser as SessionUser;
    const [phoneSession] = await db.select({ id: session.id }).from(session).where(eq(session.userId, actor.id)).orderBy(session.createdAt).offset(1).limit(1);

    await onInstance(a, () => revokeSession(new Request("http://localhost/parametres", { method: "POST", headers: laptop.headers }), actor, phoneSession!.id));
    expect((await guard(a, phone.headers)).sessionUser).toBeNull();
    await until(() => !b.holds(member.user.id));
    expect((await guard(b, phone.headers)).sessionUser).toBeNull();
    expect((await guard(b, tablet.headers)).sessionUser?.id).toBe(actor.id);

    await guard(a, tablet.headers);
    await onInstance(a, () => revokeOtherSessions(new Request("http://localhost/parametres", { method: "POST", headers: laptop.headers }), actor));
    expect((await guard(a, tablet.headers)).sessionUser).toBeNull();
    await until(() => !b.holds(member.user.id));
    expect((await guard(b, tablet.headers)).sessionUser).toBeNull();
    expect((await guard(b, laptop.headers)).sessionUser?.id).toBe(actor.id);
  });

  it("a password change ends the other sessions at once here and by notification elsewhere", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const here = await signIn(member);
    const other = await signIn(member);
    for (const c of [a, b]) for (const h of [here, other]) await guard(c, h.headers);
    const actor = (await guard(undefined, here.headers)).sessionUser as SessionUser;
    const outcome = await onInstance(a, () =>
      changePassword(new Request("http://localhost/parametres", { method: "POST", headers: here.headers }), actor, {
        currentPassword: member.password,
        newPassword: "un-nouveau-mot-de-passe-solide",
      }),
    );
    expect(outcome.ok).toBe(true);
    expect((await guard(a, other.headers)).sessionUser).toBeNull();
    await until(() => !b.holds(member.user.id));
    expect((await guard(b, other.headers)).sessionUser).toBeNull();
  });

  it("a second factor turned on is seen at once here and by notification elsewhere", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    expect((await guard(a, browser.headers)).sessionUser?.twoFactorEnabled).toBe(false);
    expect((await guard(b, browser.headers)).sessionUser?.twoFactorEnabled).toBe(false);
    await onInstance(a, () => db.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, member.user.id)));
    expect((await guard(a, browser.headers)).sessionUser?.twoFactorEnabled).toBe(true);
    await until(() => !b.holds(member.user.id));
    expect((await guard(b, browser.headers)).sessionUser?.twoFactorEnabled).toBe(true);
  });

  it("a suspension by an admin on this instance shuts the member out here at once and elsewhere by notification", async () => {
    const admin = await createMember(db, { profile: { profileStatus: "validated" }, admin: true });
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    await guard(a, browser.headers);
    await guard(b, browser.headers);
    await onInstance(a, () => suspendMember({ id: admin.user.id }, member.profile.id, "test"));
    expect((await guard(a, browser.headers)).sessionUser).toBeNull();
    await until(() => !b.holds(member.user.id));
    expect((await guard(b, browser.headers)).sessionUser).toBeNull();
  });

  it("a profile status changed elsewhere (no session ended) reaches the guards by notification", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    await guard(b, browser.headers);
    expect((await guard(b, browser.headers)).queries).toBe(0);
    // Another process (a script, another instance): no local hook, only the notification.
    setGuardCache(undefined);
    await db.execute(sql`update profiles set profile_status = 'suspended' where id = ${member.profile.id}`);
    await until(() => !b.holds(member.user.id));
    setGuardCache(b);
    const request = new Request("http://localhost/dashboard", { headers: browser.headers });
    const outcome = await withRequestScope("GET", () => requireMember(request).then(() => "member", (thrown: unknown) => thrown));
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).headers.get("location")).toBe("/onboarding");
  });

  it("an admin role granted or removed is seen at once here and by notification elsewhere", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    expect((await guard(a, browser.headers)).admin).toBe(false);
    expect((await guard(b, browser.headers)).admin).toBe(false);
    await onInstance(a, () => db.insert(userRoles).values({ userId: member.user.id, role: "admin" }));
    expect((await guard(a, browser.headers)).admin).toBe(true);
    await until(() => !b.holds(member.user.id));
    expect((await guard(b, browser.headers)).admin).toBe(true);
    await onInstance(a, () => db.delete(userRoles).where(eq(userRoles.userId, member.user.id)));
    expect((await guard(a, browser.headers)).admin).toBe(false);
    await until(() => !b.holds(member.user.id));
    expect((await guard(b, browser.headers)).admin).toBe(false);
  });

  it("a statement touching more than 100 other users empties every instance", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    await guard(b, browser.headers);
    expect(b.holds(member.user.id)).toBe(true);
    setGuardCache(undefined);
    await db.execute(sql`insert into "user" (id, name, email) select 'bulk-' || i, 'x', 'bulk-' || i || '@example.test' from generate_series(1, 101) i`);
    await db.execute(sql`update "user" set name = name where id like 'bulk-%'`);
    await until(() => !b.holds(member.user.id));
  });
});

// The per-instance caches of the signed-in member's guard results (decisions 020, 048:
// "guard-sessions" and "guard-members" of app/lib/cache.server.ts): read-only requests only, keyed
// by a hash of the session cookie, a few seconds at most; dropped at once on this instance by the
// services (and better-auth's hooks) that write session, user, profiles or user_roles, and on the
// other instances by the "user:<id>" tags on 'rt_cache' (migrations 0015, 0027). Two cache sets
// on one database stand for two instances.
import type { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getAuth } from "~/auth/auth.server";
import { getRequestIsAdmin, getRequestProfile, getSessionUser, requireMember, type SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { listenPg, listenPglite, type Listen } from "~/db/listen.server";
import { session, userRoles } from "~/db/schema";
import { changePassword, revokeOtherSessions, revokeSession } from "~/features/account/account.server";
import { suspendMember } from "~/features/admin/profiles-admin.server";
import { CacheSet, invalidate, useCacheSet } from "~/lib/cache.server";
import { hasSessionCookie, sessionCacheKey } from "~/lib/session-cookie.server";
import { listeningCaches } from "../support/instance-cache";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import { useTestDatabase } from "../support/db";
import { createMember } from "../support/factories";
import { signIn } from "./mandates-helpers";

const ref = useTestDatabase();

type Instance = { caches: CacheSet; stop: () => Promise<void> };
const instances: Instance[] = [];

const listen: Listen = (channel, handlers) => {
  if (ref.driver === "pg") return listenPg(ref.url!, channel, handlers);
  return listenPglite((ref.db as unknown as { $client: PGlite }).$client, channel, handlers);
};

/** An instance's caches, listening like server.ts does; resolves once LISTEN is in place. */
async function startInstance(): Promise<CacheSet> {
  const caches = listeningCaches("guard-sessions", "guard-members");
  caches.setListening(false);
  const stop = caches.listen(listen);
  instances.push({ caches, stop });
  for (let i = 0; i < 200 && !caches.listening; i++) await new Promise((r) => setTimeout(r, 10));
  expect(caches.listening).toBe(true);
  return caches;
}

/** Whether an instance keeps anything of this user. */
function holds(caches: CacheSet, userId: string): boolean {
  return [...caches.caches.values()].some((c) => c.holds(`user:${userId}`));
}

async function until(check: () => boolean) {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

/** A page request's guards on the instance whose cache is `cache`: the session user, the statements. */
async function guard(caches: CacheSet | undefined, headers: Headers, method = "GET") {
  useCacheSet(caches ?? new CacheSet());
  const request = new Request("http://localhost/dashboard", { method, headers });
  return withRequestScope(method, async () => {
    const sessionUser = await getSessionUser(request);
    const profile = sessionUser ? await getRequestProfile(sessionUser.id) : null;
    const admin = sessionUser ? await getRequestIsAdmin(sessionUser.id) : false;
    return { sessionUser, profile, admin, queries: currentRequestScope()?.queries ?? 0 };
  });
}

/** What an action on the instance `cache` does: runs in a POST scope with that cache installed. */
function onInstance<T>(caches: CacheSet, fn: () => Promise<T>): Promise<T> {
  useCacheSet(caches);
  return withRequestScope("POST", fn);
}

afterEach(() => useCacheSet(new CacheSet()));
afterAll(async () => {
  for (const i of instances) await i.stop();
});

describe("pure parts", () => {
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
});

describe("guards with the cache", () => {
  let a: CacheSet;
  let b: CacheSet;
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
    await until(() => !holds(b, member.user.id));
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
    await until(() => !holds(b, member.user.id));
    expect((await guard(b, phone.headers)).sessionUser).toBeNull();
    expect((await guard(b, tablet.headers)).sessionUser?.id).toBe(actor.id);

    await guard(a, tablet.headers);
    await onInstance(a, () => revokeOtherSessions(new Request("http://localhost/parametres", { method: "POST", headers: laptop.headers }), actor));
    expect((await guard(a, tablet.headers)).sessionUser).toBeNull();
    await until(() => !holds(b, member.user.id));
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
    await until(() => !holds(b, member.user.id));
    expect((await guard(b, other.headers)).sessionUser).toBeNull();
  });

  it("a second factor turned on is seen at once here and by notification elsewhere", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    expect((await guard(a, browser.headers)).sessionUser?.twoFactorEnabled).toBe(false);
    expect((await guard(b, browser.headers)).sessionUser?.twoFactorEnabled).toBe(false);
    // Through better-auth's adapter, as its two-factor plugin writes it (its hooks drop the guards).
    await onInstance(a, async () => (await getAuth().$context).internalAdapter.updateUser(member.user.id, { twoFactorEnabled: true }));
    expect((await guard(a, browser.headers)).sessionUser?.twoFactorEnabled).toBe(true);
    await until(() => !holds(b, member.user.id));
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
    await until(() => !holds(b, member.user.id));
    expect((await guard(b, browser.headers)).sessionUser).toBeNull();
  });

  it("a profile status changed elsewhere (no session ended) reaches the guards by notification", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    await guard(b, browser.headers);
    expect((await guard(b, browser.headers)).queries).toBe(0);
    // Another process (a script, another instance): no local hook, only the notification.
    useCacheSet(new CacheSet());
    await db.execute(sql`update profiles set profile_status = 'suspended' where id = ${member.profile.id}`);
    await until(() => !holds(b, member.user.id));
    useCacheSet(b);
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
    // As createOrPromoteAdmin does: the write, and its invalidation.
    await onInstance(a, async () => {
      await db.insert(userRoles).values({ userId: member.user.id, role: "admin" });
      invalidate("user_roles");
    });
    expect((await guard(a, browser.headers)).admin).toBe(true);
    await until(() => !holds(b, member.user.id));
    expect((await guard(b, browser.headers)).admin).toBe(true);
    await onInstance(a, async () => {
      await db.delete(userRoles).where(eq(userRoles.userId, member.user.id));
      invalidate("user_roles");
    });
    expect((await guard(a, browser.headers)).admin).toBe(false);
    await until(() => !holds(b, member.user.id));
    expect((await guard(b, browser.headers)).admin).toBe(false);
  });

  it("a statement touching more than 100 other users empties every instance", async () => {
    const member = await createMember(db, { profile: { profileStatus: "validated" } });
    const browser = await signIn(member);
    await guard(b, browser.headers);
    expect(holds(b, member.user.id)).toBe(true);
    useCacheSet(new CacheSet());
    await db.execute(sql`insert into "user" (id, name, email) select 'bulk-' || i, 'x', 'bulk-' || i || '@example.test' from generate_series(1, 101) i`);
    await db.execute(sql`update "user" set name = name where id like 'bulk-%'`);
    await until(() => !holds(b, member.user.id));
  });
});

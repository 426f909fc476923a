// Live notification streams end with their session (issue 26 §2), on both drivers: every way a
// session ends — sign-out, one session closed, « Déconnecter les autres sessions », password
// change, two-factor enabled and disabled, suspension by an admin, account deletion — ends its
// open streams through the route the browser uses, while the other sessions' streams go on; a
// revocation whose notification is missed still ends the stream before its next event and at the
// next sweep; and a session or member opening too many streams loses the oldest.
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuth } from "~/auth/auth.server";
import type { SessionUser } from "~/auth/session.server";
import { closeDatabase, createDatabase, openPglite, setDatabase, type Db } from "~/db/client.server";
import { listenPglite, type Listen } from "~/db/listen.server";
import * as schema from "~/db/schema";
import { session } from "~/db/schema";
import { deleteAccount } from "~/features/account/account-deletion.server";
import { changePassword, revokeOtherSessions, revokeSession } from "~/features/account/account.server";
import { confirmTwoFactorEnrolment, disableTwoFactor, getTwoFactorState, startTwoFactorEnrolment } from "~/features/account/two-factor.server";
import { suspendMember } from "~/features/admin/profiles-admin.server";
import { closeLiveNotifications, MEMBER_GUARD_CHANNEL, NotificationHub, notificationStreamResponse } from "~/features/notifications/live.server";
import { notify } from "~/features/notifications/notifications.server";
import { queryCounter } from "~/lib/request-scope.server";
import { loader } from "~/routes/api/notifications-stream";
import { testDriver } from "../support/db";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { secretFromOtpauthUri, unusedTotpCode } from "../support/totp";

let db: Db;
let listen: Listen;
let cleanupDb: () => Promise<void>;

beforeAll(async () => {
  if (testDriver === "pg") {
    const { createTestDatabase } = await import("../support/db");
    const t = await createTestDatabase();
    const holder = await createDatabase({ url: t.url!, poolMax: 4 });
    setDatabase(holder);
    cleanupDb = async () => {
      await closeDatabase();
      await t.close();
    };
    db = holder.db;
    listen = holder.listen!;
  } else {
    // The migrated template, with LISTEN (createTestDatabase's holder has none).
    const client = await openPglite(undefined, new Blob([readFileSync(process.env.TEST_PGLITE_TEMPLATE!)]));
    const { drizzle } = await import("drizzle-orm/pglite");
    const holder: NonNullable<Parameters<typeof setDatabase>[0]> = {
      db: drizzle(client, { schema, logger: queryCounter }) as unknown as Db,
      driver: "pglite",
      close: () => client.close(),
      listen: (channel, handlers) => listenPglite(client, channel, handlers),
    };
    setDatabase(holder);
    cleanupDb = closeDatabase;
    db = holder.db;
    listen = holder.listen!;
  }
  seedFactories(261);
}, 60_000);

afterAll(async () => {
  // The process-wide hub of the route: its streams end.
  await closeLiveNotifications();
  await cleanupDb?.();
});

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

type Browser = { headers: Headers };

function browser(userAgent = FIREFOX): Browser {
  return { headers: new Headers({ "user-agent": userAgent, "x-rt-client-ip": "203.0.113.26" }) };
}

/** The browser's cookie jar after these set-cookie headers. */
function absorb(b: Browser, headers: Headers) {
  const jar = new Map<string, string>();
  for (const part of (b.headers.get("cookie") ?? "").split(";").map((p) => p.trim()).filter(Boolean)) {
    const i = part.indexOf("=");
    jar.set(part.slice(0, i), part.slice(i + 1));
  }
  for (const c of headers.getSetCookie()) {
    const [pair, ...attrs] = c.split(";").map((p) => p.trim());
    const i = pair.indexOf("=");
    const value = pair.slice(i + 1);
    if (!value || attrs.some((a) => /^max-age=0$/i.test(a))) jar.delete(pair.slice(0, i));
    else jar.set(pair.slice(0, i), value);
  }
  b.headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
}

async function signIn(m: CreatedMember, userAgent = FIREFOX): Promise<Browser> {
  const b = browser(userAgent);
  const { headers } = await getAuth().api.signInEmail({ body: { email: m.email, password: m.password }, headers: b.headers, returnHeaders: true });
  absorb(b, headers);
  return b;
}

const post = (b: Browser) => new Request("http://localhost:3000/parametres", { method: "POST", headers: b.headers });

async function sessionUserOf(b: Browser): Promise<SessionUser> {
  const s = await getAuth().api.getSession({ headers: b.headers });
  if (!s) throw new Error("signed out");
  const u = s.user as typeof s.user & { twoFactorEnabled?: boolean | null };
  return { id: u.id, email: u.email, emailVerified: u.emailVerified, twoFactorEnabled: Boolean(u.twoFactorEnabled) };
}

const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, what: string, ms = 4000) {
  for (let waited = 0; !check() && waited < ms; waited += 20) await settle(20);
  expect(check(), what).toBe(true);
}

type Stream = { sessionId: string; text: () => string; ended: () => boolean };

/** Reads a response's event stream in the background. */
function reading(res: Response, sessionId: string): Stream {
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let ended = false;
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    } catch {
      // cancelled
    }
    ended = true;
  })();
  return { sessionId, text: () => text, ended: () => ended };
}

/** A tab's stream through the route, as the browser opens it; waits for its first state. */
async function openStream(b: Browser): Promise<Stream> {
  const sessionId = (await getAuth().api.getSession({ headers: b.headers }))!.session.id;
  const request = new Request("http://localhost:3000/api/notifications/stream", { headers: b.headers });
  const stream = reading(await loader({ request, params: {}, context: {} } as never), sessionId);
  await until(() => stream.text().includes("event: state"), "first state");
  return stream;
}

async function sessionExists(id: string): Promise<boolean> {
  return (await db.select({ id: session.id }).from(session).where(eq(session.id, id))).length === 1;
}

/** Each stream is open exactly while its session exists; then a new event reaches only those. */
async function expectStreamsFollowSessions(userId: string, streams: Stream[]) {
  const alive = await Promise.all(streams.map((s) => sessionExists(s.sessionId)));
  await until(() => streams.every((s, i) => s.ended() === !alive[i]), `streams ended: ${streams.map((s) => s.ended())}, sessions: ${alive}`);
  const title = `Après la révocation ${Math.random().toString(36).slice(2)}`;
  await notify(userId, "message", { title, body: null, link: "/dashboard" });
  await until(() => streams.every((s, i) => !alive[i] || s.text().includes(title)), "the event reaches the living streams");
  await settle();
  for (const [i, s] of streams.entries()) if (!alive[i]) expect(s.text()).not.toContain(title);
  return alive;
}

describe("a stream ends with its session, whatever ends it", () => {
  it("« Déconnecter les autres sessions » and one session closed from the list", async () => {
    const m = await createMember(db);
    const [laptop, phone, tablet] = [await signIn(m), await signIn(m, CHROME), await signIn(m, CHROME)];
    const streams = [await openStream(laptop), await openStream(phone), await openStream(tablet)];
    const actor = await sessionUserOf(laptop);

    await revokeSession(post(laptop), actor, streams[2]!.sessionId);
    expect(await expectStreamsFollowSessions(m.user.id, streams)).toEqual([true, true, false]);

    await revokeOtherSessions(post(laptop), actor);
    expect(await expectStreamsFollowSessions(m.user.id, streams)).toEqual([true, false, false]);
  });

  it("a password change", async () => {
    const m = await createMember(db);
    const [laptop, phone] = [await signIn(m), await signIn(m, CHROME)];
    const streams = [await openStream(laptop), await openStream(phone)];
    const outcome = await changePassword(post(laptop), await sessionUserOf(laptop), { currentPassword: m.password, newPassword: "nouveau-secret-2026" });
    expect(outcome.ok).toBe(true);
    // Every session is replaced (this browser gets a new one): every stream ends.
    expect(await expectStreamsFollowSessions(m.user.id, streams)).toEqual([false, false]);
    if (outcome.ok) absorb(laptop, outcome.headers);
    const reopened = await openStream(laptop);
    expect(await expectStreamsFollowSessions(m.user.id, [reopened])).toEqual([true]);
  });

  it("two-factor authentication enabled, then disabled", async () => {
    const m = await createMember(db);
    const [laptop, phone] = [await signIn(m), await signIn(m, CHROME)];
    const before = [await openStream(laptop), await openStream(phone)];
    const actor = await sessionUserOf(laptop);
    expect(await startTwoFactorEnrolment(post(laptop), actor, m.password)).toMatchObject({ ok: true });
    const pending = await getTwoFactorState(actor);
    if (pending.status !== "pending") throw new Error("expected a pending enrolment");
    const enabled = await confirmTwoFactorEnrolment(post(laptop), actor, await unusedTotpCode(secretFromOtpauthUri(pending.uri)));
    if (!enabled.ok) throw new Error(enabled.message);
    // The session that enabled it is replaced (better-auth): its stream ends.
    const afterEnabling = await expectStreamsFollowSessions(m.user.id, before);
    expect(afterEnabling[0]).toBe(false);

    absorb(laptop, enabled.headers);
    const during = await openStream(laptop);
    const disabled = await disableTwoFactor(post(laptop), await sessionUserOf(laptop), m.password);
    if (!disabled.ok) throw new Error(disabled.message);
    expect((await expectStreamsFollowSessions(m.user.id, [during]))[0]).toBe(false);
  });

  it("a sign-out, by better-auth alone (no announcement)", async () => {
    const m = await createMember(db);
    const [laptop, phone] = [await signIn(m), await signIn(m, CHROME)];
    const streams = [await openStream(laptop), await openStream(phone)];
    await getAuth().api.signOut({ headers: phone.headers });
    expect(await expectStreamsFollowSessions(m.user.id, streams)).toEqual([true, false]);
  });

  it("a suspension by an admin: every session of the member", async () => {
    const admin = await createMember(db, { admin: true });
    const m = await createMember(db);
    const other = await createMember(db);
    const streams = [await openStream(await signIn(m)), await openStream(await signIn(m, CHROME))];
    const bystander = await openStream(await signIn(other));
    expect(await suspendMember({ id: admin.user.id }, m.profile.id, "Plainte en cours d’examen")).toEqual({ sessionsEnded: 2 });
    expect(await expectStreamsFollowSessions(m.user.id, streams)).toEqual([false, false]);
    expect(await expectStreamsFollowSessions(other.user.id, [bystander])).toEqual([true]);
  });

  it("the deletion of the account", async () => {
    const m = await createMember(db);
    const [laptop, phone] = [await signIn(m), await signIn(m, CHROME)];
    const streams = [await openStream(laptop), await openStream(phone)];
    expect(await deleteAccount(post(laptop), await sessionUserOf(laptop), m.password)).toMatchObject({ ok: true });
    await until(() => streams.every((s) => s.ended()), "streams of a deleted account");
  });
});

describe("a missed notification", () => {
  /** LISTEN as usual, except that the sessions' notifications never arrive. */
  const deafToSessions: Listen = (channel, handlers) => {
    if (channel !== MEMBER_GUARD_CHANNEL) return listen(channel, handlers);
    handlers.state(true);
    return async () => handlers.state(false);
  };

  async function hubStream(hub: NotificationHub, b: Browser): Promise<Stream> {
    const who = (await getAuth().api.getSession({ headers: b.headers }))!;
    const res = notificationStreamResponse(new Request("http://localhost/api/notifications/stream"), { userId: who.user.id, sessionId: who.session.id }, hub);
    const stream = reading(res, who.session.id);
    await until(() => stream.text().includes("event: state"), "first state");
    return stream;
  }

  it("the next event is never sent to a revoked session: its stream ends instead", async () => {
    const hub = new NotificationHub(deafToSessions, { sweepMs: 3_600_000 });
    const m = await createMember(db);
    const [laptop, phone] = [await signIn(m), await signIn(m, CHROME)];
    const streams = [await hubStream(hub, laptop), await hubStream(hub, phone)];
    await until(() => hub.isListening, "LISTEN");
    await db.delete(session).where(eq(session.id, streams[1]!.sessionId));
    await settle(300);
    expect(streams[1]!.ended()).toBe(false); // nothing heard: the sweep is an hour away

    await notify(m.user.id, "message", { title: "Message de Bruno Girard", body: null, link: "/dossiers/x" });
    await until(() => streams[0]!.text().includes("Message de Bruno Girard"), "event to the living session");
    await until(() => streams[1]!.ended(), "revoked stream ended by the push");
    expect(streams[1]!.text()).not.toContain("Bruno Girard");
    await hub.closeAll();
  });

  it("a stream that receives nothing ends at the next sweep; an expired session too", async () => {
    const hub = new NotificationHub(deafToSessions, { sweepMs: 100 });
    const m = await createMember(db);
    const [laptop, phone, tablet] = [await signIn(m), await signIn(m, CHROME), await signIn(m)];
    const streams = [await hubStream(hub, laptop), await hubStream(hub, phone), await hubStream(hub, tablet)];
    await db.delete(session).where(eq(session.id, streams[1]!.sessionId));
    await db.update(session).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(session.id, streams[2]!.sessionId));
    await until(() => streams[1]!.ended() && streams[2]!.ended(), "swept");
    await settle(300);
    expect(streams[0]!.ended()).toBe(false);
    await hub.closeAll();
  });

  it("a revocation between the route's check and the stream's subscription: the first state is not sent", async () => {
    const hub = new NotificationHub(deafToSessions, { sweepMs: 3_600_000 });
    const m = await createMember(db);
    const b = await signIn(m);
    const who = (await getAuth().api.getSession({ headers: b.headers }))!;
    await db.delete(session).where(eq(session.id, who.session.id));
    const stream = reading(notificationStreamResponse(new Request("http://localhost/s"), { userId: m.user.id, sessionId: who.session.id }, hub), who.session.id);
    await until(() => stream.ended(), "stream of a session already gone");
    expect(stream.text()).not.toContain("event: state");
    await hub.closeAll();
  });
});

describe("caps", () => {
  it("a fourth stream of one session closes its oldest; a seventh of one member closes the member's oldest", async () => {
    const m = await createMember(db);
    const [first, second, third] = [await signIn(m), await signIn(m, CHROME), await signIn(m)];
    const one: Stream[] = [];
    for (let i = 0; i < 4; i++) one.push(await openStream(first));
    await until(() => one[0]!.ended(), "oldest stream of the session closed");
    await settle();
    expect(one.map((s) => s.ended())).toEqual([true, false, false, false]);

    const others = [await openStream(second), await openStream(second), await openStream(third)];
    await settle();
    expect([...one, ...others].filter((s) => !s.ended())).toHaveLength(6);
    const seventh = await openStream(third);
    await until(() => one[1]!.ended(), "oldest stream of the member closed");
    await settle();
    expect([...one, ...others, seventh].map((s) => s.ended())).toEqual([true, true, false, false, false, false, false, false]);
  });
});

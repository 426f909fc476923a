// Account settings (/parametres): password change, sessions, two-factor authentication (settings
// and sign-in step), admin 2FA gate, notification preferences and unsubscribe links, data
// export, account deletion. Real better-auth calls against the test database.
import { and, eq } from "drizzle-orm";
import { isRouteErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { getAuth } from "~/auth/auth.server";
import { ADMIN_TWO_FACTOR_ENROL_PATH, requireAdmin, requireAdminWithTwoFactor, getRequestSessionId, type SessionUser } from "~/auth/session.server";
import { getPendingTwoFactorUserId, verifyTwoFactorSignIn } from "~/auth/two-factor.server";
import {
  auditLog,
  connectionEvents,
  mailOutbox,
  mandateMatchRequests,
  messages,
  payments,
  profiles,
  session,
  twoFactor,
  user,
  userRoles,
} from "~/db/schema";
import { DELETED_SENDER_NAME, deleteAccount } from "~/features/account/account-deletion.server";
import {
  applyUnsubscribe,
  changePassword,
  findUnsubscribeTarget,
  getNotificationPreferences,
  listActiveSessions,
  revokeOtherSessions,
  revokeSession,
  updateNotificationPreferences,
} from "~/features/account/account.server";
import { buildDataExport } from "~/routes/member/settings-export.server";
import {
  cancelTwoFactorEnrolment,
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  getTwoFactorState,
  regenerateBackupCodes,
  startTwoFactorEnrolment,
} from "~/features/account/two-factor.server";
import { unsubscribeToken, unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import { createMessage } from "~/features/messages/messages.server";
import { action as settingsAction } from "~/routes/member/settings";
import { loader as settingsLoader } from "~/routes/member/settings/security";
import { checkAuditEvents } from "../support/audit";
import { useTestDatabase } from "../support/db";
import { createDeal, createMandate, createMember, createMessage as insertMessage, createRecommendation, setEmailFrequency, type CreatedMember } from "../support/factories";
import { secretFromOtpauthUri, totpCode, unusedTotpCode } from "../support/totp";
import { expectedStatus } from "~/lib/errors/http";

const t = useTestDatabase();
checkAuditEvents(t);

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/** The cookie header a browser would send after these set-cookie headers. */
function cookieHeader(setCookies: string[], previous = ""): string {
  const jar = new Map<string, string>();
  for (const part of previous.split(";").map((p) => p.trim()).filter(Boolean)) {
    const i = part.indexOf("=");
    jar.set(part.slice(0, i), part.slice(i + 1));
  }
  for (const c of setCookies) {
    const [pair, ...attrs] = c.split(";").map((p) => p.trim());
    const i = pair.indexOf("=");
    const name = pair.slice(0, i);
    const value = pair.slice(i + 1);
    const expired = !value || attrs.some((a) => /^max-age=0$/i.test(a));
    if (expired) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

type Browser = { headers: Headers };

function browser(userAgent = FIREFOX, ip = "203.0.113.7"): Browser {
  return { headers: new Headers({ "user-agent": userAgent, "x-rt-client-ip": ip }) };
}

function absorb(b: Browser, headers: Headers) {
  b.headers.set("cookie", cookieHeader(headers.getSetCookie(), b.headers.get("cookie") ?? ""));
}

function request(b: Browser, method = "POST", path = "/parametres"): Request {
  return new Request(`http://localhost:3000${path}`, { method, headers: b.headers });
}

async function signIn(email: string, password: string, b: Browser = browser()) {
  const { headers, response } = await getAuth().api.signInEmail({ body: { email, password }, headers: b.headers, returnHeaders: true });
  absorb(b, headers);
  return { b, response };
}

async function sessionUserOf(b: Browser): Promise<SessionUser | null> {
  const s = await getAuth().api.getSession({ headers: b.headers });
  if (!s) return null;
  const u = s.user as typeof s.user & { twoFactorEnabled?: boolean | null };
  return { id: u.id, email: u.email, emailVerified: u.emailVerified, twoFactorEnabled: Boolean(u.twoFactorEnabled) };
}

function actorOf(m: CreatedMember): SessionUser {
  return { id: m.user.id, email: m.email, emailVerified: true, twoFactorEnabled: false };
}

async function thrownResponse(p: Promise<unknown>) {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error("expected a thrown response");
}

function statusOf(error: unknown): number | undefined {
  if (isRouteErrorResponse(error)) return error.status;
  return expectedStatus(error) ?? undefined;
}

describe("password change", () => {
  it("needs the current password, ends the other sessions and keeps this browser signed in", async () => {
    const m = await createMember(t.db!);
    const { b: first } = await signIn(m.email, m.password, browser(FIREFOX));
    const { b: second } = await signIn(m.email, m.password, browser(CHROME));
    expect(await sessionUserOf(second)).not.toBeNull();

    const wrong = await changePassword(request(first), actorOf(m), { currentPassword: "pas-le-bon", newPassword: "nouveau-secret-2026" });
    expect(wrong).toEqual({ ok: false, message: "Mot de passe incorrect", status: 400, field: "currentPassword" });

    const outcome = await changePassword(request(first), actorOf(m), { currentPassword: m.password, newPassword: "nouveau-secret-2026" });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    absorb(first, outcome.headers);
    expect((await sessionUserOf(first))?.id).toBe(m.user.id);
    expect(await sessionUserOf(second)).toBeNull();
    const rows = await t.db!.select().from(session).where(eq(session.userId, m.user.id));
    expect(rows).toHaveLength(1);

    await expect(signIn(m.email, m.password)).rejects.toBeDefined();
    const { b: third } = await signIn(m.email, "nouveau-secret-2026");
    expect(await sessionUserOf(third)).not.toBeNull();

    const audit = await t.db!.select().from(auditLog).where(and(eq(auditLog.actorUserId, m.user.id), eq(auditLog.action, "account.password_changed")));
    expect(audit).toHaveLength(1);
    const notices = await t.db!.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, m.email), eq(mailOutbox.kind, "security-notice")));
    expect(notices.map((n) => n.subject)).toContain("Votre mot de passe a été modifié");
  });
});

describe("active sessions", () => {
  it("lists the actor's sessions without tokens and revokes only their own", async () => {
    const m = await createMember(t.db!);
    const other = await createMember(t.db!);
    const { b: laptop } = await signIn(m.email, m.password, browser(FIREFOX, "198.51.100.1"));
    const { b: office } = await signIn(m.email, m.password, browser(CHROME, "198.51.100.2"));
    const { b: stranger } = await signIn(other.email, other.password);
    const current = (await getAuth().api.getSession({ headers: laptop.headers }))!.session.id;
    // The page marks it from the guards' own lookup.
    expect(await getRequestSessionId(request(laptop))).toBe(current);
    expect(await getRequestSessionId(new Request("http://localhost/parametres/securite"))).toBeNull();

    const list = await listActiveSessions(actorOf(m), current);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ id: current, current: true, device: "Firefox sur Linux", ipAddress: "198.51.100.1" });
    expect(list[1]).toMatchObject({ current: false, device: "Chrome sur Windows", ipAddress: "198.51.100.2" });
    expect(JSON.stringify(list)).not.toMatch(/token/i);

    // Another member's session id: 404, and their session survives.
    const strangerSession = (await getAuth().api.getSession({ headers: stranger.headers }))!.session.id;
    expect(statusOf(await thrownResponse(revokeSession(request(laptop), actorOf(m), strangerSession)))).toBe(404);
    expect(await sessionUserOf(stranger)).not.toBeNull();
    // The current session is not closed from here.
    expect(statusOf(await thrownResponse(revokeSession(request(laptop), actorOf(m), current)))).toBe(400);

    await revokeSession(request(laptop), actorOf(m), list[1].id);
    expect(await sessionUserOf(office)).toBeNull();
    expect(await sessionUserOf(laptop)).not.toBeNull();

    const { b: phone } = await signIn(m.email, m.password, browser(CHROME, "198.51.100.3"));
    await revokeOtherSessions(request(laptop), actorOf(m));
    expect(await sessionUserOf(phone)).toBeNull();
    expect(await listActiveSessions(actorOf(m), current)).toHaveLength(1);
  });
});

describe("two-factor authentication", () => {
  it("accepts each code once, at sign-in and at enrolment, also when two sign-ins race (issue 12, finding 3)", async () => {
    const m = await createMember(t.db!);
    const { b } = await signIn(m.email, m.password);
    const actor = (await sessionUserOf(b))!;
    await startTwoFactorEnrolment(request(b), actor, m.password);
    const pending = await getTwoFactorState(actor);
    if (pending.status !== "pending") throw new Error("expected a pending enrolment");
    const secret = secretFromOtpauthUri(pending.uri);
    const code = await unusedTotpCode(secret);
    const enrolled = await confirmTwoFactorEnrolment(request(b), actor, code);
    expect(enrolled.ok).toBe(true);

    // The enrolment's code cannot sign in afterwards.
    const { b: first } = await signIn(m.email, m.password);
    expect(await verifyTwoFactorSignIn(request(first), { method: "totp", code })).toEqual({
      ok: false,
      message: "Ce code a déjà été utilisé. Attendez le code suivant de votre application (30 secondes au plus).",
      status: 401,
    });
    // A fresh code signs in once; the same code in a second browser is refused.
    const fresh = await unusedTotpCode(secret);
    expect((await verifyTwoFactorSignIn(request(first), { method: "totp", code: fresh })).ok).toBe(true);
    const { b: second } = await signIn(m.email, m.password);
    expect(await verifyTwoFactorSignIn(request(second), { method: "totp", code: fresh })).toMatchObject({ ok: false, status: 401 });

  });

  it("two sign-ins racing with one code: exactly one gets in; a wrong code consumes nothing", async () => {
    const m = await createMember(t.db!);
    const { b } = await signIn(m.email, m.password);
    const actor = (await sessionUserOf(b))!;
    await startTwoFactorEnrolment(request(b), actor, m.password);
    const pending = await getTwoFactorState(actor);
    if (pending.status !== "pending") throw new Error("expected a pending enrolment");
    const secret = secretFromOtpauthUri(pending.uri);
    expect((await confirmTwoFactorEnrolment(request(b), actor, await unusedTotpCode(secret))).ok).toBe(true);
    const racing = await unusedTotpCode(secret);
    const [x, y] = [(await signIn(m.email, m.password)).b, (await signIn(m.email, m.password)).b];
    const outcomes = await Promise.all([
      verifyTwoFactorSignIn(request(x), { method: "totp", code: racing }),
      verifyTwoFactorSignIn(request(y), { method: "totp", code: racing }),
    ]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);

    // A wrong code consumes nothing: the right one still works after it.
    const { b: third } = await signIn(m.email, m.password);
    const next = await unusedTotpCode(secret);
    expect((await verifyTwoFactorSignIn(request(third), { method: "totp", code: next === "000000" ? "111111" : "000000" })).ok).toBe(false);
    expect((await verifyTwoFactorSignIn(request(third), { method: "totp", code: next })).ok).toBe(true);
  });

  it("enrols with the password and a first code, then asks for a code at sign-in", async () => {
    const m = await createMember(t.db!);
    const { b } = await signIn(m.email, m.password);
    let actor = (await sessionUserOf(b))!;
    expect(await getTwoFactorState(actor)).toEqual({ status: "off" });

    expect(await startTwoFactorEnrolment(request(b), actor, "mauvais")).toMatchObject({ ok: false, field: "password", message: "Mot de passe incorrect" });
    expect(await startTwoFactorEnrolment(request(b), actor, m.password)).toMatchObject({ ok: true });
    const pending = await getTwoFactorState(actor);
    if (pending.status !== "pending") throw new Error("expected a pending enrolment");
    expect(pending.uri).toMatch(/^otpauth:\/\/totp\//);
    const secret = secretFromOtpauthUri(pending.uri);
    expect(pending.secret.replace(/ /g, "")).toBe(secret);

    const bad = await confirmTwoFactorEnrolment(request(b), actor, totpCode(secret, Date.now() - 10 * 60_000));
    expect(bad).toMatchObject({ ok: false, message: "Code invalide", field: "code" });
    const good = await confirmTwoFactorEnrolment(request(b), actor, await unusedTotpCode(secret));
    if (!good.ok) throw new Error(good.message);
    expect(good.backupCodes).toHaveLength(10);
    absorb(b, good.headers);
    actor = (await sessionUserOf(b))!;
    expect(actor.twoFactorEnabled).toBe(true);
    expect(await getTwoFactorState(actor)).toEqual({ status: "on", backupCodesLeft: 10 });

    // Sign-in: the password alone leaves a pending challenge, not a session.
    const { b: next, response } = await signIn(m.email, m.password);
    expect(response).toMatchObject({ twoFactorRedirect: true });
    expect(await sessionUserOf(next)).toBeNull();
    expect(await getPendingTwoFactorUserId(request(next, "GET", "/auth"))).toBe(m.user.id);
    expect(await getPendingTwoFactorUserId(request(browser(), "GET", "/auth"))).toBeNull();

    const wrong = await verifyTwoFactorSignIn(request(next), { method: "totp", code: "000000" === totpCode(secret) ? "111111" : "000000" });
    expect(wrong).toEqual({ ok: false, message: "Code invalide", status: 401 });
    const ok = await verifyTwoFactorSignIn(request(next), { method: "totp", code: await unusedTotpCode(secret) });
    if (!ok.ok) throw new Error(ok.message);
    absorb(next, ok.headers);
    expect((await sessionUserOf(next))?.id).toBe(m.user.id);

    // A backup code works once.
    const { b: rescue } = await signIn(m.email, m.password);
    const backup = good.backupCodes[0];
    const used = await verifyTwoFactorSignIn(request(rescue), { method: "backup", code: backup });
    expect(used.ok).toBe(true);
    const { b: again } = await signIn(m.email, m.password);
    expect(await verifyTwoFactorSignIn(request(again), { method: "backup", code: backup })).toMatchObject({ ok: false, message: "Code de secours invalide" });
    expect(await getTwoFactorState(actor)).toEqual({ status: "on", backupCodesLeft: 9 });

    const regenerated = await regenerateBackupCodes(request(b), actor, m.password);
    if (!regenerated.ok) throw new Error(regenerated.message);
    expect(regenerated.backupCodes).toHaveLength(10);
    expect(regenerated.backupCodes).not.toContain(good.backupCodes[1]);

    // Without a challenge cookie the step is over.
    expect(await verifyTwoFactorSignIn(request(browser()), { method: "totp", code: totpCode(secret) })).toMatchObject({ ok: false, restart: true });

    const disabled = await disableTwoFactor(request(b), actor, m.password);
    if (!disabled.ok) throw new Error(disabled.message);
    absorb(b, disabled.headers);
    actor = (await sessionUserOf(b))!;
    expect(actor.twoFactorEnabled).toBe(false);
    expect(await t.db!.select().from(twoFactor).where(eq(twoFactor.userId, m.user.id))).toHaveLength(0);
    const { response: plain } = await signIn(m.email, m.password);
    expect(plain).not.toMatchObject({ twoFactorRedirect: true });
  });

  it("can abandon an enrolment that was never confirmed", async () => {
    const m = await createMember(t.db!);
    const { b } = await signIn(m.email, m.password);
    const actor = (await sessionUserOf(b))!;
    await startTwoFactorEnrolment(request(b), actor, m.password);
    expect((await getTwoFactorState(actor)).status).toBe("pending");
    await cancelTwoFactorEnrolment(actor);
    expect(await getTwoFactorState(actor)).toEqual({ status: "off" });
    expect(await t.db!.select().from(twoFactor).where(eq(twoFactor.userId, m.user.id))).toHaveLength(0);
  });

  it("limits sign-in codes per account across challenges", async () => {
    const m = await createMember(t.db!);
    const { b } = await signIn(m.email, m.password);
    const actor = (await sessionUserOf(b))!;
    await startTwoFactorEnrolment(request(b), actor, m.password);
    const pending = await getTwoFactorState(actor);
    if (pending.status !== "pending") throw new Error("expected pending");
    const secret = secretFromOtpauthUri(pending.uri);
    expect((await confirmTwoFactorEnrolment(request(b), actor, await unusedTotpCode(secret))).ok).toBe(true);
    const wrongCode = totpCode(secret, Date.now() - 60 * 60_000);

    let challenge: Browser | undefined;
    for (let attempt = 0; attempt < 10; attempt++) {
      // better-auth allows 5 codes per challenge: sign in again every 5 attempts.
      if (attempt % 5 === 0) challenge = (await signIn(m.email, m.password)).b;
      expect(await verifyTwoFactorSignIn(request(challenge!), { method: "totp", code: wrongCode })).toMatchObject({ ok: false, message: "Code invalide" });
    }
    const fresh = (await signIn(m.email, m.password)).b;
    expect(await verifyTwoFactorSignIn(request(fresh), { method: "totp", code: totpCode(secret) })).toEqual({
      ok: false,
      message: "Trop de tentatives. Veuillez réessayer dans quelques minutes.",
      status: 429,
    });
  });
});

describe("two-factor activation sent as a plain form (no JavaScript; issue 26, item 3)", () => {
  /** A form post the way a browser without JavaScript sends it: the page's document request. */
  async function post(b: Browser, fields: Record<string, string>) {
    const headers = new Headers(b.headers);
    headers.set("content-type", "application/x-www-form-urlencoded");
    const req = new Request("http://localhost:3000/parametres/securite", { method: "POST", headers, body: new URLSearchParams(fields) });
    try {
      return await settingsAction({ request: req, params: {}, context: { requestId: "t" } } as never);
    } catch (thrown) {
      return thrown;
    }
  }
  async function load(b: Browser) {
    const req = new Request("http://localhost:3000/parametres/securite", { headers: b.headers });
    try {
      return await settingsLoader({ request: req, params: {}, context: { requestId: "t" } } as never);
    } catch (thrown) {
      return thrown;
    }
  }
  const loaded = (out: unknown) => out as { type: "DataWithResponseInit"; data: { backupCodes: string[] | null }; init: ResponseInit | null };

  it("redirects with the new session cookie, and the page it leads to shows the backup codes once", async () => {
    const m = await createMember(t.db!);
    const { b } = await signIn(m.email, m.password);
    const before = b.headers.get("cookie");
    const started = await post(b, { intent: "enable-2fa", password: m.password });
    expect(started).toBeInstanceOf(Response);
    const pending = await getTwoFactorState((await sessionUserOf(b))!);
    if (pending.status !== "pending") throw new Error("expected a pending enrolment");
    const code = await unusedTotpCode(secretFromOtpauthUri(pending.uri));

    const answer = await post(b, { intent: "verify-2fa", code });
    // A redirect, not a page rendered for this request: its session no longer exists.
    expect(answer).toBeInstanceOf(Response);
    const res = answer as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/parametres/securite");
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => /^(__Secure-)?rt\.session_token=[^;]+/.test(c))).toBe(true);
    expect(cookies.some((c) => /^rt_backup_codes=[^;]+;.*HttpOnly/.test(c))).toBe(true);
    // The request's own cookie is signed out: following the redirect without the new one lands on /auth.
    const stale: Browser = { headers: new Headers(b.headers) };
    stale.headers.set("cookie", before ?? "");
    const out = await load(stale);
    expect(out).toBeInstanceOf(Response);
    expect((out as Response).headers.get("location")).toMatch(/^\/auth/);

    // Following the redirect with the returned cookies: signed in, 2FA on, the ten codes shown.
    absorb(b, res.headers);
    const replay: Browser = { headers: new Headers(b.headers) };
    const page = loaded(await load(b));
    expect(page.type).toBe("DataWithResponseInit");
    expect(page.data.backupCodes).toHaveLength(10);
    expect((await sessionUserOf(b))?.twoFactorEnabled).toBe(true);
    const { backupCodes } = await getAuth().api.viewBackupCodes({ body: { userId: m.user.id } });
    expect(page.data.backupCodes).toEqual(backupCodes);
    // Once: the page clears its cookie, and the same cookie sent again shows nothing.
    absorb(b, new Headers(page.init?.headers));
    expect(b.headers.get("cookie")).not.toContain("rt_backup_codes");
    expect(loaded(await load(replay)).data.backupCodes).toBeNull();
    expect(loaded(await load(b)).data.backupCodes).toBeNull();
  });

  it("shows no codes to another member presenting the pass", async () => {
    const m = await createMember(t.db!);
    const other = await createMember(t.db!);
    const { b } = await signIn(m.email, m.password);
    await post(b, { intent: "enable-2fa", password: m.password });
    const pending = await getTwoFactorState((await sessionUserOf(b))!);
    if (pending.status !== "pending") throw new Error("expected a pending enrolment");
    const res = (await post(b, { intent: "verify-2fa", code: await unusedTotpCode(secretFromOtpauthUri(pending.uri)) })) as Response;
    const pass = res.headers.getSetCookie().find((c) => c.startsWith("rt_backup_codes="))!.split(";")[0];
    const { b: theirs } = await signIn(other.email, other.password);
    theirs.headers.set("cookie", `${theirs.headers.get("cookie")}; ${pass}`);
    expect(loaded(await load(theirs)).data.backupCodes).toBeNull();
  });
});

describe("admin two-factor gate", () => {
  it("sends an admin without TOTP to enrol and refuses their mutations; requireAdmin is unchanged", async () => {
    const admin = await createMember(t.db!, { admin: true });
    const { b } = await signIn(admin.email, admin.password);
    expect((await requireAdmin(request(b, "GET", "/admin"))).id).toBe(admin.user.id);
    const page = await thrownResponse(requireAdminWithTwoFactor(request(b, "GET", "/admin")));
    expect(page).toBeInstanceOf(Response);
    expect((page as Response).headers.get("location")).toBe(ADMIN_TWO_FACTOR_ENROL_PATH);
    expect(statusOf(await thrownResponse(requireAdminWithTwoFactor(request(b, "POST", "/admin"))))).toBe(403);

    const member = await createMember(t.db!);
    const { b: mb } = await signIn(member.email, member.password);
    const refused = await thrownResponse(requireAdminWithTwoFactor(request(mb, "GET", "/admin")));
    expect((refused as Response).headers.get("location")).toBe("/");

    let actor = (await sessionUserOf(b))!;
    await startTwoFactorEnrolment(request(b), actor, admin.password);
    const pending = await getTwoFactorState(actor);
    if (pending.status !== "pending") throw new Error("expected pending");
    const done = await confirmTwoFactorEnrolment(request(b), actor, await unusedTotpCode(secretFromOtpauthUri(pending.uri)));
    if (!done.ok) throw new Error(done.message);
    absorb(b, done.headers);
    actor = (await requireAdminWithTwoFactor(request(b, "GET", "/admin")))!;
    expect(actor.twoFactorEnabled).toBe(true);
  });
});

describe("notification preferences and unsubscribe links", () => {
  it("saves the three preferences on the actor's profile only", async () => {
    const m = await createMember(t.db!);
    const other = await createMember(t.db!);
    expect((await getNotificationPreferences(actorOf(m)))?.preferences).toEqual({ messages: "immediate", match_requests: "immediate", match_alerts: "daily", files: "daily", mediation: "daily", account: "daily" });
    await updateNotificationPreferences(actorOf(m), { ...{ messages: "immediate", match_requests: "immediate", match_alerts: "daily", files: "daily", mediation: "daily", account: "daily" }, messages: "off", match_alerts: "weekly" });
    expect((await getNotificationPreferences(actorOf(m)))?.preferences).toEqual({ ...{ messages: "immediate", match_requests: "immediate", match_alerts: "daily", files: "daily", mediation: "daily", account: "daily" }, messages: "off", match_alerts: "weekly" });
    expect((await getNotificationPreferences(actorOf(other)))?.preferences).toEqual({ messages: "immediate", match_requests: "immediate", match_alerts: "daily", files: "daily", mediation: "daily", account: "daily" });
  });

  it("turns one preference off with a valid link and refuses forged ones", async () => {
    const m = await createMember(t.db!);
    const p = m.profile.id;
    const url = new URL(unsubscribeUrl(p, "match_alerts"));
    expect(url.pathname).toBe("/desabonnement");
    const link = { profile: url.searchParams.get("profile"), type: url.searchParams.get("type"), token: url.searchParams.get("token") };

    for (const forged of [
      { ...link, token: "x".repeat(32) },
      { ...link, token: null },
      { ...link, type: "messages" },
      { ...link, type: "everything" },
      { ...link, profile: (await createMember(t.db!)).profile.id },
      { ...link, profile: "not-a-uuid" },
      // The member's token is not a guest's: the same signature under the guest form of the link.
      { ...link, profile: null, guest: m.user.id },
    ]) {
      expect(await findUnsubscribeTarget(forged)).toEqual({ outcome: "invalid" });
      expect(await applyUnsubscribe(forged)).toBe("invalid");
    }
    expect((await getNotificationPreferences(actorOf(m)))?.preferences.match_alerts).toBe("daily");

    expect(await findUnsubscribeTarget(link)).toEqual({ outcome: "ok", userId: m.user.id, type: "match_alerts", alreadyOff: false });
    expect(await applyUnsubscribe(link)).toBe("done");
    expect((await getNotificationPreferences(actorOf(m)))?.preferences).toEqual({ ...{ messages: "immediate", match_requests: "immediate", match_alerts: "daily", files: "daily", mediation: "daily", account: "daily" }, match_alerts: "off" });
    expect(await findUnsubscribeTarget(link)).toMatchObject({ alreadyOff: true });
    expect(unsubscribeToken(p, "match_alerts")).toBe(link.token);
  });

  it("puts the unsubscribe link in the new-message notification and honours the preference", async () => {
    const recipient = await createMember(t.db!, { profile: { profileStatus: "validated" } });
    await setEmailFrequency(t.db!, [recipient], "immediate", ["messages"]);
    await createMessage({
      recipientProfileId: recipient.profile.id,
      senderProfileId: null,
      senderName: "Visiteur",
      senderEmail: "visiteur@exemple.fr",
      subject: "Cession d'une PME",
      content: "Bonjour, je souhaite céder mon entreprise.",
      messageType: "public_contact",
    });
    const [mail] = await t.db!.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, recipient.email), eq(mailOutbox.kind, "message-notification")));
    expect(mail.text).toContain(unsubscribeUrl(recipient.profile.id, "messages"));
    expect(mail.html).toContain("/desabonnement?profile=");

    await updateNotificationPreferences(actorOf(recipient), { ...{ messages: "immediate", match_requests: "immediate", match_alerts: "daily", files: "daily", mediation: "daily", account: "daily" }, messages: "off" });
    await createMessage({
      recipientProfileId: recipient.profile.id,
      senderProfileId: null,
      senderName: "Visiteur",
      senderEmail: "visiteur@exemple.fr",
      subject: "Deuxième message",
      content: "Relance.",
      messageType: "public_contact",
    });
    const mails = await t.db!.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, recipient.email), eq(mailOutbox.kind, "message-notification")));
    expect(mails).toHaveLength(1);
  });
});

describe("data export", () => {
  it("contains what the member owns, their clients' identity, and no other member's private data", async () => {
    const a = await createMember(t.db!, { profile: { profileStatus: "validated", fullAddress: "1 rue du Membre A, 75001 Paris" } });
    const b = await createMember(t.db!, { profile: { profileStatus: "validated", fullAddress: "9 avenue Secrète de B, 69001 Lyon" } });
    const mandateA = await createMandate(t.db!, a.profile.id, { mandateType: "seller", clientCode: "CLI-A", clientName: "Client Confidentiel A", clientAddress: "3 place du Client A, Lille" });
    const mandateB = await createMandate(t.db!, b.profile.id, { mandateType: "buyer", clientCode: "CLI-B", clientName: "Client Secret B", clientAddress: "7 quai du Client B, Nantes" });
    const [request1] = await t.db!
      .insert(mandateMatchRequests)
      .values({ requesterMandateId: mandateB.id, targetMandateId: mandateA.id, requesterProfileId: b.profile.id, message: "Intéressé par votre cédant." })
      .returning();
    await t.db!.insert(connectionEvents).values([
      { matchRequestId: request1.id, actorProfileId: b.profile.id, event: "requested", details: { note: "note privée de B" } },
      { matchRequestId: request1.id, actorProfileId: a.profile.id, event: "accepted", details: { note: "note de A" } },
    ]);
    await createDeal(t.db!, a.profile.id, { acquirerCedant: "Cession Boulangerie Martin" });
    await createRecommendation(t.db!, a.profile.id, { sponsorName: "Jean Parrain", sponsorEmail: "jean.parrain@exemple.fr" });
    await insertMessage(t.db!, a.profile.id, { senderId: b.profile.id, senderName: "B tel qu'il signe", senderEmail: "b-contact@exemple.fr", subject: "Pour A", content: "Message reçu par A", messageType: "internal" });
    await insertMessage(t.db!, b.profile.id, { senderId: a.profile.id, senderName: "A", senderEmail: a.email, subject: "Pour B", content: "Message envoyé par A", messageType: "internal" });
    await insertMessage(t.db!, b.profile.id, { senderId: null, senderName: "Visiteur de B", senderEmail: "visiteur-b@exemple.fr", subject: "Privé de B", content: "Ne concerne que B", messageType: "public_contact" });
    await t.db!.insert(payments).values({ profileId: a.profile.id, provider: "test", checkoutSessionId: "cs_test_a", status: "paid", amountCents: 25000 });

    const out = await buildDataExport(actorOf(a));
    expect(out.account).toMatchObject({ email: a.email });
    expect(out.profile).toMatchObject({ id: a.profile.id, full_address: "1 rue du Membre A, 75001 Paris" });
    expect(out.mandates).toHaveLength(1);
    expect(out.mandates[0]).toMatchObject({ client_code: "CLI-A", client_name: "Client Confidentiel A", client_address: "3 place du Client A, Lille" });
    expect(out.certified_deals.map((d) => d.acquirer_cedant)).toEqual(["Cession Boulangerie Martin"]);
    expect(out.recommendations).toEqual([expect.objectContaining({ sponsor_name: "Jean Parrain", sponsor_email: "jean.parrain@exemple.fr" })]);
    expect(out.messages_received).toEqual([expect.objectContaining({ subject: "Pour A", sender_name: "B tel qu'il signe", sender_email: "b-contact@exemple.fr" })]);
    expect(out.messages_sent).toEqual([expect.objectContaining({ subject: "Pour B", content: "Message envoyé par A" })]);
    expect(out.match_requests).toEqual([
      expect.objectContaining({
        direction: "received",
        message: "Intéressé par votre cédant.",
        my_mandate: { id: mandateA.id, client_code: "CLI-A" },
        counterpart_mandate: { mandate_type: "buyer", client_code: "CLI-B" },
      }),
    ]);
    expect(out.connection_events).toEqual([
      expect.objectContaining({ event: "requested", actor: "contrepartie", details: null }),
      expect.objectContaining({ event: "accepted", actor: "vous", details: { note: "note de A" } }),
    ]);
    expect(out.payments).toEqual([expect.objectContaining({ amount_cents: 25000, status: "paid" })]);

    const json = JSON.stringify(out);
    for (const secret of ["Client Secret B", "7 quai du Client B", "9 avenue Secrète de B", b.email, "note privée de B", "Privé de B", "visiteur-b@exemple.fr", "password", "token"]) {
      expect(json).not.toContain(secret);
    }
  });

  it("works for an account without a profile", async () => {
    const m = await createMember(t.db!);
    await t.db!.delete(profiles).where(eq(profiles.id, m.profile.id));
    const out = await buildDataExport(actorOf(m));
    expect(out.profile).toBeNull();
    expect(out.mandates).toEqual([]);
    expect(out.account.email).toBe(m.email);
  });
});

describe("account deletion", () => {
  it("checks the password, erases the account and keeps sent messages anonymised for their recipients", async () => {
    const leaving = await createMember(t.db!, { profile: { profileStatus: "validated" } });
    const staying = await createMember(t.db!, { profile: { profileStatus: "validated" } });
    const sent = await insertMessage(t.db!, staying.profile.id, {
      senderId: leaving.profile.id,
      senderName: `${leaving.profile.firstName} ${leaving.profile.lastName}`,
      senderEmail: leaving.email,
      subject: "Proposition de collaboration",
      content: "Bonjour, travaillons ensemble.",
      messageType: "internal",
    });
    await insertMessage(t.db!, leaving.profile.id, { senderId: staying.profile.id, senderName: "Confrère", senderEmail: staying.email, messageType: "internal" });
    await createMandate(t.db!, leaving.profile.id);
    await t.db!.insert(payments).values({ profileId: leaving.profile.id, provider: "test", checkoutSessionId: "cs_test_del", status: "paid", amountCents: 25000 });
    const { b } = await signIn(leaving.email, leaving.password);

    expect(await deleteAccount(request(b), actorOf(leaving), "mauvais")).toMatchObject({ ok: false, field: "password", message: "Mot de passe incorrect" });
    expect(await t.db!.select().from(user).where(eq(user.id, leaving.user.id))).toHaveLength(1);

    const outcome = await deleteAccount(request(b), actorOf(leaving), leaving.password);
    if (!outcome.ok) throw new Error(outcome.message);
    // The browser's session cookie is expired.
    expect(outcome.headers.getSetCookie().some((c) => /session_token=;|max-age=0/i.test(c))).toBe(true);

    expect(await t.db!.select().from(user).where(eq(user.id, leaving.user.id))).toHaveLength(0);
    expect(await t.db!.select().from(profiles).where(eq(profiles.id, leaving.profile.id))).toHaveLength(0);
    expect(await t.db!.select().from(session).where(eq(session.userId, leaving.user.id))).toHaveLength(0);
    expect(await t.db!.select().from(messages).where(eq(messages.recipientId, leaving.profile.id))).toHaveLength(0);

    const [kept] = await t.db!.select().from(messages).where(eq(messages.id, sent.id));
    expect(kept).toMatchObject({ recipientId: staying.profile.id, senderId: null, senderName: DELETED_SENDER_NAME, senderEmail: "", subject: "Proposition de collaboration", content: "Bonjour, travaillons ensemble." });

    const [audit] = await t.db!.select().from(auditLog).where(and(eq(auditLog.actorUserId, leaving.user.id), eq(auditLog.action, "account.deleted")));
    expect(audit.details).toMatchObject({ profileId: leaving.profile.id, anonymisedMessages: 1, deletedMandates: 1 });
    expect(JSON.stringify(audit.details)).not.toContain(leaving.email);
    expect((audit.details as { payments: unknown[] }).payments).toEqual([expect.objectContaining({ amountCents: 25000, checkoutSessionId: "cs_test_del" })]);

    await expect(signIn(leaving.email, leaving.password)).rejects.toBeDefined();
    const notices = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.toAddress, leaving.email));
    expect(notices.map((n) => n.subject)).toEqual(["Votre compte a été supprimé"]);
  });

  it("refuses to delete the last administrator", async () => {
    const onlyAdmin = await createMember(t.db!);
    // Make this member the only admin of this database.
    await t.db!.delete(userRoles);
    await t.db!.insert(userRoles).values({ userId: onlyAdmin.user.id, role: "admin" });
    const { b } = await signIn(onlyAdmin.email, onlyAdmin.password);
    expect(await deleteAccount(request(b), actorOf(onlyAdmin), onlyAdmin.password)).toMatchObject({ ok: false, status: 409 });
    expect(await t.db!.select().from(user).where(eq(user.id, onlyAdmin.user.id))).toHaveLength(1);
  });
});

// The member's own account (/parametres): password, active sessions, notification preferences
// and unsubscribe links. Every query is scoped by the acting user's id (sessions.user_id,
// profiles.user_id); another user's session id is a 404.
import type { AuditAction, AuditDetails } from "~/lib/audit/audit-events";
import { recordAudit } from "~/lib/audit/audit.server";
import { and, desc, eq, gt } from "drizzle-orm";
import { authErrorCode } from "~/auth/auth-errors.server";
import { getAuth } from "~/auth/auth.server";
import { getRequestSessionId, type SessionUser } from "~/auth/session.server";
import { db, type Db } from "~/db/client.server";
import { emailPreferences, guestAccounts, profiles, session } from "~/db/schema";
import { formatDateTime } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { sendEmail } from "~/lib/mail/render.server";
import { securityNotice, type SecurityEvent } from "~/lib/mail/templates/security-notice";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { ACCOUNT_MESSAGES, isNotificationType, NOTIFICATION_TYPES, type NotificationType } from "./account.schema";
import { DEFAULT_EMAIL_FREQUENCIES, type EmailFrequency, isEmailFrequency } from "~/features/notifications/event-rules";
import { verifyUnsubscribeToken } from "./unsubscribe-link.server";
import { describeUserAgent } from "./user-agent";
import { invalidate } from "~/lib/cache.server";
import { AppError } from "~/lib/errors/app-error";

export type AccountActor = Pick<SessionUser, "id" | "email">;

/** Attempts that check the account password (password change, 2FA, deletion), per account. */
export const PASSWORD_CHECK_LIMIT: RateLimitRule = { limit: 10, windowSeconds: 15 * 60 };

export type CommandOutcome =
  | { ok: true; headers: Headers }
  | { ok: false; message: string; status: number; field?: string };

/** Only the set-cookie headers of a better-auth answer (new session cookie, expired ones). */
export function cookiesOf(headers: Headers | undefined): Headers {
  const out = new Headers();
  for (const c of headers?.getSetCookie() ?? []) out.append("set-cookie", c);
  return out;
}

/** Counts one password check for the account; false once the window's budget is spent. */
export async function allowPasswordCheck(actor: AccountActor, what: string): Promise<boolean> {
  const r = await consumeRateLimit(`password-check:${what}:account:${actor.id}`, PASSWORD_CHECK_LIMIT);
  return r.allowed;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export async function recordAccountEvent<A extends AuditAction & `account.${string}`>(
  actor: Pick<AccountActor, "id">,
  action: A,
  details: AuditDetails<A>,
  handle: Db | Tx = db,
): Promise<void> {
  await recordAudit(handle, { actorUserId: actor.id, action, targetId: actor.id, details });
}

/** Security e-mail to the account's address; a failure is only logged. */
export async function sendSecurityNotice(to: string, event: SecurityEvent): Promise<void> {
  try {
    await sendEmail(securityNotice, { event, when: formatDateTime(new Date()) }, { to });
  } catch (error) {
    logger.warn({ err: error, event }, "security notice failed");
  }
}

// ---------------------------------------------------------------------------------------------
// Password

export async function changePassword(
  request: Request,
  actor: AccountActor,
  input: { currentPassword: string; newPassword: string },
): Promise<CommandOutcome> {
  if (!(await allowPasswordCheck(actor, "change-password"))) {
    return { ok: false, message: ACCOUNT_MESSAGES.tooManyAttempts, status: 429 };
  }
  try {
    // Ends every session and opens a new one for this browser (its cookie is in the headers).
    const { headers } = await getAuth().api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers: request.headers,
      returnHeaders: true,
    });
    await recordAccountEvent(actor, "account.password_changed", {});
    await sendSecurityNotice(actor.email, "password-changed");
    return { ok: true, headers: cookiesOf(headers) };
  } catch (error) {
    const code = authErrorCode(error);
    if (code === "INVALID_PASSWORD") return { ok: false, message: ACCOUNT_MESSAGES.wrongPassword, status: 400, field: "currentPassword" };
    if (code === "PASSWORD_TOO_SHORT") return { ok: false, message: ACCOUNT_MESSAGES.passwordTooShort, status: 400, field: "newPassword" };
    if (code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return { ok: false, message: ACCOUNT_MESSAGES.unexpected, status: 409 };
    logger.error({ err: error, code }, "password change failed");
    return { ok: false, message: ACCOUNT_MESSAGES.unexpected, status: 500 };
  }
}

// ---------------------------------------------------------------------------------------------
// Sessions

/** The id of the session making this request (never its token). */
/** What the page shows of a session: no token, only what helps recognise a device. */
export type ActiveSession = {
  id: string;
  device: string;
  ipAddress: string | null;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
};

export async function listActiveSessions(actor: AccountActor, currentSessionId: string | null): Promise<ActiveSession[]> {
  const rows = await db
    .select({
      id: session.id,
      userAgent: session.userAgent,
      ipAddress: session.ipAddress,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
    })
    .from(session)
    .where(and(eq(session.userId, actor.id), gt(session.expiresAt, new Date())))
    .orderBy(desc(session.updatedAt), desc(session.createdAt));
  const list = rows.map((r) => ({
    id: r.id,
    device: describeUserAgent(r.userAgent),
    ipAddress: r.ipAddress || null,
    createdAt: r.createdAt.toISOString(),
    lastActiveAt: r.updatedAt.toISOString(),
    current: r.id === currentSessionId,
  }));
  // The current session first.
  return [...list.filter((s) => s.current), ...list.filter((s) => !s.current)];
}

/** Ends one of the actor's other sessions, found by id; another user's id is a 404. */
export async function revokeSession(request: Request, actor: AccountActor, sessionId: string): Promise<void> {
  const [row] = await db
    .select({ id: session.id, token: session.token })
    .from(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, actor.id)))
    .limit(1);
  if (!row) throw new AppError("not-found", ACCOUNT_MESSAGES.sessionNotFound);
  if (row.id === (await getRequestSessionId(request))) {
    throw new AppError("invalid", "Pour fermer la session en cours, utilisez «\u00a0Se déconnecter\u00a0».");
  }
  await getAuth().api.revokeSession({ body: { token: row.token }, headers: request.headers });
  await recordAccountEvent(actor, "account.session_revoked", { sessionId: row.id });
}

export async function revokeOtherSessions(request: Request, actor: AccountActor): Promise<void> {
  await getAuth().api.revokeOtherSessions({ headers: request.headers });
  await recordAccountEvent(actor, "account.other_sessions_revoked", {});
}

// ---------------------------------------------------------------------------------------------
// Notification preferences

export type NotificationPreferences = Record<NotificationType, EmailFrequency>;

/** The three e-mail kinds that had an on/off column on the profile, kept in step for their readers. */
const LEGACY_COLUMNS = { messages: "notifyMessages", match_requests: "notifyMatchRequests", match_alerts: "notifyMatchAlerts" } as const;

/** The actor's profile id and preferences, or null when they have no profile (e.g. an admin). */
export async function getNotificationPreferences(actor: AccountActor): Promise<{ profileId: string; preferences: NotificationPreferences } | null> {
  const [row] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, actor.id)).limit(1);
  if (!row) return null;
  const chosen = await db
    .select({ kind: emailPreferences.emailKind, frequency: emailPreferences.frequency })
    .from(emailPreferences)
    .where(eq(emailPreferences.userId, actor.id));
  const preferences = Object.fromEntries(NOTIFICATION_TYPES.map((k) => [k, DEFAULT_EMAIL_FREQUENCIES[k]])) as NotificationPreferences;
  for (const c of chosen) if (isNotificationType(c.kind) && isEmailFrequency(c.frequency)) preferences[c.kind] = c.frequency;
  return { profileId: row.id, preferences };
}

async function setFrequencies(tx: Db, userId: string, preferences: Partial<NotificationPreferences>): Promise<boolean> {
  const legacy: Partial<Record<(typeof LEGACY_COLUMNS)[keyof typeof LEGACY_COLUMNS], boolean>> = {};
  for (const [kind, frequency] of Object.entries(preferences) as Array<[NotificationType, EmailFrequency]>) {
    await tx
      .insert(emailPreferences)
      .values({ userId, emailKind: kind, frequency })
      .onConflictDoUpdate({ target: [emailPreferences.userId, emailPreferences.emailKind], set: { frequency, updatedAt: new Date() } });
    if (Object.hasOwn(LEGACY_COLUMNS, kind)) legacy[LEGACY_COLUMNS[kind as keyof typeof LEGACY_COLUMNS]] = frequency !== "off";
  }
  invalidate("profiles");
  const updated = await tx
    .update(profiles)
    .set({ ...legacy, updatedAt: new Date() })
    .where(eq(profiles.userId, userId))
    .returning({ id: profiles.id });
  return updated.length > 0;
}

export async function updateNotificationPreferences(actor: AccountActor, preferences: NotificationPreferences): Promise<void> {
  const [row] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, actor.id)).limit(1);
  if (!row) throw new AppError("not-found", ACCOUNT_MESSAGES.noProfile);
  await db.transaction((tx) => setFrequencies(tx, actor.id, preferences));
}

// ---------------------------------------------------------------------------------------------
// Unsubscribe links (public: the signed link is the credential)

export type UnsubscribeLink = { profile: string | null; guest?: string | null; type: string | null; token: string | null };
export type UnsubscribeLookup =
  | { outcome: "invalid" }
  | { outcome: "ok"; userId: string; type: NotificationType; alreadyOff: boolean };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findUnsubscribeTarget(link: UnsubscribeLink): Promise<UnsubscribeLookup> {
  const { profile, guest, type, token } = link;
  const holder = profile ? ({ kind: "profile", id: profile } as const) : guest ? ({ kind: "guest", id: guest } as const) : null;
  if (!holder || !UUID.test(holder.id) || !isNotificationType(type) || !verifyUnsubscribeToken(holder, type, token)) return { outcome: "invalid" };
  const [row] =
    holder.kind === "profile"
      ? await db
          .select({ userId: profiles.userId, frequency: emailPreferences.frequency })
          .from(profiles)
          .leftJoin(emailPreferences, and(eq(emailPreferences.userId, profiles.userId), eq(emailPreferences.emailKind, type)))
          .where(eq(profiles.id, holder.id))
          .limit(1)
      : await db
          .select({ userId: guestAccounts.userId, frequency: emailPreferences.frequency })
          .from(guestAccounts)
          .leftJoin(emailPreferences, and(eq(emailPreferences.userId, guestAccounts.userId), eq(emailPreferences.emailKind, type)))
          .where(eq(guestAccounts.userId, holder.id))
          .limit(1);
  if (!row) return { outcome: "invalid" };
  return { outcome: "ok", userId: row.userId, type, alreadyOff: row.frequency === "off" };
}

/** Turns one preference off for the member or guest of a valid link; "invalid" otherwise. */
export async function applyUnsubscribe(link: UnsubscribeLink): Promise<"done" | "invalid"> {
  const target = await findUnsubscribeTarget(link);
  if (target.outcome !== "ok") return "invalid";
  await db.transaction((tx) => setFrequencies(tx, target.userId, { [target.type]: "off" }));
  return "done";
}

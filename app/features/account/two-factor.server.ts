// Two-factor authentication by authenticator app, from the settings page: enrol (password →
// secret shown → first code activates it → backup codes shown once), new backup codes,
// disable (password). better-auth's two-factor plugin stores the encrypted secret and codes;
// this module adds the French outcomes, per-account limits, the audit trail and the notices.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import { symmetricDecrypt } from "better-auth/crypto";
import { authErrorCode } from "~/auth/auth-errors.server";
import { getAuth } from "~/auth/auth.server";
import { claimTotpCode, releaseTotpCode } from "~/auth/totp-replay.server";
import { TWO_FACTOR_MESSAGES } from "~/auth/two-factor.schema";
import type { SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { twoFactor, verification } from "~/db/schema";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import {
  type AccountActor,
  allowPasswordCheck,
  type CommandOutcome,
  cookiesOf,
  recordAccountEvent,
  sendSecurityNotice,
} from "./account.server";
import { ACCOUNT_MESSAGES } from "./account.schema";
import { groupSecret, otpauthUri, secretOfOtpauthUri } from "./totp";
import { totpQrSvg } from "./totp-qr.server";

export type TwoFactorActor = AccountActor & Pick<SessionUser, "twoFactorEnabled">;

export type TwoFactorState =
  | { status: "off" }
  /** Enrolment started: the secret to put in the app, waiting for the first code. */
  | { status: "pending"; secret: string; uri: string; qrSvg: string }
  | { status: "on"; backupCodesLeft: number };

export async function getTwoFactorState(actor: TwoFactorActor): Promise<TwoFactorState> {
  const [row] = await db
    .select({ secret: twoFactor.secret, verified: twoFactor.verified })
    .from(twoFactor)
    .where(eq(twoFactor.userId, actor.id))
    .limit(1);
  if (actor.twoFactorEnabled) {
    let backupCodesLeft = 0;
    if (row) {
      try {
        const { backupCodes } = await getAuth().api.viewBackupCodes({ body: { userId: actor.id } });
        backupCodesLeft = backupCodes.length;
      } catch (error) {
        logger.warn({ err: error }, "backup codes lookup failed");
      }
    }
    return { status: "on", backupCodesLeft };
  }
  if (row && row.verified === false) {
    try {
      // The secret is shown again until the first code is entered (reload, wrong code…).
      const ctx = await getAuth().$context;
      const raw = await symmetricDecrypt({ key: ctx.secretConfig, data: row.secret });
      const uri = otpauthUri({ issuer: getEnv().APP_NAME, account: actor.email, secret: raw });
      return { status: "pending", secret: groupSecret(secretOfOtpauthUri(uri) ?? ""), uri, qrSvg: await totpQrSvg(uri) };
    } catch (error) {
      logger.warn({ err: error }, "pending two-factor secret unreadable");
    }
  }
  return { status: "off" };
}

function passwordFailure(error: unknown, what: string): Extract<CommandOutcome, { ok: false }> {
  const code = authErrorCode(error);
  if (code === "INVALID_PASSWORD") return { ok: false, message: ACCOUNT_MESSAGES.wrongPassword, status: 400, field: "password" };
  if (code === "TOTP_ALREADY_ENABLED") return { ok: false, message: ACCOUNT_MESSAGES.twoFactorAlreadyEnabled, status: 409 };
  if (code === "TWO_FACTOR_NOT_ENABLED") {
    return { ok: false, message: "La double authentification n’est pas activée sur ce compte.", status: 409 };
  }
  logger.error({ err: error, code }, `${what} failed`);
  return { ok: false, message: ACCOUNT_MESSAGES.unexpected, status: 500 };
}

/** Step 1: checks the password and creates the (not yet active) secret. */
export async function startTwoFactorEnrolment(request: Request, actor: TwoFactorActor, password: string): Promise<CommandOutcome> {
  if (actor.twoFactorEnabled) return { ok: false, message: ACCOUNT_MESSAGES.twoFactorAlreadyEnabled, status: 409 };
  if (!(await allowPasswordCheck(actor, "two-factor"))) return { ok: false, message: ACCOUNT_MESSAGES.tooManyAttempts, status: 429 };
  try {
    await getAuth().api.enableTwoFactor({ body: { password }, headers: request.headers });
    return { ok: true, headers: new Headers() };
  } catch (error) {
    return passwordFailure(error, "two-factor enrolment");
  }
}

/** Step 2: the first code activates the factor; the backup codes are returned to be shown once. */
export async function confirmTwoFactorEnrolment(
  request: Request,
  actor: TwoFactorActor,
  code: string,
): Promise<(CommandOutcome & { ok: true; backupCodes: string[] }) | Extract<CommandOutcome, { ok: false }>> {
  if (actor.twoFactorEnabled) return { ok: false, message: ACCOUNT_MESSAGES.twoFactorAlreadyEnabled, status: 409 };
  if (!(await allowPasswordCheck(actor, "two-factor-code"))) return { ok: false, message: ACCOUNT_MESSAGES.tooManyAttempts, status: 429 };
  if ((await claimTotpCode(actor.id, code)) === "reused") return { ok: false, message: TWO_FACTOR_MESSAGES.codeReused, status: 400, field: "code" };
  let headers: Headers;
  try {
    // Activating replaces the session (better-auth); its new cookie is in the headers.
    const result = await getAuth().api.verifyTOTP({ body: { code }, headers: request.headers, returnHeaders: true });
    headers = cookiesOf(result.headers);
  } catch (error) {
    await releaseTotpCode(actor.id, code).catch(() => undefined);
    const errorCode = authErrorCode(error);
    if (errorCode === "INVALID_CODE") return { ok: false, message: ACCOUNT_MESSAGES.invalidCode, status: 400, field: "code" };
    if (errorCode === "TOTP_NOT_ENABLED") return { ok: false, message: "Recommencez la configuration de la double authentification.", status: 409 };
    logger.error({ err: error, code: errorCode }, "two-factor activation failed");
    return { ok: false, message: ACCOUNT_MESSAGES.unexpected, status: 500 };
  }
  const { backupCodes } = await getAuth().api.viewBackupCodes({ body: { userId: actor.id } });
  await recordAccountEvent(actor, "account.two_factor_enabled", {});
  await sendSecurityNotice(actor.email, "two-factor-enabled");
  headers.append("set-cookie", await createBackupCodesReveal(actor.id));
  return { ok: true, headers, backupCodes };
}

// Activation replaces the session, so the page after it must be a new request carrying the new
// cookie (a redirect): the backup codes are shown there once, through a ten-minute single-use
// pass (a random token in a cookie, its hash in better-auth's verification table) — with or
// without JavaScript, the same redirect and the same page.
const REVEAL_COOKIE = "rt_backup_codes";
const REVEAL_TTL_S = 10 * 60;
const revealIdentifier = (token: string) => `backup-codes-reveal:${createHash("sha256").update(token).digest("base64url")}`;

function revealCookie(value: string, maxAge: number): string {
  const secure = getEnv().APP_URL.startsWith("https://") ? "; Secure" : "";
  return `${REVEAL_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

async function createBackupCodesReveal(userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(verification).values({
    id: randomUUID(),
    identifier: revealIdentifier(token),
    value: userId,
    expiresAt: new Date(Date.now() + REVEAL_TTL_S * 1000),
  });
  return revealCookie(token, REVEAL_TTL_S);
}

function readRevealToken(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === REVEAL_COOKIE) return part.slice(i + 1).trim() || null;
  }
  return null;
}

/**
 * The backup codes to show once on the settings page after activation, when this browser holds
 * the member's unused, unexpired pass; the headers clear its cookie. Used up by this call.
 */
export async function takeRevealedBackupCodes(
  request: Request,
  actor: TwoFactorActor,
): Promise<{ backupCodes: string[] | null; headers: Headers | null }> {
  const token = readRevealToken(request);
  if (!token) return { backupCodes: null, headers: null };
  const headers = new Headers({ "set-cookie": revealCookie("", 0) });
  const [pass] = await db
    .delete(verification)
    .where(and(eq(verification.identifier, revealIdentifier(token)), eq(verification.value, actor.id), gt(verification.expiresAt, new Date())))
    .returning({ id: verification.id });
  if (!pass || !actor.twoFactorEnabled) return { backupCodes: null, headers };
  try {
    const { backupCodes } = await getAuth().api.viewBackupCodes({ body: { userId: actor.id } });
    return { backupCodes, headers };
  } catch (error) {
    logger.warn({ err: error }, "backup codes lookup failed");
    return { backupCodes: null, headers };
  }
}

/** Abandons an enrolment that was never confirmed (no password needed: nothing is active). */
export async function cancelTwoFactorEnrolment(actor: TwoFactorActor): Promise<void> {
  if (actor.twoFactorEnabled) return;
  await db.delete(twoFactor).where(and(eq(twoFactor.userId, actor.id), eq(twoFactor.verified, false)));
}

export async function regenerateBackupCodes(
  request: Request,
  actor: TwoFactorActor,
  password: string,
): Promise<(CommandOutcome & { ok: true; backupCodes: string[] }) | Extract<CommandOutcome, { ok: false }>> {
  if (!(await allowPasswordCheck(actor, "two-factor"))) return { ok: false, message: ACCOUNT_MESSAGES.tooManyAttempts, status: 429 };
  try {
    const { backupCodes } = await getAuth().api.generateBackupCodes({ body: { password }, headers: request.headers });
    await recordAccountEvent(actor, "account.backup_codes_regenerated", {});
    return { ok: true, headers: new Headers(), backupCodes };
  } catch (error) {
    return passwordFailure(error, "backup codes regeneration");
  }
}

export async function disableTwoFactor(request: Request, actor: TwoFactorActor, password: string): Promise<CommandOutcome> {
  if (!(await allowPasswordCheck(actor, "two-factor"))) return { ok: false, message: ACCOUNT_MESSAGES.tooManyAttempts, status: 429 };
  try {
    // Replaces the session too (better-auth); forward its cookie.
    const { headers } = await getAuth().api.disableTwoFactor({ body: { password }, headers: request.headers, returnHeaders: true });
    await recordAccountEvent(actor, "account.two_factor_disabled", {});
    await sendSecurityNotice(actor.email, "two-factor-disabled");
    return { ok: true, headers: cookiesOf(headers) };
  } catch (error) {
    return passwordFailure(error, "two-factor deactivation");
  }
}

// Two-factor authentication by authenticator app, from the settings page: enrol (password →
// secret shown → first code activates it → backup codes shown once), new backup codes,
// disable (password). better-auth's two-factor plugin stores the encrypted secret and codes;
// this module adds the French outcomes, per-account limits, the audit trail and the notices.
import { and, eq } from "drizzle-orm";
import { symmetricDecrypt } from "better-auth/crypto";
import { authErrorCode } from "~/auth/auth-errors.server";
import { getAuth } from "~/auth/auth.server";
import { claimTotpCode, releaseTotpCode } from "~/auth/totp-replay.server";
import { TWO_FACTOR_MESSAGES } from "~/auth/two-factor.schema";
import type { SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { twoFactor } from "~/db/schema";
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
    return { ok: false, message: "La double authentification n'est pas activée sur ce compte.", status: 409 };
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
  await recordAccountEvent(actor, "account.two_factor_enabled");
  await sendSecurityNotice(actor.email, "two-factor-enabled");
  return { ok: true, headers, backupCodes };
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
    await recordAccountEvent(actor, "account.backup_codes_regenerated");
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
    await recordAccountEvent(actor, "account.two_factor_disabled");
    await sendSecurityNotice(actor.email, "two-factor-disabled");
    return { ok: true, headers: cookiesOf(headers) };
  } catch (error) {
    return passwordFailure(error, "two-factor deactivation");
  }
}

// The second sign-in step for accounts with two-factor authentication. After the password,
// better-auth replaces the session by a short-lived signed "two_factor" cookie naming a pending
// challenge; this module checks a TOTP or backup code against it and returns the new session
// cookie. better-auth already caps attempts per challenge (5) and locks the factor after 10
// consecutive failures; we add our own per-IP and per-account counters (DESIGN §5).
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import { db } from "~/db/client.server";
import { user, verification } from "~/db/schema";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit, getClientIp, type RateLimitRule } from "~/lib/rate-limit.server";
import { authErrorCode } from "./auth-errors.server";
import { getAuth } from "./auth.server";
import { deviceCookieHeader } from "./device-cookie.server";
import { MESSAGES } from "./auth.schema";
import { TWO_FACTOR_MESSAGES } from "./two-factor.schema";
import { claimTotpCode, releaseTotpCode } from "./totp-replay.server";

export const TWO_FACTOR_LIMITS = {
  ip: { limit: 30, windowSeconds: 15 * 60 },
  account: { limit: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;

function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** better-call's signed cookie: "value.base64(HMAC-SHA256(value))". */
function unsign(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", secret).update(value).digest("base64"));
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}

/** The user id of the pending two-factor challenge of this browser, or null (none, expired, forged). */
export async function getPendingTwoFactorUserId(request: Request): Promise<string | null> {
  try {
    const ctx = await getAuth().$context;
    const signed = readCookie(request, ctx.createAuthCookie("two_factor").name);
    const identifier = signed ? unsign(signed, ctx.secret) : null;
    if (!identifier) return null;
    const [row] = await db
      .select({ userId: verification.value })
      .from(verification)
      .where(and(eq(verification.identifier, identifier), gt(verification.expiresAt, new Date())))
      .limit(1);
    return row?.userId ?? null;
  } catch (error) {
    logger.warn({ err: error }, "two-factor challenge lookup failed");
    return null;
  }
}

export type TwoFactorSignInResult =
  | { ok: true; headers: Headers }
  | { ok: false; message: string; status: number; restart?: boolean };

function cookiesOf(headers: Headers | undefined) {
  const out = new Headers();
  for (const c of headers?.getSetCookie() ?? []) out.append("set-cookie", c);
  return out;
}

/** Checks the code of the pending challenge; on success the headers carry the session cookie. */
export async function verifyTwoFactorSignIn(
  request: Request,
  input: { method: "totp" | "backup"; code: string },
): Promise<TwoFactorSignInResult> {
  const userId = await getPendingTwoFactorUserId(request);
  if (!userId) return { ok: false, message: TWO_FACTOR_MESSAGES.expired, status: 401, restart: true };
  for (const [key, rule] of [
    [`2fa:ip:${getClientIp(request)}`, TWO_FACTOR_LIMITS.ip],
    [`2fa:account:${userId}`, TWO_FACTOR_LIMITS.account],
  ] as const) {
    if (!(await consumeRateLimit(key, rule)).allowed) return { ok: false, message: MESSAGES.tooManyAttempts, status: 429 };
  }
  // One use per code: its time step is claimed before better-auth checks it.
  if (input.method === "totp" && (await claimTotpCode(userId, input.code)) === "reused") {
    logger.info({ method: input.method }, "two-factor sign-in refused: code already used");
    return { ok: false, message: TWO_FACTOR_MESSAGES.codeReused, status: 401 };
  }
  try {
    const api = getAuth().api;
    const { headers } =
      input.method === "totp"
        ? await api.verifyTOTP({ body: { code: input.code }, headers: request.headers, returnHeaders: true })
        : await api.verifyBackupCode({ body: { code: input.code }, headers: request.headers, returnHeaders: true });
    const out = cookiesOf(headers);
    const [account] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
    if (account) out.append("set-cookie", deviceCookieHeader(account.email));
    return { ok: true, headers: out };
  } catch (error) {
    const code = authErrorCode(error);
    logger.info({ code, method: input.method }, "two-factor sign-in refused");
    // Not signed in: the code was not used up.
    if (input.method === "totp") await releaseTotpCode(userId, input.code).catch(() => undefined);
    switch (code) {
      case "INVALID_CODE":
        return { ok: false, message: TWO_FACTOR_MESSAGES.invalidCode, status: 401 };
      case "INVALID_BACKUP_CODE":
        return { ok: false, message: TWO_FACTOR_MESSAGES.invalidBackupCode, status: 401 };
      case "ACCOUNT_TEMPORARILY_LOCKED":
        return { ok: false, message: TWO_FACTOR_MESSAGES.tooManyAttempts, status: 429 };
      case "INVALID_TWO_FACTOR_COOKIE":
      case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
        return { ok: false, message: TWO_FACTOR_MESSAGES.expired, status: 401, restart: true };
      default:
        logger.error({ err: error, code }, "two-factor sign-in failed");
        return { ok: false, message: MESSAGES.unexpected, status: 500 };
    }
  }
}

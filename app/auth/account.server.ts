// Sign-up, sign-in and password reset as commands used by the /auth actions. They add what
// the spec needs on top of better-auth: French messages, the explicit duplicate-e-mail answer,
// and rate limits per IP and per account stored in PostgreSQL.
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { user } from "~/db/schema";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit, getClientIp, RATE_LIMITS } from "~/lib/rate-limit.server";
import { authErrorCode, frenchAuthError } from "./auth-errors.server";
import { getAuth } from "./auth.server";
import { deviceCookieHeader, trustedDeviceOf } from "./device-cookie.server";
import { MESSAGES } from "./auth.schema";

export type CommandResult = { ok: true; headers: Headers } | { ok: false; message: string; status: number };

function cookiesOf(headers: Headers | undefined) {
  const out = new Headers();
  for (const c of headers?.getSetCookie() ?? []) out.append("set-cookie", c);
  return out;
}

async function limited(keys: Array<[string, (typeof RATE_LIMITS)[keyof typeof RATE_LIMITS]]>) {
  for (const [key, rule] of keys) {
    const r = await consumeRateLimit(key, rule);
    if (!r.allowed) return true;
  }
  return false;
}

export async function signUp(request: Request, input: { email: string; password: string; name?: string }, callbackURL = "/onboarding"): Promise<CommandResult> {
  const ip = getClientIp(request);
  if (await limited([[`sign-up:ip:${ip}`, RATE_LIMITS.signUpIp]])) {
    return { ok: false, message: MESSAGES.tooManyAttempts, status: 429 };
  }
  // The spec answers a taken address explicitly (better-auth would hide it when verification
  // is required).
  const existing = await db.select({ id: user.id }).from(user).where(eq(user.email, input.email)).limit(1);
  if (existing.length > 0) return { ok: false, message: MESSAGES.emailTaken, status: 409 };
  try {
    await getAuth().api.signUpEmail({
      body: { email: input.email, password: input.password, name: input.name ?? input.email, callbackURL },
      headers: request.headers,
    });
    return { ok: true, headers: new Headers() };
  } catch (error) {
    logger.info({ code: authErrorCode(error) }, "sign-up refused");
    return { ok: false, message: frenchAuthError(error), status: 400 };
  }
}

export type SignInResult = CommandResult | { ok: "two-factor"; headers: Headers };

export async function signIn(request: Request, input: { email: string; password: string }): Promise<SignInResult> {
  const ip = getClientIp(request);
  // A browser that signed in to this account before is limited on its own (device cookie):
  // failures from elsewhere, which lock the account for unknown devices, do not lock it out.
  const device = trustedDeviceOf(request, input.email);
  const rules: Array<[string, (typeof RATE_LIMITS)[keyof typeof RATE_LIMITS]]> = device
    ? [[`sign-in:device:${device}`, RATE_LIMITS.signInDevice]]
    : [
        [`sign-in:ip:${ip}`, RATE_LIMITS.signInIp],
        [`sign-in:account:${input.email}`, RATE_LIMITS.signInAccount],
      ];
  if (await limited(rules)) {
    return { ok: false, message: MESSAGES.tooManyAttempts, status: 429 };
  }
  try {
    const { headers, response } = await getAuth().api.signInEmail({
      body: { email: input.email, password: input.password, callbackURL: "/onboarding" },
      headers: request.headers,
      returnHeaders: true,
    });
    if (response && typeof response === "object" && "twoFactorRedirect" in response && response.twoFactorRedirect) {
      // The device is trusted once the second factor is given too (two-factor.server.ts).
      return { ok: "two-factor", headers: cookiesOf(headers) };
    }
    const out = cookiesOf(headers);
    out.append("set-cookie", deviceCookieHeader(input.email));
    return { ok: true, headers: out };
  } catch (error) {
    const code = authErrorCode(error);
    logger.info({ code }, "sign-in refused");
    return { ok: false, message: frenchAuthError(error), status: code === "EMAIL_NOT_VERIFIED" ? 403 : 401 };
  }
}

export async function requestPasswordReset(request: Request, email: string): Promise<CommandResult> {
  const ip = getClientIp(request);
  if (
    await limited([
      [`reset:ip:${ip}`, RATE_LIMITS.passwordResetIp],
      [`reset:account:${email}`, RATE_LIMITS.passwordResetAccount],
    ])
  ) {
    return { ok: false, message: MESSAGES.tooManyAttempts, status: 429 };
  }
  try {
    await getAuth().api.requestPasswordReset({
      body: { email, redirectTo: "/auth/nouveau-mot-de-passe" },
      headers: request.headers,
    });
  } catch (error) {
    // Same answer whether or not the account exists.
    logger.warn({ code: authErrorCode(error) }, "password reset request failed");
  }
  return { ok: true, headers: new Headers() };
}

export async function resetPassword(request: Request, input: { token: string; password: string }): Promise<CommandResult> {
  try {
    await getAuth().api.resetPassword({
      body: { token: input.token, newPassword: input.password },
      headers: request.headers,
    });
    return { ok: true, headers: new Headers() };
  } catch (error) {
    return { ok: false, message: frenchAuthError(error), status: 400 };
  }
}

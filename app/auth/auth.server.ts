// better-auth: e-mail + password, e-mail verification, password reset, database sessions and
// rate limits, argon2id, TOTP two-factor. Mounted at /api/auth (routes/api/auth.ts).
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins";
import { db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { invalidate } from "~/lib/cache.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { sendResetPasswordEmail, sendVerificationEmail } from "~/lib/mail/render.server";
import { getAppSecret } from "~/lib/secrets.server";
import { hashPassword, verifyPassword } from "./password.server";

export const CLIENT_IP_HEADER = "x-rt-client-ip";

function dropUser<T>(userOf: (row: T) => string): (row: T) => Promise<void> {
  return (row) => {
    invalidate(`user:${userOf(row)}`);
    return Promise.resolve();
  };
}

function createAuth() {
  const env = getEnv();
  return betterAuth({
    appName: env.APP_NAME,
    baseURL: env.APP_URL,
    basePath: "/api/auth",
    secret: getAppSecret(),
    trustedOrigins: [env.APP_URL],
    // Defence in depth behind the allowlist of routes/api/auth.ts (app/auth/auth-routes.ts):
    // passwords and codes are checked only through the app's actions (/auth, /parametres…),
    // which add rate limits per account on top of per address. Over HTTP, better-auth's limiter
    // counts per address only, so behind a proxy rotating client addresses would bypass them:
    // these endpoints stay callable from the server (auth.api.*) but are not served.
    disabledPaths: [
      "/sign-in/email",
      "/sign-up/email",
      "/request-password-reset",
      "/change-password",
      "/two-factor/verify-totp",
      "/two-factor/verify-backup-code",
    ],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
        rateLimit: schema.rateLimit,
      },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
      sendResetPassword: async ({ user, url }) => {
        await sendResetPasswordEmail(user.email, url);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, url }) => {
        await sendVerificationEmail(user.email, url);
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 14,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 15 * 60, max: 20 },
        "/sign-up/email": { window: 60 * 60, max: 10 },
        "/request-password-reset": { window: 60 * 60, max: 10 },
        "/two-factor/verify-totp": { window: 15 * 60, max: 10 },
      },
    },
    advanced: {
      useSecureCookies: env.APP_URL.startsWith("https://"),
      cookiePrefix: "rt",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      // Set by server.ts from the socket (or from X-Forwarded-For only when TRUST_PROXY is on).
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // The session and its user in one statement (relations in app/db/schema/auth.ts): every
      // signed-in request reads them, and each statement counts on every page.
      database: { joins: true },
    },
    // better-auth's own writes (sign-out, revocation, password, two-factor) drop the guards this
    // instance keeps for that user; other instances hear it at commit (migration 0015).
    databaseHooks: {
      user: { update: { after: dropUser((u) => u.id) }, delete: { after: dropUser((u) => u.id) } },
      session: { update: { after: dropUser((s) => s.userId) }, delete: { after: dropUser((s) => s.userId) } },
    },
    plugins: [twoFactor({ issuer: env.APP_NAME })],
    logger: {
      log: (level, message, ...args: unknown[]) => {
        const lvl = level === "error" ? "error" : level === "warn" ? "warn" : "debug";
        // The cause, when better-auth passes one, under `err` (the logger strips database values
        // from errors); other arguments may carry request data and are not logged.
        const err = args.find((a): a is Error => a instanceof Error);
        logger[lvl]({ source: "better-auth", ...(err ? { err } : {}) }, message);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

let auth: Auth | undefined;

export function getAuth(): Auth {
  auth ??= createAuth();
  return auth;
}

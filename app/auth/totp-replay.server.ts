// One use per two-factor code. better-auth accepts a TOTP code for three
// 30-second steps (window ±1) and remembers nothing: the same code signed in twice. Before a code
// is handed to better-auth, we find the time step it belongs to (same algorithm, same secret) and
// claim (user, step) in used_totp_steps; the primary key refuses a second claim, also when two
// requests race. A code that matches no step is left to better-auth, which refuses and counts it.
import { createHmac } from "node:crypto";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { twoFactor, usedTotpSteps } from "~/db/schema";
import { getAuth } from "./auth.server";

export const TOTP_STEP_MS = 30_000;
/** better-auth's verification window, in steps on each side of the current one. */
export const TOTP_WINDOW = 1;

/** RFC 4226 HOTP, 6 digits, with the raw secret's UTF-8 bytes as the key (as better-auth does). */
export function hotp(secret: string, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", Buffer.from(secret, "utf8")).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** The time step whose code `code` is, within the window around `now`, or null. */
export function matchingStep(secret: string, code: string, now: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = Math.floor(now / TOTP_STEP_MS);
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    if (hotp(secret, step) === code) return step;
  }
  return null;
}

export type TotpClaim = "claimed" | "reused" | "no-match";

/**
 * Claims the step of `code` for `userId` before better-auth checks it. "reused": the code was
 * already accepted once — refuse it. "no-match": not a current code (better-auth will say so).
 */
export async function claimTotpCode(userId: string, code: string, now: number = Date.now()): Promise<TotpClaim> {
  const [row] = await db.select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
  if (!row) return "no-match";
  const ctx = await getAuth().$context;
  const secret = await symmetricDecrypt({ key: ctx.secretConfig, data: row.secret });
  const step = matchingStep(secret, code.trim(), now);
  if (step === null) return "no-match";
  const inserted = await db.insert(usedTotpSteps).values({ userId, timeStep: step }).onConflictDoNothing().returning({ step: usedTotpSteps.timeStep });
  // Steps older than the window can never match again: keep the table small.
  await db.delete(usedTotpSteps).where(and(eq(usedTotpSteps.userId, userId), lt(usedTotpSteps.timeStep, step - 2 * TOTP_WINDOW - 2)));
  return inserted.length === 1 ? "claimed" : "reused";
}

/** Gives a claimed step back when the command it was claimed for did not go through. */
export async function releaseTotpCode(userId: string, code: string, now: number = Date.now()): Promise<void> {
  const [row] = await db.select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
  if (!row) return;
  const ctx = await getAuth().$context;
  const step = matchingStep(await symmetricDecrypt({ key: ctx.secretConfig, data: row.secret }), code.trim(), now);
  if (step !== null) await db.delete(usedTotpSteps).where(and(eq(usedTotpSteps.userId, userId), sql`${usedTotpSteps.timeStep} = ${step}`));
}

// RFC 6238 TOTP codes for tests (integration and e2e), from the base32 secret an authenticator
// app would be given (the `secret` of the otpauth:// URI). No dependency beyond node:crypto.
import { createHmac } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(input: string): Buffer {
  const clean = input.replace(/[\s=]/g, "").toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) throw new Error(`invalid base32 character: ${char}`);
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

/** The 6-digit code of `secret` (base32, spaces allowed) at `at` (ms), 30-second steps. */
export function totpCode(secret: string, at: number = Date.now()): string {
  const counter = Math.floor(at / 30_000);
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac("sha1", base32Decode(secret)).update(message).digest();
  const offset = hmac[hmac.length - 1] & 0x0f;
  const value = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, "0");
}

/** The base32 secret of an otpauth:// URI. */
export function secretFromOtpauthUri(uri: string): string {
  const secret = new URL(uri.replace(/^otpauth:/, "http:")).searchParams.get("secret");
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
}

// The server accepts each code once (per user and 30-second step, window ±1). Tests that sign in
// several times with one secret take the code of a step not used yet: the current one, else the
// next one (still valid for a minute), else they wait for the next step. Used steps are kept in
// memory and, for the browser tests (a fresh data directory per run), in a file beside the data.
const usedSteps = new Map<string, Set<number>>();

function usedFile(secret: string): string | null {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) return null;
  return `${dir}/totp-used-${createHmac("sha256", "steps").update(secret).digest("hex").slice(0, 12)}.json`;
}

function loadUsed(secret: string): Set<number> {
  let set = usedSteps.get(secret);
  if (!set) {
    set = new Set();
    const file = usedFile(secret);
    if (file && existsSync(file)) for (const s of JSON.parse(readFileSync(file, "utf8")) as number[]) set.add(s);
    usedSteps.set(secret, set);
  }
  return set;
}

/** Marks the step of a code given out by totpCode() as used (e.g. the enrolment's first code). */
export function markTotpUsed(secret: string, at: number = Date.now()) {
  const set = loadUsed(secret);
  set.add(Math.floor(at / 30_000));
  const file = usedFile(secret);
  if (file) writeFileSync(file, JSON.stringify([...set]));
}

/** A code of `secret` that the server has not accepted yet (waits for the next step if needed). */
export async function unusedTotpCode(secret: string): Promise<string> {
  for (;;) {
    const now = Date.now();
    const step = Math.floor(now / 30_000);
    const set = loadUsed(secret);
    // The current step, the next one, and the previous one while the current step has more than
    // 5 s to run (the server accepts ±1 step around its own clock).
    const remaining = (step + 1) * 30_000 - now;
    for (const candidate of remaining > 5_000 ? [step, step + 1, step - 1] : [step, step + 1]) {
      if (!set.has(candidate)) {
        markTotpUsed(secret, candidate * 30_000);
        return totpCode(secret, candidate * 30_000);
      }
    }
    await new Promise((r) => setTimeout(r, (step + 1) * 30_000 - now + 200));
  }
}

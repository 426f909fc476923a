// Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"). A browser that signed in successfully gets a signed cookie naming
// the login and a random device id. Later sign-in attempts presenting a valid device cookie for
// that login are limited per device only, so that failures from anywhere else (which lock the
// account for unknown devices) never lock its owner out. Unknown devices stay limited per
// account and per address. A device cookie that keeps failing is locked out like any client.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/lib/env.server";
import { getAppSecret } from "~/lib/secrets.server";

export const DEVICE_COOKIE = "rt_device";
const ONE_YEAR_S = 365 * 24 * 60 * 60;

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64url");

function mac(login: string, deviceId: string, secret: string): string {
  return createHmac("sha256", secret).update(`device-cookie|${login}|${deviceId}`).digest("base64url");
}

/** The cookie value for `login` (lower-cased e-mail): "deviceId.base64url(login).mac". */
export function signDeviceCookie(login: string, deviceId: string = randomBytes(12).toString("base64url"), secret: string = getAppSecret()): string {
  const normalized = login.trim().toLowerCase();
  return `${deviceId}.${b64(normalized)}.${mac(normalized, deviceId, secret)}`;
}

/** The device id of a valid cookie value for `login`, else null (absent, other login, forged). */
export function verifyDeviceCookie(value: string | null | undefined, login: string, secret: string = getAppSecret()): string | null {
  if (!value) return null;
  const parts = value.split(".");
  if (parts.length !== 3) return null;
  const [deviceId, encodedLogin, given] = parts;
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(deviceId)) return null;
  const normalized = login.trim().toLowerCase();
  if (encodedLogin !== b64(normalized)) return null;
  const expected = Buffer.from(mac(normalized, deviceId, secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? deviceId : null;
}

function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

/** The device id of this browser for `login`, when it holds a valid device cookie. */
export function trustedDeviceOf(request: Request, login: string): string | null {
  return verifyDeviceCookie(readCookie(request, DEVICE_COOKIE), login);
}

/** The Set-Cookie header of a fresh device cookie (a new id at every successful sign-in). */
export function deviceCookieHeader(login: string): string {
  const secure = getEnv().APP_URL.startsWith("https://") ? "; Secure" : "";
  return `${DEVICE_COOKIE}=${signDeviceCookie(login)}; Path=/; Max-Age=${ONE_YEAR_S}; HttpOnly; SameSite=Lax${secure}`;
}

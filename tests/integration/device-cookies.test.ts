// Issue 12, finding 6: failures from anywhere must not lock a known browser out. A successful
// sign-in leaves a device cookie; with it, attempts are limited per device only. Unknown devices
// stay limited per account and per address; a device cookie that keeps failing is locked too.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signIn } from "~/auth/account.server";
import { DEVICE_COOKIE, signDeviceCookie, verifyDeviceCookie } from "~/auth/device-cookie.server";
import { rateLimitCounters } from "~/db/schema";
import { RATE_LIMITS } from "~/lib/rate-limit.server";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();

function attempt(email: string, password: string, ip: string, cookie?: string) {
  const headers = new Headers({ "x-rt-client-ip": ip, "user-agent": "Mozilla/5.0 Firefox/140.0" });
  if (cookie) headers.set("cookie", cookie);
  return signIn(new Request("http://localhost:3000/auth", { method: "POST", headers }), { email, password });
}

type Outcome = Awaited<ReturnType<typeof signIn>>;

function setCookiesOf(outcome: Outcome): string[] {
  return "headers" in outcome ? outcome.headers.getSetCookie() : [];
}

function deviceCookieOf(outcome: Outcome): string | undefined {
  return setCookiesOf(outcome).find((h) => h.startsWith(`${DEVICE_COOKIE}=`))?.split(";")[0];
}

let ip = 1;
const strangerIp = () => `198.51.100.${ip++}`;

let member: CreatedMember;

beforeAll(() => seedFactories(66));

beforeEach(async () => {
  await t.db!.delete(rateLimitCounters);
  member = await createMember(t.db!);
});

describe("device cookies", () => {
  it("a successful sign-in leaves an httpOnly device cookie for a year", async () => {
    const ok = await attempt(member.email, member.password, "203.0.113.20");
    expect(ok.ok).toBe(true);
    const header = setCookiesOf(ok).find((h) => h.startsWith(`${DEVICE_COOKIE}=`))!;
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).toMatch(/Max-Age=31536000/);
    const failed = await attempt(member.email, "mauvais-mot-de-passe", "203.0.113.20");
    expect(failed).toMatchObject({ ok: false, status: 401 });
    expect("headers" in failed).toBe(false);
  });

  it("strangers' failures lock unknown devices out, never the browser that signed in before", async () => {
    const first = await attempt(member.email, member.password, "203.0.113.21");
    const device = deviceCookieOf(first)!;
    expect(device).toBeDefined();

    for (let i = 0; i < RATE_LIMITS.signInAccount.limit + 4; i++) {
      await attempt(member.email, "mauvais-mot-de-passe", strangerIp());
    }
    // An unknown device, even with the right password: locked for now.
    expect(await attempt(member.email, member.password, strangerIp())).toMatchObject({ ok: false, status: 429 });
    // The member's own browser: signs in.
    const again = await attempt(member.email, member.password, "203.0.113.21", device);
    expect(again.ok).toBe(true);
    // From another network too (the cookie, not the address, is what is trusted).
    expect((await attempt(member.email, member.password, strangerIp(), device)).ok).toBe(true);
  });

  it("a device cookie of another account, or a forged one, is an unknown device", async () => {
    const other = await createMember(t.db!);
    const otherDevice = deviceCookieOf(await attempt(other.email, other.password, "203.0.113.22"))!;
    const forged = `${DEVICE_COOKIE}=${signDeviceCookie(member.email, "abcdefghijkl", "not-the-secret")}`;
    for (let i = 0; i < RATE_LIMITS.signInAccount.limit + 1; i++) await attempt(member.email, "faux", strangerIp());
    expect(await attempt(member.email, member.password, strangerIp(), otherDevice)).toMatchObject({ status: 429 });
    expect(await attempt(member.email, member.password, strangerIp(), forged)).toMatchObject({ status: 429 });
  });

  it("a device that keeps failing is locked out on its own", async () => {
    const device = deviceCookieOf(await attempt(member.email, member.password, "203.0.113.23"))!;
    for (let i = 0; i < RATE_LIMITS.signInDevice.limit; i++) {
      expect(await attempt(member.email, "faux", "203.0.113.23", device)).toMatchObject({ ok: false, status: 401 });
    }
    expect(await attempt(member.email, member.password, "203.0.113.23", device)).toMatchObject({ ok: false, status: 429 });
    // Unknown devices were never counted by it: a first sign-in elsewhere still works.
    expect((await attempt(member.email, member.password, strangerIp())).ok).toBe(true);
  });
});

describe("device cookie values", () => {
  const secret = "s3cret-for-tests";
  const value = signDeviceCookie("Eve@Exemple.fr", "device-123456", secret);
  it.each<[string, string | null | undefined, string, string | null]>([
    ["its own login", value, "eve@exemple.fr", "device-123456"],
    ["the same login in capitals", value, "EVE@EXEMPLE.FR", "device-123456"],
    ["another login", value, "bob@exemple.fr", null],
    ["a tampered id", value.replace("device-123456", "device-999999"), "eve@exemple.fr", null],
    ["a truncated value", value.slice(0, -3), "eve@exemple.fr", null],
    ["garbage", "a.b", "eve@exemple.fr", null],
    ["nothing", null, "eve@exemple.fr", null],
  ])("%s", (_label, cookie, login, expected) => {
    expect(verifyDeviceCookie(cookie, login, secret)).toBe(expected);
  });
});

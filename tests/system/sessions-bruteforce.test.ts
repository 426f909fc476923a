// Sessions and brute force, against the production build run as a real server (RATE_LIMIT_SCALE=1):
// - sign-in limits per address and per account hold with a rotating X-Forwarded-For (honoured
//   only with TRUST_PROXY, and then only the address the proxy appended) and under every spelling
//   of the path that reaches the /auth action (better-auth's own password endpoints are not
//   served over HTTP at all);
// - cross-origin POSTs (text/plain, foreign or null Origin, Sec-Fetch-Site: cross-site) are
//   refused on page actions and on /api/auth, also behind dot-segment paths;
// - cookie flags (session and flash toast), Secure when APP_URL is https;
// - a session cookie is dead after sign-out, password change, password reset and expiry, and a
//   forged one is worth nothing;
// - issue 12: better-auth's account endpoints answer 404 (allowlist), a two-factor code works
//   once, and strangers' failures never lock out a browser holding its device cookie.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "~/lib/rate-limit.server";
import { CookieJar, parseSetCookie, send, sqlRows, type Answer, type RequestOptions } from "./support/client";
import { createSystemDatabase, runScript, type SystemDatabase } from "./support/database";
import { LEGAL_ENV } from "../support/legal-env";
import { sealEnv } from "../support/seal-env";
import { secretFromOtpauthUri, unusedTotpCode } from "../support/totp";
import { startServer, type RunningServer } from "./support/server";

const PASSWORD = "demo-transmission-2026";
const EVIL = "https://evil.example";
const HTTPS_APP = "https://reseau.example";

let database: SystemDatabase;
let server: RunningServer | undefined;
let base = "";
let accounts: string[] = [];
let nextAddress = 10;
/** A loopback source address of its own (127.0.0.10, .11…): a client of its own for the server. */
const freshAddress = () => `127.0.0.${nextAddress++}`;
const takeAccount = () => {
  const email = accounts.shift();
  if (!email) throw new Error("plus de compte de test disponible (augmenter --members)");
  return email;
};
const unknownEmail = () => `inconnu-${randomBytes(4).toString("hex")}@exemple.fr`;
const randomIp = () => `${10 + (randomBytes(1)[0] % 200)}.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

/** The cookie names of better-auth's session (prefix `__Secure-` when APP_URL is https). */
const isSessionCookie = (name: string) => name === "rt.session_token" || name === "__Secure-rt.session_token";
const sessionCookieOf = (a: Answer) =>
  a.setCookies.map(parseSetCookie).find((c) => isSessionCookie(c.name) && c.value !== "");

function signIn(email: string, password: string, options: RequestOptions & { path?: string } = {}) {
  return send(base, options.path ?? "/auth", {
    ...options,
    form: { intent: "sign-in", email, password },
    headers: { origin: base, ...options.headers },
  });
}

async function signedIn(email: string, password = PASSWORD, from = freshAddress()): Promise<CookieJar> {
  const r = await signIn(email, password, { from });
  expect(r.status, r.body.slice(0, 300)).toBe(302);
  expect(sessionCookieOf(r)).toBeDefined();
  return new CookieJar().store(r);
}

/** 200 with a live session; a dead one is sent to /auth. */
async function settingsStatus(jar: CookieJar, extra: Record<string, string> = {}) {
  const r = await send(base, "/parametres", { headers: { cookie: jar.header(), ...extra } });
  return r.status === 302 ? `redirect:${r.location}` : String(r.status);
}

async function mailTo(email: string, match: RegExp): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await send(base, `/dev/mailbox.json?to=${encodeURIComponent(email)}`);
    const mails = JSON.parse(r.body) as Array<{ text: string; subject: string }>;
    const found = mails.find((m) => match.test(m.text));
    if (found) return found.text;
    if (Date.now() > deadline) throw new Error(`aucun e-mail pour ${email} (${mails.map((m) => m.subject).join(", ")})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  database = await createSystemDatabase();
  runScript(database, ["scripts/seed.ts", "--members", "20", "--seed", "11", "--mandates", "0"]);
  accounts = (await sqlRows<{ email: string }>(database, `select email from "user" where email_verified order by email`)).map((r) => r.email);
  server = await startServer({ ...database.env, RATE_LIMIT_SCALE: "1", TRUST_PROXY: "false" }, { capture: true });
  base = server.baseUrl;
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("plain http, no proxy (TRUST_PROXY=false)", () => {
  it("counts sign-in attempts per socket address, whatever X-Forwarded-For says", async () => {
    const from = freshAddress();
    for (let i = 0; i < RATE_LIMITS.signInIp.limit; i++) {
      const r = await signIn(unknownEmail(), "mauvais-mot-de-passe", { from, headers: { "x-forwarded-for": randomIp() } });
      expect(r.status).toBe(401);
    }
    const email = takeAccount();
    const refused = await signIn(email, PASSWORD, { from, headers: { "x-forwarded-for": randomIp() } });
    expect(refused.status).toBe(429);
    expect(refused.body).toContain("Trop de tentatives. Veuillez réessayer dans quelques minutes.");
    expect(sessionCookieOf(refused)).toBeUndefined();

    // Another client is not affected, and the address the server records is the socket's.
    const jar = await signedIn(email);
    const settings = await send(base, "/parametres/securite", { headers: { cookie: jar.header(), "x-forwarded-for": "198.51.100.77" } });
    expect(settings.status).toBe(200);
    expect(settings.body).not.toContain("198.51.100.77");
  });

  it("counts attempts per account across addresses and every spelling of /auth", async () => {
    const victim = takeAccount();
    const spellings = ["/auth", "/auth/", "/./auth", "/AUTH", "/%61uth", "/auth?index", "/auth?mode=connexion"];
    for (let i = 0; i < RATE_LIMITS.signInAccount.limit; i++) {
      const r = await signIn(victim, `mauvais-${i}`, { from: freshAddress(), path: spellings[i % spellings.length] });
      expect(r.status).toBe(401);
    }
    // The right password, from a new address, under any spelling: refused, or not served at all.
    const expected: Record<string, number> = {
      ...Object.fromEntries(spellings.map((p) => [p, 429])),
      "//auth": 404,
      "///auth": 404,
      "/api/webhooks/../../auth": 429,
      "/api/webhooks/%2e%2e/%2E%2E/auth": 429,
    };
    for (const [path, status] of Object.entries(expected)) {
      const r = await signIn(victim, PASSWORD, { from: freshAddress(), path });
      expect({ path, status: r.status, session: sessionCookieOf(r)?.name }).toEqual({ path, status, session: undefined });
    }
  });

  it("serves no password endpoint of better-auth over HTTP, under any spelling", async () => {
    const email = takeAccount();
    const json = (body: Record<string, string>) => ({
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", origin: base },
      from: freshAddress(),
    });
    const signInPaths = [
      "/api/auth/sign-in/email",
      "//api/auth/sign-in/email",
      "/./api/auth/sign-in/email",
      "/api/./auth/sign-in/email",
      "/API/AUTH/sign-in/email",
      "/api/auth/SIGN-IN/email",
      "/api/auth/sign-in/email/",
      "/api/auth//sign-in/email",
      "/api/%61uth/sign-in/email",
      "/api/auth/sign-in/%65mail",
      "/api/auth/sign-in%2Femail",
      "/api/webhooks/../auth/sign-in/email",
      "/api/auth/sign-in/email?callbackURL=/",
    ];
    for (const path of signInPaths) {
      const r = await send(base, path, json({ email, password: PASSWORD }));
      // 404 where the path reaches the router, 415 where it does not name the JSON API and a page
      // action would have to read the body (server.ts): refused either way, and no session.
      expect({ path, refused: [404, 415].includes(r.status), session: sessionCookieOf(r)?.name }).toEqual({ path, refused: true, session: undefined });
    }
    for (const path of ["/api/auth/sign-up/email", "/api/auth/request-password-reset", "/api/auth/change-password", "/api/auth/two-factor/verify-totp"]) {
      const r = await send(base, path, json({ email: unknownEmail(), password: PASSWORD, name: "x", newPassword: "x", currentPassword: "x", code: "123456" }));
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
    }
    // The /auth form is the way in.
    await signedIn(email);
  });

  it("serves better-auth's account endpoints to no one over HTTP, a session cookie notwithstanding (issue 12, finding 2)", async () => {
    const jar = await signedIn(takeAccount());
    const probes: Array<[string, string, Record<string, string> | null]> = [
      ["POST", "/api/auth/verify-password", { password: "faux-mot-de-passe" }],
      ["POST", "/api/auth/two-factor/get-totp-uri", { password: PASSWORD }],
      ["POST", "/api/auth/two-factor/disable", { password: PASSWORD }],
      ["POST", "/api/auth/two-factor/enable", { password: PASSWORD }],
      ["POST", "/api/auth/two-factor/generate-backup-codes", { password: PASSWORD }],
      ["GET", "/api/auth/get-session", null],
      ["POST", "/api/auth/get-session", {}],
      ["GET", "/api/auth/list-sessions", null],
      ["POST", "/api/auth/revoke-sessions", {}],
      ["POST", "/api/auth/update-user", { name: "x" }],
      ["POST", "/api/auth/change-email", { newEmail: unknownEmail() }],
      ["POST", "/api/auth/delete-user", { password: PASSWORD }],
      ["GET", "/api/auth/ok", null],
    ];
    for (const [method, path, body] of probes) {
      const r = await send(base, path, {
        method,
        ...(body ? { body: JSON.stringify(body) } : {}),
        headers: { cookie: jar.header(), origin: base, ...(body ? { "content-type": "application/json" } : {}) },
        from: freshAddress(),
      });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 404 });
      expect(r.body).not.toMatch(/token|secret|otpauth|"status"/i);
    }
    // The session is untouched: the app's own pages still serve it.
    expect(await settingsStatus(jar)).toBe("200");
  });

  it("failures from strangers lock unknown devices out, never the browser that signed in before (issue 12, finding 6)", async () => {
    const email = takeAccount();
    const home = freshAddress();
    const first = await signIn(email, PASSWORD, { from: home });
    expect(first.status).toBe(302);
    const device = new CookieJar().store(first).get("rt_device");
    expect(device).toBeDefined();
    for (let i = 0; i < RATE_LIMITS.signInAccount.limit + 4; i++) {
      const r = await signIn(email, "mauvais-mot-de-passe", { from: freshAddress() });
      expect([401, 429]).toContain(r.status);
    }
    // Another device with the right password: locked for now.
    const stranger = await signIn(email, PASSWORD, { from: freshAddress() });
    expect({ status: stranger.status, session: sessionCookieOf(stranger)?.name }).toEqual({ status: 429, session: undefined });
    // The member's own browser (its device cookie, no session), even from another network.
    const own = await signIn(email, PASSWORD, { from: freshAddress(), headers: { cookie: `rt_device=${device}` } });
    expect(own.status).toBe(302);
    expect(sessionCookieOf(own)).toBeDefined();
  });

  it("accepts a two-factor code once: the same code cannot sign in twice (issue 12, finding 3)", async () => {
    const email = takeAccount();
    const home = freshAddress();
    const jar = await signedIn(email, PASSWORD, home);
    const post = async (path: string, form: Record<string, string>, cookieJar: CookieJar, from = home) => {
      const r = await send(base, path, { form, headers: { origin: base, cookie: cookieJar.header() }, from });
      cookieJar.store(r);
      return r;
    };
    const started = await post("/parametres", { intent: "enable-2fa", password: PASSWORD }, jar);
    expect(started.location).toMatch(/^\/parametres/);
    const page = await send(base, "/parametres/securite", { headers: { cookie: jar.header() }, from: home });
    const uri = /otpauth:\/\/[^<"\s]+/.exec(page.body)?.[0].replace(/&amp;/g, "&");
    expect(uri).toBeDefined();
    const secret = secretFromOtpauthUri(uri!);
    // As the page's script posts it (single fetch): the action redirects (202 for a `.data`
    // request) with the new session cookie (activation replaces the session); the backup codes are
    // shown once on the page it leads to (issue 26 §3).
    const enrolled = await post("/parametres.data", { intent: "verify-2fa", code: await unusedTotpCode(secret) }, jar);
    expect(enrolled.status).toBe(202);
    expect(sessionCookieOf(enrolled)).toBeDefined();

    const challenge = async () => {
      const r = await signIn(email, PASSWORD, { from: freshAddress() });
      expect(r.location).toMatch(/etape=2fa/);
      return new CookieJar().store(r);
    };
    const code = await unusedTotpCode(secret);
    const a = await challenge();
    const b = await challenge();
    const first = await post("/auth?mode=connexion&etape=2fa", { intent: "two-factor", method: "totp", code }, a, freshAddress());
    expect(first.status).toBe(302);
    expect(sessionCookieOf(first)).toBeDefined();
    const replay = await post("/auth?mode=connexion&etape=2fa", { intent: "two-factor", method: "totp", code }, b, freshAddress());
    expect(replay.status).toBe(401);
    expect(sessionCookieOf(replay)).toBeUndefined();
    expect(replay.body).toContain("Ce code a déjà été utilisé");
  });

  it("refuses cross-origin POSTs on page actions and on /api/auth, also behind dot segments", async () => {
    const member = takeAccount();
    const anonymousTarget = takeAccount();
    const jar = await signedIn(member);
    const crossSite: Array<[string, Record<string, string>]> = [
      ["text/plain, foreign Origin", { "content-type": "text/plain", origin: EVIL }],
      ["form, foreign Origin", { "content-type": "application/x-www-form-urlencoded", origin: EVIL }],
      ["form, Origin: null", { "content-type": "application/x-www-form-urlencoded", origin: "null" }],
      ["text/plain, Sec-Fetch-Site: cross-site", { "content-type": "text/plain", "sec-fetch-site": "cross-site" }],
      ["form, Sec-Fetch-Site: cross-site", { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" }],
      ["form, Sec-Fetch-Site: same-site", { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-site" }],
    ];
    const signInForm = new URLSearchParams({ intent: "sign-in", email: anonymousTarget, password: PASSWORD }).toString();
    const targets: Array<{ path: string; body: string; cookie?: boolean }> = [
      ...["/auth", "/./auth", "/AUTH", "/api/webhooks/../../auth", "/api/webhooks/%2e%2e/%2e%2e/auth", "/api/webhooks/stripe/../../../auth"].map(
        (path) => ({ path, body: signInForm }),
      ),
      { path: "/logout", body: "", cookie: true },
      { path: "/api/webhooks/../../logout", body: "", cookie: true },
      { path: "/parametres", body: "intent=change-password&currentPassword=x&newPassword=abcdefgh&confirmPassword=abcdefgh", cookie: true },
      { path: "/mandates", body: "intent=create", cookie: true },
      { path: "/api/auth/sign-out", body: "{}", cookie: true },
      { path: "/api/auth/two-factor/enable", body: `{"password":"${PASSWORD}"}`, cookie: true },
      { path: "/api/webhooks/../auth/revoke-sessions", body: "{}", cookie: true },
    ];
    for (const target of targets) {
      for (const [label, headers] of crossSite) {
        const r = await send(base, target.path, {
          method: "POST",
          body: target.body,
          headers: { ...headers, ...(target.cookie ? { cookie: jar.header() } : {}) },
          from: freshAddress(),
        });
        expect({ path: target.path, label, status: r.status, cookies: r.setCookies }).toEqual({
          path: target.path,
          label,
          status: 403,
          cookies: [],
        });
        expect(r.body).toBe("Requête refusée : origine non autorisée.");
      }
    }
    expect(await settingsStatus(jar)).toBe("200");
    // The only exemption: the payment webhook, authenticated by its signature instead.
    const webhook = await send(base, "/api/webhooks/stripe", { method: "POST", body: "{}", headers: { "content-type": "application/json", origin: EVIL } });
    expect(webhook.status).toBe(400);
    // The same sign-in from the app's own origin goes through.
    await signedIn(anonymousTarget);
  });

  it("sets the session and toast cookies HttpOnly, SameSite=Lax, Path=/ (not Secure over http)", async () => {
    const r = await signIn(takeAccount(), PASSWORD, { from: freshAddress() });
    expect(r.status).toBe(302);
    const session = sessionCookieOf(r)!;
    expect(session.name).toBe("rt.session_token");
    for (const line of r.setCookies) {
      const c = parseSetCookie(line);
      expect({ name: c.name, httpOnly: c.attributes.get("httponly"), sameSite: c.attributes.get("samesite"), path: c.attributes.get("path"), secure: c.attributes.has("secure") }).toEqual({
        name: c.name,
        httpOnly: true,
        sameSite: "Lax",
        path: "/",
        secure: false,
      });
    }
    expect(Number(session.attributes.get("max-age"))).toBeGreaterThan(0);

    const toast = await send(base, "/auth", { form: { intent: "two-factor", method: "totp", code: "123456" }, headers: { origin: base } });
    expect(toast.status).toBe(302);
    const flash = toast.setCookies.map(parseSetCookie).find((c) => c.name === "rt_toast");
    expect(flash).toBeDefined();
    expect([flash!.attributes.get("httponly"), flash!.attributes.get("samesite"), flash!.attributes.get("path"), flash!.attributes.has("secure")]).toEqual([
      true,
      "Lax",
      "/",
      false,
    ]);
  });

  it("ends the session on sign-out: the old cookie is worth nothing", async () => {
    const jar = await signedIn(takeAccount());
    const before = jar.clone();
    expect(await settingsStatus(jar)).toBe("200");
    // The sign-out button is a form: browsers send it form-encoded, even without fields.
    const out = await send(base, "/logout", {
      method: "POST",
      headers: { origin: base, cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(out.status).toBe(302);
    jar.store(out);
    expect(jar.get("rt.session_token")).toBeUndefined();
    expect(await settingsStatus(before)).toBe("redirect:/auth");
  });

  it("a password change ends every session, and the browser that made it gets a new one", async () => {
    const email = takeAccount();
    const here = await signedIn(email);
    const elsewhere = await signedIn(email);
    const hereBefore = here.clone();
    const changed = await send(base, "/parametres", {
      form: { intent: "change-password", currentPassword: PASSWORD, newPassword: "nouveau-mot-de-passe-1", confirmPassword: "nouveau-mot-de-passe-1" },
      headers: { origin: base, cookie: here.header() },
    });
    expect(changed.status, changed.body.slice(0, 300)).toBe(302);
    here.store(changed);
    expect(await settingsStatus(elsewhere)).toBe("redirect:/auth");
    expect(await settingsStatus(hereBefore)).toBe("redirect:/auth");
    expect(await settingsStatus(here)).toBe("200");
    expect((await signIn(email, PASSWORD, { from: freshAddress() })).status).toBe(401);
    await signedIn(email, "nouveau-mot-de-passe-1");
  });

  it("a password reset ends every session", async () => {
    const email = takeAccount();
    const jar = await signedIn(email);
    const asked = await send(base, "/auth/mot-de-passe-oublie", { form: { email }, headers: { origin: base }, from: freshAddress() });
    expect(asked.status).toBe(200);
    const text = await mailTo(email, /reset-password\//);
    const link = new URL(/https?:\/\/\S*reset-password\/\S+/.exec(text)![0]);
    const opened = await send(base, link.pathname + link.search);
    expect(opened.status).toBe(302);
    const token = new URL(opened.location!, base).searchParams.get("token");
    expect(token).toBeTruthy();
    const reset = await send(base, "/auth/nouveau-mot-de-passe", {
      form: { token: token!, password: "mot-de-passe-reinitialise", confirmPassword: "mot-de-passe-reinitialise" },
      headers: { origin: base },
    });
    expect(reset.status).toBe(302);
    expect(await settingsStatus(jar)).toBe("redirect:/auth");
    await signedIn(email, "mot-de-passe-reinitialise");
  });

  it("sends forged and tampered session cookies to the sign-in page", async () => {
    const jar = await signedIn(takeAccount());
    const value = decodeURIComponent(jar.get("rt.session_token")!);
    const [token, signature] = [value.slice(0, value.indexOf(".")), value.slice(value.indexOf(".") + 1)];
    const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
    const forged = [
      `${randomBytes(16).toString("hex")}.${randomBytes(32).toString("base64")}`,
      token,
      `${token}.${flip(signature)}`,
      `${flip(token)}.${signature}`,
      `${token}.`,
    ];
    for (const v of forged) {
      expect(await settingsStatus(new CookieJar().set("rt.session_token", encodeURIComponent(v)))).toBe("redirect:/auth");
    }
    expect(await settingsStatus(jar)).toBe("200");
  });
});

describe("https behind a proxy (TRUST_PROXY=true)", () => {
  const proxied = (clientAddress: string, spoofed = randomIp()) => ({
    host: "reseau.example",
    "x-forwarded-proto": "https",
    // What a client sent, then the address the proxy appended.
    "x-forwarded-for": `${spoofed}, ${clientAddress}`,
  });
  let live: CookieJar;
  let expired: CookieJar;

  beforeAll(async () => {
    // Two sessions made over http; one of them then expires in the database.
    live = await signedIn(takeAccount());
    expired = await signedIn(takeAccount());
    await server!.stop();
    server = undefined;
    const token = decodeURIComponent(expired.get("rt.session_token")!).split(".")[0];
    await sqlRows(database, `update session set expires_at = now() - interval '1 minute' where token = '${token}' returning id`);
    server = await startServer(
      {
        ...database.env,
        RATE_LIMIT_SCALE: "1",
        TRUST_PROXY: "true",
        APP_URL: HTTPS_APP,
        // Required with an https APP_URL; nothing is sent in this test.
        SMTP_URL: "smtp://127.0.0.1:9",
        MAIL_FROM: "no-reply@reseau.example",
        STRIPE_SECRET_KEY: "sk_test_system",
        STRIPE_WEBHOOK_SECRET: "whsec_system",
        ...LEGAL_ENV,
        ...sealEnv(),
      },
      { capture: true },
    );
    base = server.baseUrl;
  });

  const httpsSignIn = (email: string, password: string, clientAddress: string, spoofed?: string) =>
    signIn(email, password, { headers: { ...proxied(clientAddress, spoofed), origin: HTTPS_APP } });

  it("an expired session cookie is sent to the sign-in page; a live one still works", async () => {
    const secure = (jar: CookieJar) => new CookieJar().set("__Secure-rt.session_token", jar.get("rt.session_token")!);
    expect(await settingsStatus(secure(live), proxied("203.0.113.1"))).toBe("200");
    expect(await settingsStatus(secure(expired), proxied("203.0.113.1"))).toBe("redirect:/auth");
  });

  it("sets Secure cookies (session with the __Secure- prefix, toast) and HSTS", async () => {
    const r = await httpsSignIn(takeAccount(), PASSWORD, "203.0.113.2");
    expect(r.status, r.body.slice(0, 300)).toBe(302);
    expect(r.headers["strict-transport-security"]).toContain("max-age=");
    const session = sessionCookieOf(r)!;
    expect(session.name).toBe("__Secure-rt.session_token");
    for (const c of r.setCookies.map(parseSetCookie)) {
      expect([c.name, c.attributes.get("httponly"), c.attributes.get("samesite"), c.attributes.get("path"), c.attributes.get("secure")]).toEqual([
        c.name,
        true,
        "Lax",
        "/",
        true,
      ]);
    }
    const toast = await send(base, "/auth", {
      form: { intent: "two-factor", method: "totp", code: "123456" },
      headers: { ...proxied("203.0.113.2"), origin: HTTPS_APP },
    });
    expect(toast.status).toBe(302);
    const flash = toast.setCookies.map(parseSetCookie).find((c) => c.name === "rt_toast");
    expect([flash?.attributes.get("httponly"), flash?.attributes.get("samesite"), flash?.attributes.get("path"), flash?.attributes.get("secure")]).toEqual([
      true,
      "Lax",
      "/",
      true,
    ]);
    // The http origin of the same host is another origin.
    const downgraded = await signIn(takeAccount(), PASSWORD, { headers: { ...proxied("203.0.113.2"), origin: "http://reseau.example" } });
    expect([downgraded.status, downgraded.setCookies]).toEqual([403, []]);
  });

  it("counts the address the proxy appended, not the ones the client wrote before it", async () => {
    for (let i = 0; i < RATE_LIMITS.signInIp.limit; i++) {
      const r = await httpsSignIn(unknownEmail(), "mauvais-mot-de-passe", "203.0.113.9");
      expect(r.status).toBe(401);
    }
    const email = takeAccount();
    const refused = await httpsSignIn(email, PASSWORD, "203.0.113.9");
    expect([refused.status, sessionCookieOf(refused)]).toEqual([429, undefined]);
    // Another client behind the same proxy is another address: the header is honoured.
    const ok = await httpsSignIn(email, PASSWORD, "203.0.113.10");
    expect(ok.status).toBe(302);
    const jar = new CookieJar().store(ok);
    const settings = await send(base, "/parametres/securite", { headers: { cookie: jar.header(), ...proxied("203.0.113.10") } });
    expect(settings.status).toBe(200);
    expect(settings.body).toContain("203.0.113.10");
  });

  it("counts attempts per account whatever the client address", async () => {
    const victim = takeAccount();
    for (let i = 0; i < RATE_LIMITS.signInAccount.limit; i++) {
      const r = await httpsSignIn(victim, `mauvais-${i}`, `203.0.113.${20 + i}`);
      expect(r.status).toBe(401);
    }
    const refused = await httpsSignIn(victim, PASSWORD, "203.0.113.99");
    expect([refused.status, sessionCookieOf(refused)]).toEqual([429, undefined]);
  });
});

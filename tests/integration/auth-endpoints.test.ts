// Issue 12, finding 2: better-auth's HTTP endpoints are served from an allowlist. Every endpoint
// better-auth registers (core and plugins, as `getAuth().api` lists them) is requested through
// the /api/auth route module, signed in and signed out, with each of its methods: only the
// allowlisted links (e-mail confirmation, password reset) reach better-auth; everything else is
// a 404 — among them verify-password (no per-account limit), two-factor/get-totp-uri (the live
// secret), two-factor/disable (no notice, no audit), get-session and list-sessions (raw tokens).
import { beforeAll, describe, expect, it } from "vitest";
import { ALLOWED_AUTH_ENDPOINTS, isAllowedAuthEndpoint } from "~/auth/auth-routes";
import { getAuth } from "~/auth/auth.server";
import { action, loader } from "~/routes/api/auth";
import { createMember, seedFactories } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { signIn, type Browser } from "./mandates-helpers";

const t = useTestDatabase();

type Endpoint = { name: string; path: string; methods: string[] };

function registeredEndpoints(): Endpoint[] {
  const api = getAuth().api as unknown as Record<string, { path?: string; options?: { method?: string | string[] } }>;
  return Object.entries(api)
    .filter(([, e]) => typeof e.path === "string")
    .map(([name, e]) => {
      const m = e.options?.method ?? "GET";
      const methods = (Array.isArray(m) ? m : [m]).flatMap((x) => (x === "*" ? ["GET", "POST"] : [x.toUpperCase()]));
      return { name, path: e.path!, methods };
    });
}

/** A concrete path: each `:param` becomes a dummy value. */
const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, "dummy-value");

let browser: Browser;

beforeAll(async () => {
  seedFactories(12);
  const member = await createMember(t.db!, { profile: { membershipType: "premium" } });
  browser = await signIn(member);
});

async function status(method: string, path: string, cookie: string | null): Promise<number> {
  const headers = new Headers({ origin: "http://localhost:3000", "content-type": "application/json", "x-rt-client-ip": "203.0.113.50" });
  if (cookie) headers.set("cookie", cookie);
  const request = new Request(`http://localhost:3000/api/auth${path}`, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : JSON.stringify({ password: "x", token: "x", code: "123456" }),
  });
  const args = { request, params: { "*": path.slice(1) }, context: { requestId: "test" } } as never;
  const response = method === "GET" || method === "HEAD" ? await loader(args) : await action(args);
  return response.status;
}

describe("better-auth over HTTP: an allowlist", () => {
  it("knows the endpoints of this better-auth version (the enumeration works)", () => {
    const names = registeredEndpoints().map((e) => e.name);
    for (const expected of ["verifyPassword", "getTOTPURI", "disableTwoFactor", "getSession", "listSessions", "verifyEmail", "requestPasswordResetCallback"]) {
      expect(names).toContain(expected);
    }
    expect(registeredEndpoints().length).toBeGreaterThan(30);
  });

  it("answers 404 to every registered endpoint but the allowlisted ones, signed in or not", async () => {
    const cookie = browser.headers.get("cookie");
    const reached: string[] = [];
    for (const endpoint of registeredEndpoints()) {
      for (const method of endpoint.methods) {
        const path = concrete(endpoint.path);
        const allowed = isAllowedAuthEndpoint(method, path);
        for (const session of [cookie, null]) {
          const code = await status(method, path, session);
          if (allowed) {
            expect(code, `${method} ${endpoint.path}`).not.toBe(404);
            reached.push(`${method} ${endpoint.path}`);
          } else {
            expect(code, `${method} ${endpoint.path} (${session ? "avec" : "sans"} session)`).toBe(404);
          }
        }
      }
    }
    // Exactly the allowlist answers.
    expect([...new Set(reached)].sort()).toEqual(["GET /reset-password/:token", "GET /verify-email"]);
  });

  it("a path better-auth does not know, or one outside its base, is a 404 too", async () => {
    expect(await status("GET", "/some-future-endpoint", browser.headers.get("cookie"))).toBe(404);
    expect(await status("POST", "/verify-email", browser.headers.get("cookie"))).toBe(404);
    expect(await status("GET", "/reset-password/a/b", null)).toBe(404);
  });

  it.each([
    ["GET", "/verify-email", true],
    ["HEAD", "/verify-email", true],
    ["GET", "/reset-password/abc123", true],
    ["POST", "/reset-password", false],
    ["GET", "/get-session", false],
    ["POST", "/two-factor/disable", false],
    ["GET", "/verify-email/extra", false],
  ])("isAllowedAuthEndpoint(%s, %s) = %s", (method, path, allowed) => {
    expect(isAllowedAuthEndpoint(method, path)).toBe(allowed);
  });

  it("documents why each allowlisted endpoint is served", () => {
    for (const e of ALLOWED_AUTH_ENDPOINTS) expect(e.why.length).toBeGreaterThan(10);
  });
});

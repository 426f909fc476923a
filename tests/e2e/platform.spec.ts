import { createHash } from "node:crypto";
import { expect } from "@playwright/test";
import { test } from "./typography-scan";
import { E2E_ADMIN, signUpAndVerify, uniqueEmail } from "./fixtures";

test("health and readiness endpoints", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ status: "ready" });
});

test("security headers: a per-request CSP nonce, or the cached page's script hashes", async ({ request, page }) => {
  // A page rendered for each request: its own nonce every time.
  const first = await request.get("/auth");
  const second = await request.get("/auth");
  const csp = first.headers()["content-security-policy"];
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(second.headers()["content-security-policy"]).not.toEqual(csp);
  expect(first.headers()["x-content-type-options"]).toBe("nosniff");
  expect(first.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  // An anonymous page from the page cache (decision 066): the same bytes for everyone, each
  // inline script allowed by its hash, nothing else inline.
  let cached = await request.get("/");
  for (let i = 0; i < 20 && cached.headers()["x-cache"] !== "HIT"; i++) cached = await request.get("/");
  expect(cached.headers()["x-cache"]).toBe("HIT");
  const scriptSrc = /script-src ([^;]*)/.exec(cached.headers()["content-security-policy"] ?? "")?.[1] ?? "";
  expect(scriptSrc).toMatch(/^'self'( 'sha256-[A-Za-z0-9+/=]+')+ 'strict-dynamic'$/);
  const body = await cached.text();
  const scripts = [...body.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  for (const text of scripts) expect(scriptSrc).toContain(`'sha256-${createHash("sha256").update(text).digest("base64")}'`);
  // The page hydrates under that CSP: no violation reported, client navigation works.
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto("/");
  await page.getByRole("link", { name: "Trouver un expert" }).click();
  await expect(page).toHaveURL(/\/annuaire$/);
  expect(violations).toEqual([]);
});

test("a cross-origin POST is refused and a same-origin one is not", async ({ request }) => {
  const evil = await request.post("/auth", {
    headers: { origin: "https://evil.example", "content-type": "text/plain" },
    data: "intent=sign-in&email=a@b.fr&password=x",
  });
  expect(evil.status()).toBe(403);
  const ok = await request.post("/auth", {
    headers: { origin: new URL(test.info().project.use.baseURL!).origin },
    form: { intent: "sign-in", email: E2E_ADMIN.email, password: "wrong-password" },
  });
  expect(ok.status()).toBe(401);
});

test("session cookie is httpOnly and SameSite=Lax", async ({ page, context }) => {
  await signUpAndVerify(page, uniqueEmail("cookie"), "secret-123");
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name.includes("session_token"));
  expect(session).toBeDefined();
  expect(session!.httpOnly).toBe(true);
  expect(session!.sameSite).toBe("Lax");
});

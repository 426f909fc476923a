// Page actions read HTML forms. A same-origin request with any other body (text/plain, JSON,
// nothing) is refused with a 415 and a French message — never a 500 from a form parser.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSystemDatabase, type SystemDatabase } from "./support/database";
import { startServer, type RunningServer } from "./support/server";

let database: SystemDatabase;
let server: RunningServer;

beforeAll(async () => {
  database = await createSystemDatabase();
  server = await startServer(database.env, { capture: true });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const post = (path: string, headers: Record<string, string>, body?: string) =>
  fetch(`${server.baseUrl}${path}`, { method: "POST", headers: { origin: server.baseUrl, ...headers }, body, redirect: "manual" });

it.each([
  ["/auth", { "content-type": "text/plain" }, "email=a@b.fr&password=x"],
  ["/auth?mode=signup", { "content-type": "text/plain;charset=UTF-8" }, "{}"],
  ["/contact", { "content-type": "application/json" }, '{"name":"x"}'],
  ["/mandates", { "content-type": "application/json" }, "{}"],
  ["/dashboard/profil", { "content-type": "text/xml" }, "<a/>"],
  ["/consultant/x", {}, undefined],
  ["/logout", { "content-type": "" }, ""],
  ["/auth.data", { "content-type": "text/plain" }, "x"],
])("POST %s with %o is a 415, not a 500", async (path, headers, body) => {
  const res = await post(path, headers, body);
  expect(res.status).toBe(415);
  expect(await res.text()).toBe("Requête refusée : envoyez le formulaire depuis le site.");
});

it("lets form posts and the JSON API through", async () => {
  const form = await post("/contact", { "content-type": "application/x-www-form-urlencoded" }, "name=");
  expect(form.status).toBe(400);
  const multipart = new FormData();
  multipart.set("name", "");
  const res = await fetch(`${server.baseUrl}/contact`, { method: "POST", headers: { origin: server.baseUrl }, body: multipart });
  expect(res.status).toBe(400);
  const api = await post("/api/auth/sign-out", { "content-type": "application/json" }, "{}");
  expect(api.status).not.toBe(415);
  expect(api.status).toBeLessThan(500);
  expect(server.output()).not.toMatch(/unhandled|"level":50/);
});

// Issue 12, finding 8: unreadable forms and React Router's own errors.
it.each([
  ["/auth", "multipart/form-data; boundary=x", "garbage without any boundary"],
  ["/contact", "multipart/form-data; boundary=abc", "--abc\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated"],
  ["/auth/mot-de-passe-oublie", "multipart/form-data", "--x--"],
  ["/auth?mode=inscription", "multipart/form-data; boundary=zz", "\u0000\u0001\u0002"],
])("POST %s with an unreadable multipart body is a 400 in French, not a 500", async (path, type, body) => {
  const res = await post(path, { "content-type": type }, body);
  expect(res.status).toBe(400);
  const text = await res.text();
  expect(text).toContain("le formulaire envoyé est illisible");
  expect(server.output()).not.toMatch(/unhandled/);
});

it.each(["/annuaire", "/faq", "/annuaire.data", "/concept.data"])("a POST to %s (no action) is a 405 whose message names no internal route", async (path) => {
  const res = await post(path, { "content-type": "application/x-www-form-urlencoded" }, "a=b");
  expect(res.status).toBe(405);
  const text = await res.text();
  // (The page's module manifest names route files on every page; the error message must not.)
  expect(text).not.toMatch(/You made a POST|did not provide an `action`|for route \\?"routes\//);
  expect(text).toContain("Cette requête ne peut pas être traitée par cette page.");
});

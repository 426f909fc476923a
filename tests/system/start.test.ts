// The production build starts on an empty database, migrates it and reports ready.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSystemDatabase, type SystemDatabase } from "./support/database";
import { startServer, type RunningServer } from "./support/server";

let database: SystemDatabase;
let server: RunningServer | undefined;

beforeAll(async () => {
  database = await createSystemDatabase();
  server = await startServer(database.env, { capture: true });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

it("serves /healthz and /readyz on a freshly migrated database", async () => {
  const health = await fetch(`${server!.baseUrl}/healthz`);
  expect(health.status).toBe(200);
  const ready = await fetch(`${server!.baseUrl}/readyz`);
  expect(ready.status).toBe(200);
  const home = await fetch(`${server!.baseUrl}/`);
  expect(home.status).toBe(200);
  expect(await home.text()).toContain("<html");
});

it("serves the build's files, while a page's path goes to the router", async () => {
  const icon = await fetch(`${server!.baseUrl}/favicon.svg`);
  expect(icon.status).toBe(200);
  expect(icon.headers.get("content-type")).toContain("image/svg+xml");
  expect(icon.headers.get("cache-control")).toBe("public, max-age=3600");
  const home = await (await fetch(`${server!.baseUrl}/`)).text();
  const asset = /\/assets\/[\w.-]+\.js/.exec(home)?.[0];
  expect(asset).toBeDefined();
  const script = await fetch(`${server!.baseUrl}${asset}`);
  expect(script.status).toBe(200);
  expect(script.headers.get("cache-control")).toContain("immutable");
  // No file of that name: the router's French 404 page, not a bare "Cannot GET".
  const missing = await fetch(`${server!.baseUrl}/favicon`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toContain("<html");
  const missingFile = await fetch(`${server!.baseUrl}/absent.svg`);
  expect(missingFile.status).toBe(404);
});

it("stops on SIGTERM", async () => {
  server!.signal("SIGTERM");
  expect(await server!.exited(15_000)).toBe(true);
  server = undefined;
});

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

it("stops on SIGTERM", async () => {
  server!.signal("SIGTERM");
  expect(await server!.exited(15_000)).toBe(true);
  server = undefined;
});

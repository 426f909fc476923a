// Issue 12, finding 7: without SMTP, the server listening on every interface (0.0.0.0) must not
// hand the local mailbox (password-reset and sign-in links) to the network. From this machine it
// answers; from another address of the network it is a 404 — whatever headers the client adds.
import os from "node:os";
import { afterAll, beforeAll, expect, it } from "vitest";
import { send } from "./support/client";
import { createSystemDatabase, type SystemDatabase } from "./support/database";
import { startServer, type RunningServer } from "./support/server";

let database: SystemDatabase;
let server: RunningServer | undefined;

/** An IPv4 address of this machine that is not loopback (eth0…), if any. */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

beforeAll(async () => {
  database = await createSystemDatabase();
  server = await startServer({ ...database.env, SMTP_URL: "", TRUST_PROXY: "false" }, { capture: true, host: "0.0.0.0" });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

it("prints that the local mailbox answers this machine only", () => {
  expect(server!.output()).toContain("accessible depuis cette machine uniquement");
});

it("serves the mailbox to this machine", async () => {
  const r = await send(`http://127.0.0.1:${server!.port}`, "/dev/mailbox.json");
  expect(r.status).toBe(200);
  expect(r.headers["content-type"]).toMatch(/json/);
});

it.skipIf(!lanAddress)("answers 404 to a client on the network, forged forwarding headers included", async () => {
  const base = `http://${lanAddress}:${server!.port}`;
  // The listener answers on that address (the site itself is served)…
  expect((await send(base, "/healthz", { from: lanAddress })).status).toBe(200);
  // …but not the mailbox, in any of its forms.
  for (const path of ["/dev/mailbox.json", "/dev/mailbox", "/dev/mailbox/1"]) {
    const forged: Array<Record<string, string>> = [{}, { "x-forwarded-for": "127.0.0.1" }, { "x-rt-client-ip": "127.0.0.1" }, { "x-real-ip": "127.0.0.1" }];
    for (const headers of forged) {
      const r = await send(base, path, { from: lanAddress, headers });
      expect({ path, headers, status: r.status }).toEqual({ path, headers, status: 404 });
      expect(r.body).not.toMatch(/reset-password|verify-email/);
    }
  }
});

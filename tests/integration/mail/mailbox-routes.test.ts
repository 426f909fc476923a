import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getEnv, parseEnv, setEnv } from "~/lib/env.server";
import { enqueueMail } from "~/lib/mail/outbox.server";
import { loader as jsonLoader } from "~/routes/dev/mailbox-json";
import { loader as listLoader } from "~/routes/dev/mailbox";
import { loader as messageLoader } from "~/routes/dev/mailbox-message";
import { useTestDatabase } from "../../support/db";

useTestDatabase();

const localEnv = parseEnv({ ...process.env, SMTP_URL: "" });
const smtpEnv = parseEnv({ ...process.env, SMTP_URL: "smtp://127.0.0.1:2525", MAIL_FROM: "no-reply@exemple.fr" });
const original = getEnv();

type JsonArgs = Parameters<typeof jsonLoader>[0];
type ListArgs = Parameters<typeof listLoader>[0];
type MessageArgs = Parameters<typeof messageLoader>[0];

// As server.ts sets it: the client's address (the machine itself unless told otherwise).
const args = <A>(path: string, params: Record<string, string> = {}, clientIp = "127.0.0.1") =>
  ({ request: new Request(`http://localhost${path}`, { headers: { "x-rt-client-ip": clientIp } }), params, context: {} }) as unknown as A;

async function status404(promise: Promise<unknown>) {
  const thrown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(thrown).toBeInstanceOf(Response);
  expect((thrown as Response).status).toBe(404);
}

let firstId = 0;
beforeAll(async () => {
  setEnv(localEnv);
  firstId = (await enqueueMail({ to: "Anne@exemple.fr", subject: "Premier", html: "<p>1</p>", text: "1", kind: "test" }))!;
  await new Promise((r) => setTimeout(r, 5));
  await enqueueMail({ to: "bruno@exemple.fr", subject: "Second", html: "<p>2</p>", text: "2", kind: "test" });
});
afterEach(() => setEnv(localEnv));

describe("local mailbox routes", () => {
  it("answer 404 to any client that is not this machine (issue 12, finding 7)", async () => {
    for (const ip of ["192.168.1.20", "10.0.0.7", "::ffff:203.0.113.5", "unknown"]) {
      await status404(jsonLoader(args<JsonArgs>("/dev/mailbox.json", {}, ip)));
      await status404(listLoader(args<ListArgs>("/dev/mailbox", {}, ip)));
      await status404(messageLoader(args<MessageArgs>(`/dev/mailbox/${firstId}`, { id: String(firstId) }, ip)));
    }
    for (const ip of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      expect(await jsonLoader(args<JsonArgs>("/dev/mailbox.json", {}, ip))).toBeDefined();
    }
  });

  it("mailbox.json lists messages newest first, filtered by recipient", async () => {
    const all = (await (await jsonLoader(args<JsonArgs>("/dev/mailbox.json"))).json()) as { subject: string }[];
    expect(all.map((m) => m.subject)).toEqual(["Second", "Premier"]);
    const res = await jsonLoader(args<JsonArgs>("/dev/mailbox.json?to=anne@exemple.fr"));
    expect(res.headers.get("cache-control")).toBe("no-store");
    const anne = (await res.json()) as Record<string, unknown>[];
    expect(anne).toHaveLength(1);
    expect(Object.keys(anne[0]).sort()).toEqual(["createdAt", "html", "id", "kind", "subject", "text", "to"]);
    expect(anne[0]).toMatchObject({ id: firstId, to: "Anne@exemple.fr", text: "1", html: "<p>1</p>" });
  });

  it("mailbox list and message pages", async () => {
    const list = await listLoader(args<ListArgs>("/dev/mailbox"));
    expect(list.messages.map((m) => m.subject)).toEqual(["Second", "Premier"]);
    expect(list.messages[0]).not.toHaveProperty("html");
    const one = await messageLoader(args<MessageArgs>(`/dev/mailbox/${firstId}`, { id: String(firstId) }));
    expect(one.message).toMatchObject({ subject: "Premier", html: "<p>1</p>", text: "1" });
    await status404(messageLoader(args<MessageArgs>("/dev/mailbox/999999", { id: "999999" })));
    await status404(messageLoader(args<MessageArgs>("/dev/mailbox/abc", { id: "abc" })));
  });

  it("are 404 when an SMTP server is configured", async () => {
    setEnv(smtpEnv);
    await status404(jsonLoader(args<JsonArgs>("/dev/mailbox.json")));
    await status404(listLoader(args<ListArgs>("/dev/mailbox")));
    await status404(messageLoader(args<MessageArgs>(`/dev/mailbox/${firstId}`, { id: String(firstId) })));
    setEnv(original);
  });
});

// Canary over the real server's logs: the production build at LOG_LEVEL=trace, every line it
// writes captured, while three members go through a confidential connection over HTTP, with
// failed actions (bad input, a storage failure, someone else's mandate, a cross-origin POST, a
// body the action cannot read) carrying the client's name and address. No line may contain them;
// and the members who are not the owner never see them before the confirmation and the
// undertaking (tests/integration/canary.test.ts checks every loader and e-mail in depth).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CookieJar, send, sqlRows, type Answer } from "./support/client";
import { createSystemDatabase, runScript, type SystemDatabase } from "./support/database";
import { startServer, type RunningServer } from "./support/server";

const NAME = `CANARY-NAME-${randomBytes(6).toString("hex")}`;
const ADDRESS = `CANARY-ADDR-${randomBytes(6).toString("hex")}`;
const FAIL = "CANARY-FAIL";
const PASSWORD = "demo-transmission-2026";
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

let database: SystemDatabase;
let server: RunningServer | undefined;
let base = "";
let output = "";
const logins: Record<"owner" | "partner" | "stranger", string> = { owner: "", partner: "", stranger: "" };

beforeAll(async () => {
  database = await createSystemDatabase();
  const seeded = runScript(database, ["scripts/seed.ts", "--members", "6", "--seed", "23", "--mandates", "0"]);
  const login = (label: string) => new RegExp(`${label}\\s+(\\S+@\\S+)`).exec(seeded)?.[1] ?? "";
  logins.owner = login("Membre premium");
  logins.partner = login("Membre fondateur");
  logins.stranger = login("Membre freemium");
  // A storage that refuses some rows (what a constraint, a lock timeout or an outage does).
  await sqlRows(
    database,
    `create function canary_refuse() returns trigger language plpgsql as $$
       begin
         if new.client_name like '%${FAIL}%' then raise exception 'simulated storage failure'; end if;
         return new;
       end $$`,
    `create trigger canary_refuse before insert or update on mandates for each row execute function canary_refuse()`,
  );
  server = await startServer({ ...database.env, MAIL_DISPATCH_INTERVAL_MS: "200" }, { capture: true, logLevel: "trace" });
  base = server.baseUrl;
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

type Member = { jar: CookieJar; seen: string[] };

async function signIn(email: string): Promise<Member> {
  expect(email).toMatch(/@/);
  const r = await send(base, "/auth", { form: { intent: "sign-in", email, password: PASSWORD }, headers: { origin: base } });
  expect(r.status, r.body.slice(0, 200)).toBe(302);
  return { jar: new CookieJar().store(r), seen: [] };
}

async function get(m: Member, path: string): Promise<Answer> {
  const r = await send(base, path, { headers: { cookie: m.jar.header() } });
  m.jar.store(r);
  m.seen.push(r.body, ...r.setCookies);
  return r;
}

async function post(m: Member, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
  const r = await send(base, "/mandates", { form: fields, headers: { origin: base, cookie: m.jar.header(), ...headers } });
  m.jar.store(r);
  m.seen.push(r.body, ...r.setCookies);
  return r;
}

const today = new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const mandateForm = (overrides: Record<string, string> = {}) => ({
  intent: "create",
  mandateType: "seller",
  isExclusive: "on",
  startDate: today,
  endDate: inDays(90),
  clientCode: "CAN-S",
  clientName: NAME,
  clientAddress: ADDRESS,
  companySector: "C",
  companyTerritory: "75",
  valuationAmount: "600 000",
  ...overrides,
});
const buyerForm = (code: string) => ({
  intent: "create",
  mandateType: "buyer",
  isExclusive: "on",
  startDate: today,
  endDate: inDays(90),
  clientCode: code,
  clientName: `Acquéreur ${code}`,
  clientAddress: "1 rue du Test, 75001 Paris",
  searchSectors: "C",
  searchTerritories: "75",
  targetAmountMin: "100 000",
  targetAmountMax: "900 000",
});

async function ownMandateId(m: Member): Promise<string> {
  const page = await get(m, "/mandates");
  const id = new RegExp(`matching=(${UUID})`).exec(page.body)?.[1];
  expect(id).toBeDefined();
  return id!;
}

async function pendingRequestId(m: Member, mandateId: string, intent: "accept" | "sign-undertaking"): Promise<string> {
  const page = await get(m, `/mandates?matching=${mandateId}`);
  const id = new RegExp(`name="intent" value="${intent}"/><input type="hidden" name="requestId" value="(${UUID})"`).exec(page.body)?.[1];
  expect(id, `${intent} form on /mandates?matching=${mandateId}`).toBeDefined();
  return id!;
}

it("a confidential connection with failed actions logs no part of the client's identity", async () => {
  const owner = await signIn(logins.owner);
  const partner = await signIn(logins.partner);
  const stranger = await signIn(logins.stranger);
  // Every e-mail at once (the mandate alerts default to the digest): each one's path is probed.
  for (const m of [owner, partner, stranger]) {
    const everyKind = { messages: "immediate", match_requests: "immediate", match_alerts: "immediate", files: "immediate", mediation: "immediate", account: "immediate" };
    const saved = await send(base, "/parametres/notifications", { form: { intent: "notifications", ...everyKind }, headers: { origin: base, cookie: m.jar.header() } });
    expect(saved.status).toBe(302);
  }

  // The owner's mandate, then failed attempts carrying the identity.
  expect((await post(owner, mandateForm())).status).toBe(302);
  const secret = await ownMandateId(owner);
  const failures: Array<[string, Member, Record<string, string>, Record<string, string>, number]> = [
    ["invalid dates", owner, mandateForm({ endDate: "2000-01-01" }), {}, 400],
    ["no exclusivity", owner, mandateForm({ isExclusive: "" }), {}, 400],
    ["negative amount", owner, mandateForm({ valuationAmount: "-1" }), {}, 400],
    ["identity too long", owner, mandateForm({ clientName: `${NAME} ${"x".repeat(300)}` }), {}, 400],
    ["storage failure on create", owner, mandateForm({ clientName: `${NAME} ${FAIL}` }), {}, 500],
    ["storage failure on update", owner, mandateForm({ intent: "update", mandateId: secret, clientName: `${NAME} ${FAIL}` }), {}, 500],
    ["another member's mandate", stranger, mandateForm({ intent: "update", mandateId: secret }), {}, 404],
    ["cross-origin", owner, mandateForm(), { origin: "https://evil.example" }, 403],
    // Whatever its status (the bad-input suite's business), it is refused and logged.
    ["unreadable body", owner, mandateForm(), { "content-type": "text/plain" }, 0],
  ];
  for (const [label, m, fields, headers, status] of failures) {
    const r = await post(m, fields, headers);
    if (status === 0) expect(r.status, label).toBeGreaterThanOrEqual(400);
    else expect({ label, status: r.status }).toEqual({ label, status });
  }

  // Partner asks, owner accepts and proposes back, partner accepts and signs the undertaking.
  expect((await post(partner, buyerForm("CAN-B1"))).status).toBe(302);
  const partnerMandate = await ownMandateId(partner);
  expect((await post(stranger, buyerForm("CAN-B2"))).status).toBe(302);
  const strangerMandate = await ownMandateId(stranger);
  expect((await post(partner, { intent: "request", mandateId: partnerMandate, targetMandateId: secret, message: "Bonjour" })).status).toBe(302);
  await post(owner, { intent: "accept", requestId: await pendingRequestId(owner, secret, "accept") });
  await post(owner, { intent: "propose", mandateId: secret, targetMandateId: partnerMandate });
  await post(partner, { intent: "accept", requestId: await pendingRequestId(partner, partnerMandate, "accept") });
  // Confirmed: the stranger asks now, and stays pending.
  expect((await post(stranger, { intent: "request", mandateId: strangerMandate, targetMandateId: secret, message: "Bonjour" })).status).toBe(302);
  const browse = async (m: Member, own: string) => {
    for (const path of ["/mandates", "/mandates?onglet=opportunites", `/mandates?matching=${own}`, `/mandates?details=${secret}`, `/mandates?matching=${secret}`, "/dashboard", "/dashboard/mandats", "/dashboard/stats"]) {
      await get(m, path);
    }
  };
  await browse(partner, partnerMandate);
  expect(partner.seen.join("")).not.toContain(NAME);
  await post(partner, { intent: "sign-undertaking", requestId: await pendingRequestId(partner, partnerMandate, "sign-undertaking"), accept: "on" });
  const revealed = await get(partner, `/mandates?matching=${partnerMandate}`);
  expect(revealed.body).toContain(NAME);
  expect(revealed.body).toContain(ADDRESS);
  await browse(stranger, strangerMandate);
  await browse(owner, secret);
  expect(stranger.seen.join("")).not.toContain(NAME);
  expect(stranger.seen.join("")).not.toContain(ADDRESS);
  expect(owner.seen.join("")).toContain(NAME);

  // Every queued e-mail has gone through the dispatcher (one debug line each).
  const mails = JSON.parse((await send(base, "/dev/mailbox.json")).body) as unknown[];
  expect(mails.length).toBeGreaterThan(0);
  const deadline = Date.now() + 15_000;
  while ((server!.output().match(/mail kept in the local mailbox/g) ?? []).length < mails.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await server!.stop();
  output = server!.output();
  server = undefined;

  // The probe: request-level and debug lines were written, failures included.
  expect(output).toContain("mandate save failed");
  expect(output).toContain("simulated storage failure");
  expect(output).toContain("cross-origin request refused");
  expect(output).toContain("mail kept in the local mailbox");
  expect(output.split("\n").length).toBeGreaterThan(20);
  // No line carries the identity.
  const leaks = output.split("\n").filter((line) => line.includes(NAME) || line.includes(ADDRESS));
  expect(leaks).toEqual([]);
});

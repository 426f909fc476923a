// Two instances of the production build on one PostgreSQL database, on two ports, as behind a
// load balancer (same BETTER_AUTH_SECRET): a session opened on one is valid on the other and
// ended for both, sign-in failures spread over both hit one limit, and mail queued while both
// dispatchers run is delivered once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/auth/auth.schema";
import { createSystemDatabase, postgresUrl, runScript, type SystemDatabase } from "./support/database";
import { duplicates, enqueueMessages, openOutboxDb, outboxRows, serverOfWorker, waitFor, type OutboxDb } from "./support/outbox";
import { formatCount, recordReliability } from "./support/report";
import { startServer, type RunningServer } from "./support/server";
import { createSmtpSink, type SmtpSink } from "./support/smtp-sink";

const EMAIL = "admin.deux-instances@reseau.test";
const PASSWORD = "mot-de-passe-deux-instances";

const CHECKS = {
  session: "2 instances : session ouverte sur A",
  limit: "2 instances : limite de connexions partagée",
  mail: "2 instances : pas d'e-mail en double",
};
if (!postgresUrl) {
  for (const check of Object.values(CHECKS)) {
    recordReliability({ check, measured: "non mesuré : TEST_DATABASE_URL absent (il faut PostgreSQL : PGlite n'admet qu'un processus)", status: "SKIP" });
  }
}

describe.skipIf(!postgresUrl)("two instances on one PostgreSQL (PostgreSQL only: set TEST_DATABASE_URL)", () => {
  let database: SystemDatabase;
  let sink: SmtpSink;
  let a: RunningServer;
  let b: RunningServer;
  let handle: OutboxDb;

  beforeAll(async () => {
    sink = await createSmtpSink({ delayMs: 20 });
    await sink.start();
    database = await createSystemDatabase("pg");
    runScript(database, ["scripts/create-admin.ts", "--email", EMAIL, "--password", PASSWORD]);
    const env = { ...database.env, SMTP_URL: sink.url, MAIL_FROM: "Réseau Transmission <no-reply@reseau.test>", MAIL_DISPATCH_INTERVAL_MS: "200" };
    [a, b] = await Promise.all([startServer(env, { capture: true }), startServer(env, { capture: true })]);
    handle = await openOutboxDb(database);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await handle?.close();
    await sink?.stop();
    await database?.drop();
  });

  const signIn = (server: RunningServer, email: string, password: string) =>
    fetch(`${server.baseUrl}/auth`, { method: "POST", body: new URLSearchParams({ intent: "sign-in", email, password }), redirect: "manual" });

  // The session as a page sees it (better-auth's get-session endpoint is not served over HTTP):
  // the settings page answers 200 with the account's e-mail, or sends to /auth.
  const sessionOn = async (server: RunningServer, cookie: string) => {
    const res = await fetch(`${server.baseUrl}/parametres`, { headers: { cookie }, redirect: "manual" });
    if (res.status === 302) return null;
    expect(res.status).toBe(200);
    const html = await res.text();
    return { user: { email: html.includes(EMAIL) ? EMAIL : "" } };
  };

  it("accepts on B a session opened on A, and ends it on A when it is closed on B", async () => {
    const res = await signIn(a, EMAIL, PASSWORD);
    expect(res.status).toBe(302);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .filter((c) => c.startsWith("rt.session_token="))
      .join("; ");
    expect(cookie).not.toBe("");

    expect((await sessionOn(b, cookie))?.user?.email).toBe(EMAIL);
    const settings = await fetch(`${b.baseUrl}/parametres`, { headers: { cookie }, redirect: "manual" });
    expect(settings.status).toBe(200);
    expect(await settings.text()).toContain(EMAIL);

    // The sign-out button is a form: browsers send it form-encoded, even without fields.
    const logout = await fetch(`${b.baseUrl}/logout`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "",
      redirect: "manual",
    });
    expect(logout.status).toBe(302);
    expect(await sessionOn(a, cookie)).toBeNull();
    const again = await fetch(`${a.baseUrl}/parametres`, { headers: { cookie }, redirect: "manual" });
    expect(again.status).toBe(302);

    recordReliability({
      check: CHECKS.session,
      measured: "valide sur B ; fermée sur B, refusée sur A",
      ok: true,
    });
  });

  it("counts sign-in failures on A and B against one limit", async () => {
    // 8 failed attempts per account and 15 minutes (RATE_LIMITS.signInAccount), alternating A and B.
    const target = "cible.deux-instances@reseau.test";
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await signIn(i % 2 === 0 ? a : b, target, `mauvais-${i}`);
      statuses.push(res.status);
      if (res.status === 429) expect(await res.text()).toContain(MESSAGES.tooManyAttempts);
    }
    recordReliability({
      check: CHECKS.limit,
      measured: `${formatCount(statuses.filter((s) => s === 401).length)} échecs acceptés puis ${formatCount(statuses.filter((s) => s === 429).length)} refus 429, en alternant A et B (limite : 8)`,
      ok: statuses.slice(0, 8).every((s) => s === 401) && statuses.slice(8).every((s) => s === 429),
      data: { statuses },
    });
    // Each instance alone has seen only 4 or 5: the 9th and 10th are refused on A and on B.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429, 429]);
    // Even the right password of an existing account is refused past its limit, on both (its
    // successful sign-in above counted too: 1 + 7 = 8 attempts allowed).
    for (let i = 0; i < 7; i++) expect((await signIn(i % 2 === 0 ? a : b, EMAIL, `mauvais-${i}`)).status).toBe(401);
    expect((await signIn(a, EMAIL, PASSWORD)).status).toBe(429);
    expect((await signIn(b, EMAIL, PASSWORD)).status).toBe(429);
  });

  it("delivers once each message queued while both dispatchers run", async () => {
    const COUNT = 30;
    // The first reply waits until the other instance is in DATA too: both send at the same time.
    sink.gate = 2;
    const ids = await enqueueMessages(handle, COUNT, "Deux instances");
    const rows = await waitFor(
      () => outboxRows(handle, ids),
      (r) => r.every((row) => row.status === "sent"),
      30_000,
      (r) => `${r.filter((row) => row.status === "sent").length}/${COUNT} envoyés`,
    );
    const counts = sink.counts();
    const dupes = duplicates(counts);
    const byA = rows.filter((r) => serverOfWorker(r.lockedBy, [a, b]) === a).length;
    const byB = rows.filter((r) => serverOfWorker(r.lockedBy, [a, b]) === b).length;
    recordReliability({
      check: CHECKS.mail,
      measured: `${formatCount(counts.size)}/${formatCount(COUNT)} messages remis, ${formatCount(dupes.length)} en double (A : ${formatCount(byA)}, B : ${formatCount(byB)})`,
      ok: counts.size === COUNT && dupes.length === 0,
      data: { queued: COUNT, delivered: counts.size, accepted: sink.accepted.length, duplicates: dupes, byA, byB, maxConcurrentData: sink.maxConcurrentData },
    });
    expect(dupes).toEqual([]);
    expect([...counts.keys()].sort((x, y) => x - y)).toEqual(ids);
    expect(sink.accepted.filter((m) => m.outboxId !== null && ids.includes(m.outboxId))).toHaveLength(COUNT);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    // Both instances took part, at the same moment.
    expect(sink.maxConcurrentData).toBeGreaterThanOrEqual(2);
    expect(byA + byB).toBe(COUNT);
    expect(byA).toBeGreaterThan(0);
    expect(byB).toBeGreaterThan(0);
  });
});

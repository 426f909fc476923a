// Mail reliability with the production build and a real SMTP server:
// 1. SMTP down, then up: every message queued meanwhile is delivered, once.
// 2. Two instances on one PostgreSQL, one SIGKILLed while the SMTP server holds its message in
//    DATA: nothing is lost, nothing is delivered twice (the cut transaction is resent once).
import { afterAll, describe, expect, it } from "vitest";
import { createSystemDatabase, postgresUrl, type SystemDatabase } from "./support/database";
import { duplicates, enqueueMessages, openOutboxDb, outboxRows, serverOfWorker, waitFor, type OutboxDb } from "./support/outbox";
import { formatCount, recordReliability } from "./support/report";
import { startServer, type RunningServer } from "./support/server";
import { createSmtpSink, type SmtpSink } from "./support/smtp-sink";

const MAIL_FROM = "Réseau Transmission <no-reply@reseau.test>";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** Warnings "mail delivery failed, will retry" in a server's JSON log: the outbox ids concerned. */
function failedDeliveries(output: string): Set<number> {
  const ids = new Set<number>();
  for (const line of output.split("\n")) {
    if (!line.includes("mail delivery failed")) continue;
    try {
      const entry = JSON.parse(line) as { mailId?: number };
      if (typeof entry.mailId === "number") ids.add(entry.mailId);
    } catch {
      // Not a log line.
    }
  }
  return ids;
}

describe("SMTP down, then up", () => {
  const COUNT = 8;

  it(`delivers each of ${COUNT} contact messages once when the SMTP server comes back`, async () => {
    const sink: SmtpSink = await createSmtpSink();
    const database: SystemDatabase = await createSystemDatabase();
    cleanups.push(() => database.drop(), () => sink.stop());
    const server: RunningServer = await startServer(
      {
        ...database.env,
        SMTP_URL: sink.url,
        MAIL_FROM,
        CONTACT_EMAIL: "equipe@reseau.test",
        MAIL_DISPATCH_INTERVAL_MS: "200",
        // The contact form allows 5 messages an hour per address.
        RATE_LIMIT_SCALE: "2",
      },
      { capture: true, logLevel: "warn" },
    );
    cleanups.push(() => server.stop());

    // SMTP is down (nothing listens on its port): the product still accepts the messages.
    for (let i = 1; i <= COUNT; i++) {
      const res = await fetch(`${server.baseUrl}/contact`, {
        method: "POST",
        body: new URLSearchParams({
          firstName: "Claire",
          lastName: `Martin ${i}`,
          email: `claire.martin${i}@exemple.fr`,
          subject: `Fiabilité n°${i}`,
          message: "Message envoyé pendant une panne du serveur SMTP.",
        }),
      });
      expect(res.status, `POST /contact n°${i}`).toBe(200);
    }
    // Every message was tried and failed (connection refused): it stays queued with a backoff.
    const failed = await waitFor(
      () => failedDeliveries(server.output()),
      (ids) => ids.size >= COUNT,
      20_000,
      (ids) => `${ids.size}/${COUNT} échecs d'envoi journalisés\n${server.output().slice(-2000)}`,
    );
    expect(sink.accepted).toHaveLength(0);

    // SMTP is back on the same address: the next retry (10 s after the failure) delivers them.
    await sink.start();
    await waitFor(
      () => sink.counts().size,
      (n) => n >= COUNT,
      45_000,
      (n) => `${n}/${COUNT} messages reçus`,
    );
    // A clean stop: whatever the dispatcher was doing is finished and recorded.
    await server.stop();

    const handle: OutboxDb = await openOutboxDb(database);
    const rows = await outboxRows(handle).finally(() => handle.close());
    const counts = sink.counts();
    const dupes = duplicates(counts);
    recordReliability({
      check: "SMTP coupé puis rétabli",
      measured: `${formatCount(counts.size)}/${formatCount(COUNT)} messages remis, ${formatCount(dupes.length)} en double (${database.driver === "pg" ? "PostgreSQL" : "PGlite"})`,
      ok: counts.size === COUNT && dupes.length === 0 && sink.accepted.length === COUNT,
      data: { queued: COUNT, failedFirst: failed.size, delivered: counts.size, accepted: sink.accepted.length, duplicates: dupes },
    });

    expect(rows).toHaveLength(COUNT);
    expect([...failed].sort((a, b) => a - b)).toEqual(rows.map((r) => r.id));
    // Sent, after one failed attempt; so never sent again.
    for (const row of rows) expect(row, `outbox ${row.id}`).toMatchObject({ status: "sent", attempts: 2 });
    expect(dupes).toEqual([]);
    expect(sink.accepted).toHaveLength(COUNT);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual(rows.map((r) => r.id));
    expect(sink.accepted.every((m) => m.rcptTo.join() === "equipe@reseau.test")).toBe(true);
    expect(sink.accepted.map((m) => m.subject).sort()).toEqual(
      Array.from({ length: COUNT }, (_, i) => `[Contact] Fiabilité n°${i + 1}`).sort(),
    );
  });
});

const KILL_CHECK = "Instance tuée pendant un envoi SMTP (2 instances)";
if (!postgresUrl) recordReliability({ check: KILL_CHECK, measured: "non mesuré : TEST_DATABASE_URL absent (il faut PostgreSQL : PGlite n'admet qu'un processus)", status: "SKIP" });

describe.skipIf(!postgresUrl)("a dispatcher killed mid-send, two instances running (PostgreSQL only: set TEST_DATABASE_URL)", () => {
  const COUNT = 20;
  const CLAIM_TIMEOUT_MS = 8_000;

  it(`loses none of ${COUNT} messages and delivers none twice`, async () => {
    const sink = await createSmtpSink({ delayMs: 30 });
    await sink.start();
    // The first message to reach DATA gets no final reply: its sender is in the middle of sending.
    sink.holdNext = true;
    const database = await createSystemDatabase("pg");
    cleanups.push(() => database.drop(), () => sink.stop());
    const env = {
      ...database.env,
      SMTP_URL: sink.url,
      MAIL_FROM,
      MAIL_DISPATCH_INTERVAL_MS: "200",
      // A dead dispatcher's claims are taken over after this (5 min by default).
      MAIL_CLAIM_TIMEOUT_MS: String(CLAIM_TIMEOUT_MS),
    };
    const servers = await Promise.all([startServer(env, { capture: true }), startServer(env, { capture: true })]);
    for (const s of servers) cleanups.push(() => s.stop());
    const handle = await openOutboxDb(database);
    cleanups.push(() => handle.close());

    const ids = await enqueueMessages(handle, COUNT, "Envoi interrompu");
    const [held] = await waitFor(
      () => sink.held,
      (h) => h.length === 1,
      20_000,
      () => "aucun message en cours d'envoi",
    );
    expect(held.outboxId).not.toBeNull();
    const [heldRow] = await outboxRows(handle, [held.outboxId!]);
    expect(heldRow.status).toBe("sending");
    const victim = serverOfWorker(heldRow.lockedBy, servers);
    expect(victim, `serveur de ${heldRow.lockedBy}`).toBeDefined();
    const survivor = servers.find((s) => s !== victim)!;

    // Killed in the middle of the SMTP transaction: no shutdown code runs.
    victim!.signal("SIGKILL");
    expect(await victim!.exited(10_000)).toBe(true);
    await waitFor(
      () => sink.cut.length,
      (n) => n >= 1,
      10_000,
      () => "la connexion SMTP du serveur tué n'a pas été coupée",
    );

    // The survivor takes the dead instance's claims over after the claim timeout and sends them.
    const rows = await waitFor(
      () => outboxRows(handle, ids),
      (r) => r.every((row) => row.status === "sent"),
      CLAIM_TIMEOUT_MS + 30_000,
      (r) => `${r.filter((row) => row.status === "sent").length}/${COUNT} envoyés`,
    );
    const counts = sink.counts();
    const dupes = duplicates(counts);
    const takenOver = rows.filter((r) => r.attempts > 1).map((r) => r.id);
    recordReliability({
      check: KILL_CHECK,
      measured: `${formatCount(counts.size)}/${formatCount(COUNT)} messages remis, ${formatCount(dupes.length)} en double ; ${formatCount(takenOver.length)} repris après le délai de réservation, dont 1 coupé en DATA`,
      ok: counts.size === COUNT && dupes.length === 0 && sink.accepted.length === COUNT,
      data: { queued: COUNT, delivered: counts.size, accepted: sink.accepted.length, duplicates: dupes, cutInData: sink.cut.length, takenOver: takenOver.length, claimTimeoutMs: CLAIM_TIMEOUT_MS },
    });

    expect(dupes).toEqual([]);
    expect(sink.accepted).toHaveLength(COUNT);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual(ids);
    // The cut message was delivered afterwards, once, by the survivor, on its second attempt.
    expect(sink.cut.map((m) => m.outboxId)).toEqual([held.outboxId]);
    expect(counts.get(held.outboxId!)).toBe(1);
    const heldAfter = rows.find((r) => r.id === held.outboxId)!;
    expect(heldAfter.attempts).toBe(2);
    expect(serverOfWorker(heldAfter.lockedBy, servers)).toBe(survivor);
    // Every row the dead instance had claimed was sent by the survivor.
    for (const row of rows.filter((r) => r.attempts > 1)) expect(serverOfWorker(row.lockedBy, servers)).toBe(survivor);
  });
});

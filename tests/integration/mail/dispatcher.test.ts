import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mailOutbox } from "~/db/schema";
import {
  createMailDispatcher,
  createSmtpTransport,
  LocalMailboxTransport,
  mailFrom,
  outboxIdOf,
  outboxMessageId,
  retryDelayMs,
  type MailTransport,
  type OutgoingMail,
} from "~/lib/mail/dispatcher.server";
import { enqueueMail } from "~/lib/mail/outbox.server";
import { useTestDatabase } from "../../support/db";
import { startSmtpPeer, type SmtpPeer } from "./smtp-peer";

const t = useTestDatabase();
let peer: SmtpPeer;

beforeAll(async () => {
  peer = await startSmtpPeer();
});
afterAll(async () => {
  await peer.close();
});
beforeEach(async () => {
  await t.db!.delete(mailOutbox);
  peer.received.length = 0;
  peer.rejected.length = 0;
  peer.rejectWith = null;
  peer.holdData = false;
});

const mail = (n: number, extra: Partial<Parameters<typeof enqueueMail>[0]> = {}) => ({
  to: `membre${n}@exemple.fr`,
  subject: `Message ${n}`,
  html: `<p>Bonjour ${n}</p>`,
  text: `Bonjour ${n}`,
  kind: "test",
  ...extra,
});

async function row(id: number) {
  const [r] = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return r;
}

async function makeDue(id: number) {
  await t.db!.update(mailOutbox).set({ nextAttemptAt: sql`now()` }).where(eq(mailOutbox.id, id));
}

async function isInFuture(id: number) {
  const [r] = await t.db!
    .select({ future: sql<boolean>`${mailOutbox.nextAttemptAt} > now()` })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  return r.future;
}

describe("enqueueMail", () => {
  it("inserts a pending row that is due now", async () => {
    const id = await enqueueMail(mail(1, { replyTo: "contact@exemple.fr" }));
    expect(id).toBeTypeOf("number");
    const r = await row(id!);
    expect(r).toMatchObject({
      toAddress: "membre1@exemple.fr",
      replyTo: "contact@exemple.fr",
      subject: "Message 1",
      kind: "test",
      status: "pending",
      attempts: 0,
      lockedBy: null,
      sentAt: null,
    });
    expect(await isInFuture(id!)).toBe(false);
  });

  it("enqueues a dedupeKey only once", async () => {
    const first = await enqueueMail(mail(1, { dedupeKey: "welcome:42" }));
    const second = await enqueueMail(mail(2, { dedupeKey: "welcome:42" }));
    expect(first).toBeTypeOf("number");
    expect(second).toBeNull();
    const rows = await t.db!.select().from(mailOutbox);
    expect(rows).toHaveLength(1);
    expect(rows[0].subject).toBe("Message 1");
    // Rows without a key never collide.
    expect(await enqueueMail(mail(3))).not.toBeNull();
    expect(await enqueueMail(mail(3))).not.toBeNull();
  });

  it("joins the caller's transaction: a rollback enqueues nothing", async () => {
    await expect(
      t.db!.transaction(async (tx) => {
        await enqueueMail(mail(1), tx);
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(0);
    await t.db!.transaction(async (tx) => {
      await enqueueMail(mail(2), tx);
    });
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(1);
  });

  it("rejects invalid addresses and keeps subjects on one line", async () => {
    await expect(enqueueMail(mail(1, { to: "pas-une-adresse" }))).rejects.toThrow();
    const id = await enqueueMail(mail(1, { subject: "Bonjour\r\nBcc: intrus@exemple.fr" }));
    expect((await row(id!)).subject).toBe("Bonjour Bcc: intrus@exemple.fr");
  });
});

describe("dispatcher with a real SMTP server", () => {
  it("delivers each message exactly once with two dispatchers running concurrently", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push((await enqueueMail(mail(i)))!);
    const a = createMailDispatcher({ transport: createSmtpTransport(peer.url), workerId: "a", batchSize: 3 });
    const b = createMailDispatcher({ transport: createSmtpTransport(peer.url), workerId: "b", batchSize: 3 });
    let processed = 0;
    for (let round = 0; round < 20; round++) {
      const [na, nb] = await Promise.all([a.runOnce(), b.runOnce()]);
      processed += na + nb;
      if (na === 0 && nb === 0) break;
    }
    expect(processed).toBe(20);
    expect(peer.received).toHaveLength(20);
    const subjects = peer.received.map((m) => m.subject).sort();
    expect(new Set(subjects).size).toBe(20);
    expect(subjects).toEqual(ids.map((_, i) => `Message ${i}`).sort());
    const received = peer.received.find((m) => m.subject === "Message 7")!;
    expect(received.rcptTo).toEqual(["membre7@exemple.fr"]);
    expect(received.raw).toMatch(/^From: .*no-reply@localhost/m);
    expect(received.raw).toMatch(/^Auto-Submitted: auto-generated/m);

    const rows = await t.db!.select().from(mailOutbox);
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1 && r.sentAt !== null)).toBe(true);
    const workers = new Set(rows.map((r) => r.lockedBy));
    expect([...workers].every((w) => w === "a" || w === "b")).toBe(true);
    // Nothing left to do.
    expect(await Promise.all([a.runOnce(), b.runOnce()])).toEqual([0, 0]);
    expect(peer.received).toHaveLength(20);
  });

  it("keeps a rejected message pending with a backoff, then delivers it once", async () => {
    const id = (await enqueueMail(mail(1)))!;
    const dispatcher = createMailDispatcher({ transport: createSmtpTransport(peer.url), workerId: "w" });
    peer.rejectWith = "Boîte pleine, réessayez plus tard";

    expect(await dispatcher.runOnce()).toBe(1);
    let r = await row(id);
    expect(r.status).toBe("pending");
    expect(r.attempts).toBe(1);
    expect(r.lastError).toMatch(/451/);
    expect(r.lockedAt).toBeNull();
    expect(await isInFuture(id)).toBe(true);
    expect(peer.received).toHaveLength(0);

    // Not due yet: nothing is claimed, even once the server accepts again.
    peer.rejectWith = null;
    expect(await dispatcher.runOnce()).toBe(0);

    await makeDue(id);
    expect(await dispatcher.runOnce()).toBe(1);
    r = await row(id);
    expect(r.status).toBe("sent");
    expect(r.attempts).toBe(2);
    expect(r.lastError).toBeNull();
    expect(peer.received).toHaveLength(1);

    await makeDue(id);
    expect(await dispatcher.runOnce()).toBe(0);
    expect(peer.received).toHaveLength(1);
  });

  it("retries when the server is unreachable", async () => {
    const down = await startSmtpPeer();
    const url = down.url;
    await down.close();
    const id = (await enqueueMail(mail(1)))!;
    const dispatcher = createMailDispatcher({ transport: createSmtpTransport(url), workerId: "w" });
    expect(await dispatcher.runOnce()).toBe(1);
    const r = await row(id);
    expect(r).toMatchObject({ status: "pending", attempts: 1 });
    expect(r.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(await isInFuture(id)).toBe(true);
  });

  it("marks a message failed after maxAttempts", async () => {
    const id = (await enqueueMail(mail(1)))!;
    const dispatcher = createMailDispatcher({ transport: createSmtpTransport(peer.url), workerId: "w", maxAttempts: 3 });
    peer.rejectWith = "Refusé";
    for (let attempt = 1; attempt <= 3; attempt++) {
      await makeDue(id);
      expect(await dispatcher.runOnce()).toBe(1);
      const r = await row(id);
      expect(r.attempts).toBe(attempt);
      expect(r.status).toBe(attempt < 3 ? "pending" : "failed");
    }
    peer.rejectWith = null;
    await makeDue(id);
    expect(await dispatcher.runOnce()).toBe(0);
    expect((await row(id)).lastError).toMatch(/Refusé|451/);
    expect(peer.received).toHaveLength(0);
  });

  it("reclaims a message left in 'sending' by a dead worker, not one being sent", async () => {
    const stale = (await enqueueMail(mail(1)))!;
    const busy = (await enqueueMail(mail(2)))!;
    await t.db!
      .update(mailOutbox)
      .set({ status: "sending", lockedBy: "dead", attempts: 1, lockedAt: sql`now() - interval '10 minutes'` })
      .where(eq(mailOutbox.id, stale));
    await t.db!
      .update(mailOutbox)
      .set({ status: "sending", lockedBy: "alive", attempts: 1, lockedAt: sql`now() - interval '1 minute'` })
      .where(eq(mailOutbox.id, busy));
    const dispatcher = createMailDispatcher({ transport: createSmtpTransport(peer.url), workerId: "rescuer" });
    expect(await dispatcher.runOnce()).toBe(1);
    expect(await row(stale)).toMatchObject({ status: "sent", lockedBy: "rescuer", attempts: 2 });
    expect(await row(busy)).toMatchObject({ status: "sending", lockedBy: "alive", attempts: 1 });
    expect(peer.received.map((m) => m.subject)).toEqual(["Message 1"]);
  });

  it("gives up on a stale message that already used its last attempt", async () => {
    const id = (await enqueueMail(mail(1)))!;
    await t.db!
      .update(mailOutbox)
      .set({ status: "sending", lockedBy: "dead", attempts: 2, lockedAt: sql`now() - interval '10 minutes'` })
      .where(eq(mailOutbox.id, id));
    const dispatcher = createMailDispatcher({ transport: createSmtpTransport(peer.url), maxAttempts: 2 });
    expect(await dispatcher.runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: "failed" });
    expect(peer.received).toHaveLength(0);
  });

  it("gives every attempt at one row the same Message-ID, naming the outbox row", async () => {
    const id = (await enqueueMail(mail(1)))!;
    const dispatcher = createMailDispatcher({ transport: createSmtpTransport(peer.url), workerId: "w", from: "Réseau <contact@exemple.fr>" });
    peer.rejectWith = "Plus tard";
    expect(await dispatcher.runOnce()).toBe(1);
    peer.rejectWith = null;
    await makeDue(id);
    expect(await dispatcher.runOnce()).toBe(1);
    const messageIdOf = (raw: string) => /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim();
    const first = messageIdOf(peer.rejected[0].raw);
    const second = messageIdOf(peer.received[0].raw);
    expect(first).toBeDefined();
    expect(second).toBe(first);
    const r = await row(id);
    expect(second).toBe(outboxMessageId(id, r.createdAt, "contact@exemple.fr"));
    expect(second).toMatch(/@exemple\.fr>$/);
    expect(outboxIdOf(second!)).toBe(id);
    // Another message gets another id.
    const other = (await enqueueMail(mail(2)))!;
    await dispatcher.runOnce();
    expect(messageIdOf(peer.received[1].raw)).not.toBe(first);
    expect(outboxIdOf(messageIdOf(peer.received[1].raw)!)).toBe(other);
  });

  it("aborts the SMTP connection of a send that runs over its timeout, and retries later", async () => {
    const id = (await enqueueMail(mail(1)))!;
    peer.holdData = true;
    const closedBefore = peer.closedConnections;
    const dispatcher = createMailDispatcher({ transport: createSmtpTransport(peer.url), workerId: "w", sendTimeoutMs: 300 });
    expect(await dispatcher.runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 1, lastError: "mail transport timed out after 300 ms" });
    // The server saw the client go away before its final reply: nothing was accepted.
    await expect.poll(() => peer.closedConnections, { timeout: 5_000 }).toBeGreaterThan(closedBefore);
    expect(peer.received).toHaveLength(0);
    peer.holdData = false;
    await makeDue(id);
    // The retry, with a timeout a loaded machine cannot overrun (300 ms is for the held send only).
    const retrying = createMailDispatcher({ transport: createSmtpTransport(peer.url), workerId: "w", sendTimeoutMs: 30_000 });
    expect(await retrying.runOnce()).toBe(1);
    expect(peer.received).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("honours ?ignoreTLS=true in the SMTP URL", async () => {
    const tlsPeer = await startSmtpPeer({ starttls: true });
    try {
      const msg: OutgoingMail = { from: mailFrom(), to: "a@exemple.fr", subject: "TLS", html: "<p>x</p>", text: "x" };
      // The server offers STARTTLS with a self-signed certificate: upgrading fails verification.
      await expect(createSmtpTransport(`smtp://127.0.0.1:${tlsPeer.port}`).send(msg)).rejects.toThrow();
      await createSmtpTransport(`smtp://127.0.0.1:${tlsPeer.port}?ignoreTLS=true`).send(msg);
      expect(tlsPeer.received.map((m) => m.subject)).toEqual(["TLS"]);
    } finally {
      await tlsPeer.close();
    }
  });
});

describe("dispatcher", () => {
  it("never hands the same message to two of many competing dispatchers", async () => {
    for (let i = 0; i < 60; i++) await enqueueMail(mail(i));
    const seen: string[] = [];
    const transport: MailTransport = {
      async send(msg) {
        seen.push(msg.subject);
        await new Promise((r) => setTimeout(r, 1));
      },
    };
    const dispatchers = ["w1", "w2", "w3", "w4"].map((workerId) => createMailDispatcher({ transport, workerId, batchSize: 2 }));
    for (let round = 0; round < 60; round++) {
      const counts = await Promise.all(dispatchers.map((d) => d.runOnce()));
      if (counts.every((n) => n === 0)) break;
    }
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
    const rows = await t.db!.select().from(mailOutbox);
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  });

  it("does not overwrite a row that was reclaimed by another worker meanwhile", async () => {
    const id = (await enqueueMail(mail(1)))!;
    const transport: MailTransport = {
      async send() {
        await t.db!.update(mailOutbox).set({ lockedBy: "other", attempts: 2 }).where(eq(mailOutbox.id, id));
      },
    };
    await createMailDispatcher({ transport, workerId: "slow" }).runOnce();
    expect(await row(id)).toMatchObject({ status: "sending", lockedBy: "other", attempts: 2 });
  });

  it("renews the claim right before each send of a batch", async () => {
    const first = (await enqueueMail(mail(1)))!;
    const second = (await enqueueMail(mail(2)))!;
    const freshAtSend: boolean[] = [];
    const transport: MailTransport = {
      async send(msg) {
        if (msg.subject === "Message 1") {
          // Sending the first message took long: the second one's claim looks old meanwhile.
          await t.db!.update(mailOutbox).set({ lockedAt: sql`now() - interval '4 minutes'` }).where(eq(mailOutbox.id, second));
        }
        const id = msg.subject === "Message 1" ? first : second;
        const [r] = await t.db!
          .select({ fresh: sql<boolean>`${mailOutbox.lockedAt} > now() - interval '1 minute'` })
          .from(mailOutbox)
          .where(eq(mailOutbox.id, id));
        freshAtSend.push(r.fresh);
      },
    };
    await createMailDispatcher({ transport, workerId: "w", staleAfterMs: 5 * 60_000 }).runOnce();
    expect(freshAtSend).toEqual([true, true]);
    expect(await row(second)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("does not send a row of its batch that another worker took over meanwhile", async () => {
    await enqueueMail(mail(1));
    const second = (await enqueueMail(mail(2)))!;
    const sent: string[] = [];
    const transport: MailTransport = {
      async send(msg) {
        sent.push(msg.subject);
        if (msg.subject === "Message 1") {
          await t.db!.update(mailOutbox).set({ lockedBy: "rescuer", attempts: 2 }).where(eq(mailOutbox.id, second));
        }
      },
    };
    expect(await createMailDispatcher({ transport, workerId: "slow" }).runOnce()).toBe(2);
    expect(sent).toEqual(["Message 1"]);
    expect(await row(second)).toMatchObject({ status: "sending", lockedBy: "rescuer", attempts: 2 });
  });

  it("keeps trying to record a delivery while the database is briefly unavailable", async () => {
    const id = (await enqueueMail(mail(1)))!;
    let updates = 0;
    const flaky = new Proxy(t.db!, {
      get(target, prop, receiver) {
        if (prop === "update") {
          return (...args: Parameters<typeof target.update>) => {
            updates++;
            // 1: claim, 2: claim renewal, 3: first attempt at marking it sent.
            if (updates === 3) throw new Error("connection terminated");
            return target.update(...args);
          };
        }
        const value: unknown = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const sent: string[] = [];
    const transport: MailTransport = {
      async send(msg) {
        sent.push(msg.subject);
      },
    };
    expect(await createMailDispatcher({ transport, workerId: "w", db: flaky }).runOnce()).toBe(1);
    expect(sent).toEqual(["Message 1"]);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("stop() finishes the message being sent and hands the rest of the batch back", async () => {
    const ids: number[] = [];
    for (let i = 1; i <= 3; i++) ids.push((await enqueueMail(mail(i)))!);
    let release!: () => void;
    const sending = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const sent: string[] = [];
    const transport: MailTransport = {
      async send(msg) {
        started();
        await sending;
        sent.push(msg.subject);
      },
    };
    const dispatcher = createMailDispatcher({ transport, workerId: "leaving", intervalMs: 60_000 });
    dispatcher.start();
    await firstStarted;
    const stopped = dispatcher.stop();
    release();
    await stopped;
    expect(sent).toEqual(["Message 1"]);
    expect(await row(ids[0])).toMatchObject({ status: "sent", attempts: 1 });
    for (const id of ids.slice(1)) {
      expect(await row(id)).toMatchObject({ status: "pending", attempts: 0, lockedAt: null });
      expect(await isInFuture(id)).toBe(false);
    }
    // Another instance picks them up at once.
    expect(await createMailDispatcher({ transport, workerId: "other" }).runOnce()).toBe(2);
    expect(sent).toEqual(["Message 1", "Message 2", "Message 3"]);
  });

  it("defaults its claim timeout to MAIL_CLAIM_TIMEOUT_MS and its send timeout to half of it", async () => {
    const id = (await enqueueMail(mail(1)))!;
    await t.db!
      .update(mailOutbox)
      .set({ status: "sending", lockedBy: "dead", attempts: 1, lockedAt: sql`now() - interval '3 seconds'` })
      .where(eq(mailOutbox.id, id));
    const previous = process.env.MAIL_CLAIM_TIMEOUT_MS;
    const { setEnv, parseEnv } = await import("~/lib/env.server");
    const sent: string[] = [];
    try {
      setEnv(parseEnv({ ...process.env, MAIL_CLAIM_TIMEOUT_MS: "2000" }));
      const transport: MailTransport = { send: () => new Promise<void>(() => {}) };
      // Older than 2 s: taken over; then the hung send is given up after 1 s.
      expect(await createMailDispatcher({ transport, workerId: "w" }).runOnce()).toBe(1);
      expect(await row(id)).toMatchObject({ status: "pending", attempts: 2, lastError: "mail transport timed out after 1000 ms" });
      setEnv(parseEnv({ ...process.env, MAIL_CLAIM_TIMEOUT_MS: undefined }));
      await t.db!
        .update(mailOutbox)
        .set({ status: "sending", lockedBy: "dead", attempts: 2, lockedAt: sql`now() - interval '3 seconds'` })
        .where(eq(mailOutbox.id, id));
      const patient = createMailDispatcher({ transport: { send: async (m) => void sent.push(m.subject) }, workerId: "w2" });
      expect(await patient.runOnce()).toBe(0);
      expect(sent).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.MAIL_CLAIM_TIMEOUT_MS;
      setEnv(parseEnv(process.env));
    }
  });

  it("treats a hung transport as a failure", async () => {
    const id = (await enqueueMail(mail(1)))!;
    const transport: MailTransport = { send: () => new Promise<void>(() => {}) };
    await createMailDispatcher({ transport, workerId: "w", sendTimeoutMs: 50 }).runOnce();
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 1, lastError: "mail transport timed out after 50 ms" });
  });

  it("uses the local mailbox transport when no SMTP server is configured", async () => {
    const id = (await enqueueMail(mail(1)))!;
    expect(await createMailDispatcher({ transport: new LocalMailboxTransport() }).runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("loop: runs at start, wakes up after an enqueue, never overlaps, stops cleanly", async () => {
    const sent: string[] = [];
    let active = 0;
    let maxActive = 0;
    const transport: MailTransport = {
      async send(msg) {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setTimeout(r, 5));
        sent.push(msg.subject);
        active--;
      },
    };
    await enqueueMail(mail(0));
    const dispatcher = createMailDispatcher({ transport, workerId: "loop", intervalMs: 60_000, batchSize: 2 });
    dispatcher.start();
    await expect.poll(() => sent.length, { timeout: 5_000 }).toBe(1);
    // The next regular run is a minute away: only wake() can deliver these in time.
    for (let i = 1; i <= 5; i++) await enqueueMail(mail(i));
    await expect.poll(() => sent.length, { timeout: 5_000 }).toBe(6);
    expect(maxActive).toBe(1);
    await dispatcher.stop();
    await enqueueMail(mail(99));
    await new Promise((r) => setTimeout(r, 200));
    expect(sent).toHaveLength(6);
  });

  it("logs instead of throwing when a run fails", async () => {
    const failing = createMailDispatcher({
      transport: new LocalMailboxTransport(),
      intervalMs: 100,
      db: new Proxy(t.db!, {
        get() {
          throw new Error("database down");
        },
      }),
    });
    failing.start();
    await new Promise((r) => setTimeout(r, 250));
    await failing.stop();
  });

  it("backs off exponentially up to one hour", () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(20)).toBe(3_600_000);
  });
});

describe("mailFrom", () => {
  it("uses MAIL_FROM, else the product name at a local address", () => {
    expect(mailFrom({ MAIL_FROM: "Réseau <contact@exemple.fr>", APP_NAME: "X" })).toBe("Réseau <contact@exemple.fr>");
    expect(mailFrom({ MAIL_FROM: undefined, APP_NAME: 'Le "Réseau"' })).toBe('"Le \\"Réseau\\"" <no-reply@localhost>');
  });
});

// Delivers the mail outbox. Rows are claimed with FOR UPDATE SKIP LOCKED, so any number of
// dispatchers (one per app instance) can run against the same database without sending a
// message twice. A worker that dies mid-send leaves its rows in 'sending'; they are reclaimed
// once their lock is older than `staleAfterMs`.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { createTransport } from "nodemailer";
import { db as defaultDb, type Db } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";
import { getEnv, type Env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { onMailEnqueued } from "./outbox.server";

export type OutgoingMail = {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
};

export interface MailTransport {
  send(msg: OutgoingMail): Promise<void>;
}

/** The sender address: MAIL_FROM, else the product name at a local no-reply address. */
export function mailFrom(env: Pick<Env, "MAIL_FROM" | "APP_NAME"> = getEnv()): string {
  if (env.MAIL_FROM) return env.MAIL_FROM;
  const name = env.APP_NAME.replace(/[\r\n]+/g, " ").replace(/["\\]/g, "\\$&");
  return `"${name}" <no-reply@localhost>`;
}

/**
 * SMTP through nodemailer. The URL's query string can set any SMTP option
 * (e.g. `smtp://127.0.0.1:2525?ignoreTLS=true`, `?requireTLS=true`, `?tls.rejectUnauthorized=false`);
 * nodemailer parses it and it wins over the defaults below.
 */
export function createSmtpTransport(smtpUrl: string): MailTransport & { close(): void } {
  const transporter = createTransport({
    url: smtpUrl,
    // Nodemailer's defaults (2 min to connect, 10 min of socket silence) are longer than the
    // dispatcher's stale-lock delay: a hung server would get the message reclaimed and sent twice.
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
  return {
    async send(msg) {
      await transporter.sendMail({
        from: msg.from,
        to: msg.to,
        replyTo: msg.replyTo,
        subject: msg.subject,
        html: msg.html,
        text: msg.text,
        // Tells mail servers and out-of-office robots that no human sent this.
        headers: { "Auto-Submitted": "auto-generated" },
      });
    },
    close() {
      transporter.close();
    },
  };
}

/**
 * No SMTP configured: the outbox table is the mailbox (see /dev/mailbox), so delivering a
 * message only means marking it as delivered.
 */
export class LocalMailboxTransport implements MailTransport {
  async send(msg: OutgoingMail): Promise<void> {
    logger.debug({ subject: msg.subject }, "mail kept in the local mailbox (SMTP_URL not set)");
  }
}

/** SMTP when SMTP_URL is set, the local mailbox otherwise. */
export function createTransportFromEnv(env: Pick<Env, "SMTP_URL"> = getEnv()): MailTransport {
  return env.SMTP_URL ? createSmtpTransport(env.SMTP_URL) : new LocalMailboxTransport();
}

/** Delay before retry number `attempts + 1`: 10 s, 20 s, 40 s … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2 ** Math.max(attempts, 0) * 5_000, 3_600_000);
}

export type MailDispatcherOptions = {
  transport: MailTransport;
  /** Recorded in locked_by; unique per process by default. */
  workerId?: string;
  batchSize?: number;
  /** Pause between two runs of the loop started by start(). */
  intervalMs?: number;
  /** Attempts after which a message is marked 'failed'. */
  maxAttempts?: number;
  /** A 'sending' row locked longer ago than this is taken to belong to a dead worker. */
  staleAfterMs?: number;
  /** Upper bound for one transport call; must stay well below staleAfterMs. */
  sendTimeoutMs?: number;
  /** Sender address; mailFrom() by default. */
  from?: string;
  /** Database handle; the app's `db` by default. */
  db?: Db;
};

export type MailDispatcher = {
  readonly workerId: string;
  /** Claims due messages once and delivers them; resolves with how many were processed. */
  runOnce(): Promise<number>;
  /** Starts the loop (idempotent). Runs never overlap; errors are logged, not thrown. */
  start(): void;
  /** Asks the loop to run soon (after an enqueue). No effect when not started. */
  wake(): void;
  /** Stops the loop and waits for the run in progress. */
  stop(): Promise<void>;
};

const WAKE_DELAY_MS = 25;
const MAX_ERROR_LENGTH = 2_000;

type ClaimedRow = {
  id: number;
  toAddress: string;
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  kind: string;
  attempts: number;
};

function errorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, MAX_ERROR_LENGTH) || "unknown error";
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`mail transport timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createMailDispatcher(options: MailDispatcherOptions): MailDispatcher {
  const {
    transport,
    workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    batchSize = 10,
    intervalMs = getEnv().MAIL_DISPATCH_INTERVAL_MS,
    maxAttempts = 8,
    staleAfterMs = 5 * 60_000,
    sendTimeoutMs = 2 * 60_000,
  } = options;
  const database = (): Db => options.db ?? defaultDb;
  const log = logger.child({ component: "mail-dispatcher", workerId });

  async function claim(): Promise<ClaimedRow[]> {
    const due = database()
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        or(
          and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, sql`now()`)),
          and(
            eq(mailOutbox.status, "sending"),
            lt(mailOutbox.lockedAt, sql`now() - ${staleAfterMs}::integer * interval '1 millisecond'`),
          ),
        ),
      )
      .orderBy(mailOutbox.nextAttemptAt)
      .limit(batchSize)
      .for("update", { skipLocked: true });
    return database()
      .update(mailOutbox)
      .set({
        status: "sending",
        lockedAt: sql`now()`,
        lockedBy: workerId,
        attempts: sql`${mailOutbox.attempts} + 1`,
      })
      .where(inArray(mailOutbox.id, due))
      .returning({
        id: mailOutbox.id,
        toAddress: mailOutbox.toAddress,
        replyTo: mailOutbox.replyTo,
        subject: mailOutbox.subject,
        html: mailOutbox.html,
        text: mailOutbox.text,
        kind: mailOutbox.kind,
        attempts: mailOutbox.attempts,
      });
  }

  // Every update after the claim checks that the row is still ours (same worker, same attempt):
  // if it was reclaimed as stale meanwhile, the newer owner's state must not be overwritten.
  const stillOurs = (row: ClaimedRow) =>
    and(
      eq(mailOutbox.id, row.id),
      eq(mailOutbox.status, "sending"),
      eq(mailOutbox.lockedBy, workerId),
      eq(mailOutbox.attempts, row.attempts),
    );

  async function markSent(row: ClaimedRow) {
    await database()
      .update(mailOutbox)
      .set({ status: "sent", sentAt: sql`now()`, lockedAt: null, lastError: null })
      .where(stillOurs(row));
  }

  async function markFailed(row: ClaimedRow, error: string) {
    const final = row.attempts >= maxAttempts;
    await database()
      .update(mailOutbox)
      .set({
        status: final ? "failed" : "pending",
        lockedAt: null,
        lastError: error,
        nextAttemptAt: final
          ? sql`${mailOutbox.nextAttemptAt}`
          : sql`now() + ${retryDelayMs(row.attempts)}::integer * interval '1 millisecond'`,
      })
      .where(stillOurs(row));
    const context = { mailId: row.id, kind: row.kind, attempts: row.attempts, error };
    if (final) log.error(context, "mail delivery failed for good");
    else log.warn(context, "mail delivery failed, will retry");
  }

  async function deliver(row: ClaimedRow, from: string) {
    if (row.attempts > maxAttempts) {
      // Only a reclaimed stale row gets here: the worker died during its last allowed attempt.
      await markFailed(row, "abandoned: the worker stopped during the last allowed attempt");
      return;
    }
    try {
      await withTimeout(
        transport.send({
          from,
          to: row.toAddress,
          replyTo: row.replyTo ?? undefined,
          subject: row.subject,
          html: row.html,
          text: row.text,
        }),
        sendTimeoutMs,
      );
    } catch (err) {
      await markFailed(row, errorMessage(err));
      return;
    }
    await markSent(row);
    log.info({ mailId: row.id, kind: row.kind, attempts: row.attempts }, "mail delivered");
  }

  async function runOnce(): Promise<number> {
    const rows = await claim();
    if (rows.length === 0) return 0;
    const from = options.from ?? mailFrom();
    // One at a time: a plain SMTP transport opens one connection per message, and a batch is small.
    for (const row of rows) await deliver(row, from);
    return rows.length;
  }

  // ---- loop -----------------------------------------------------------------------------------
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let wakeRequested = false;
  let unsubscribe: (() => void) | undefined;

  let timerDueAt = 0;

  function schedule(delay: number) {
    if (!started) return;
    const dueAt = Date.now() + delay;
    // Keep an earlier pending run: a stream of wake-ups must not keep pushing it back.
    if (timer && timerDueAt <= dueAt) return;
    if (timer) clearTimeout(timer);
    timerDueAt = dueAt;
    timer = setTimeout(tick, delay);
    // The loop alone must not keep a script or a test process alive.
    timer.unref();
  }

  function tick() {
    timer = undefined;
    if (!started || inFlight) return;
    wakeRequested = false;
    inFlight = (async () => {
      let fullBatch = false;
      try {
        fullBatch = (await runOnce()) >= batchSize;
      } catch (err) {
        log.error({ err }, "mail dispatch run failed");
      }
      inFlight = undefined;
      // A full batch means more is probably due: drain without waiting for the interval.
      schedule(fullBatch || wakeRequested ? 0 : intervalMs);
    })();
  }

  function wake() {
    if (!started) return;
    if (inFlight) {
      wakeRequested = true;
      return;
    }
    schedule(WAKE_DELAY_MS);
  }

  return {
    workerId,
    runOnce,
    wake,
    start() {
      if (started) return;
      started = true;
      unsubscribe = onMailEnqueued(wake);
      schedule(0);
    },
    async stop() {
      started = false;
      unsubscribe?.();
      unsubscribe = undefined;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
  };
}

// Delivers the mail outbox. Rows are claimed with FOR UPDATE SKIP LOCKED, so any number of
// dispatchers (one per app instance) can run against the same database without two of them
// sending the same message. A worker that dies mid-send leaves its rows in 'sending'; they are
// reclaimed once their claim is older than `staleAfterMs` (MAIL_CLAIM_TIMEOUT_MS).
//
// Guarantee: at least once, and exactly once unless a worker dies (or loses the database) in the
// few milliseconds between the SMTP server's final "250 OK" and the commit that marks the row
// sent. A live worker renews its claim right before each send and bounds every send well below
// the claim timeout (aborting the SMTP connection when it runs over), so a row is never taken
// over while its owner may still deliver it. Every attempt of a row carries the same Message-ID,
// so a copy resent after such a crash can be recognised (and is merged by many mail servers).
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { createTransport, type SendMailOptions } from "nodemailer";
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
  /** `<…@…>`; the same for every attempt at one outbox row. */
  messageId?: string;
};

export type SendOptions = {
  /** Aborted when the dispatcher gives up on this attempt: the transport must stop sending. */
  signal?: AbortSignal;
};

export interface MailTransport {
  send(msg: OutgoingMail, options?: SendOptions): Promise<void>;
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
    async send(msg, options = {}) {
      // nodemailer closes the connection when the signal aborts (its types predate the option):
      // a message cut before the end of DATA is discarded by the server, never half-delivered.
      const mail: SendMailOptions & { signal?: AbortSignal } = {
        from: msg.from,
        to: msg.to,
        replyTo: msg.replyTo,
        subject: msg.subject,
        html: msg.html,
        text: msg.text,
        messageId: msg.messageId,
        // Tells mail servers and out-of-office robots that no human sent this.
        headers: { "Auto-Submitted": "auto-generated" },
        signal: options.signal,
      };
      await transporter.sendMail(mail);
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

/**
 * The Message-ID of an outbox row: the same for every attempt, so that a copy resent after a
 * crash is recognisably the same message. The creation time keeps ids of two databases apart.
 */
export function outboxMessageId(id: number, createdAt: Date, from: string): string {
  const domain = /@([^\s<>@"]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
  return `<outbox.${id}.${createdAt.getTime().toString(36)}@${domain}>`;
}

/** The outbox row id in a Message-ID made by outboxMessageId, or null. */
export function outboxIdOf(messageId: string): number | null {
  const match = /^<?outbox\.(\d+)\./.exec(messageId.trim());
  return match ? Number(match[1]) : null;
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
  /** A 'sending' row locked longer ago than this is taken to belong to a dead worker. MAIL_CLAIM_TIMEOUT_MS by default. */
  staleAfterMs?: number;
  /** Upper bound for one transport call; must stay well below staleAfterMs (half of it, at most 2 min, by default). */
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
  /**
   * Stops the loop and waits for the message being sent; the rest of its batch is handed back
   * (due at once) so that another instance sends it without waiting for the claim timeout.
   */
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
  createdAt: Date;
};

function errorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, MAX_ERROR_LENGTH) || "unknown error";
}

/** Runs `run` for at most `ms`; past that it rejects and aborts the signal given to `run`. */
function withTimeout<T>(run: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`mail transport timed out after ${ms} ms`);
      // Reject first so that this error, not the transport's abort error, is the one recorded.
      reject(error);
      controller.abort(error);
    }, ms);
  });
  return Promise.race([run(controller.signal), timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createMailDispatcher(options: MailDispatcherOptions): MailDispatcher {
  const {
    transport,
    workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    batchSize = 10,
    intervalMs = getEnv().MAIL_DISPATCH_INTERVAL_MS,
    maxAttempts = 8,
    staleAfterMs = getEnv().MAIL_CLAIM_TIMEOUT_MS,
  } = options;
  const sendTimeoutMs = options.sendTimeoutMs ?? Math.min(2 * 60_000, Math.floor(staleAfterMs / 2));
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
      .orderBy(mailOutbox.nextAttemptAt, mailOutbox.id)
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const rows = await database()
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
        createdAt: mailOutbox.createdAt,
      });
    // RETURNING follows no order: send the oldest first.
    return rows.sort((a, b) => a.id - b.id);
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

  /**
   * Restarts the claim's clock right before a send: the rest of a batch may have waited behind
   * slow sends. False when the row is no longer ours (reclaimed as stale): then it is not sent.
   */
  async function renewClaim(row: ClaimedRow): Promise<boolean> {
    const renewed = await database()
      .update(mailOutbox)
      .set({ lockedAt: sql`now()` })
      .where(stillOurs(row))
      .returning({ id: mailOutbox.id });
    return renewed.length > 0;
  }

  /**
   * The message is out: record it. The database may be briefly unreachable; retry while the claim
   * still protects the row, because a row left in 'sending' is sent again after the claim timeout.
   */
  async function markSent(row: ClaimedRow, claimExpiresAt: number) {
    for (let attempt = 0; ; attempt++) {
      try {
        await database()
          .update(mailOutbox)
          .set({ status: "sent", sentAt: sql`now()`, lockedAt: null, lastError: null })
          .where(stillOurs(row));
        return;
      } catch (err) {
        const pause = Math.min(250 * 2 ** attempt, 2_000);
        if (Date.now() + pause >= claimExpiresAt) throw err;
        log.warn({ mailId: row.id, err: errorMessage(err) }, "mail sent but not yet recorded, retrying");
        await sleep(pause);
      }
    }
  }

  /** Hands a claimed, unsent row back: due at once, this claim not counted as an attempt. */
  async function release(row: ClaimedRow) {
    await database()
      .update(mailOutbox)
      .set({ status: "pending", lockedAt: null, attempts: sql`${mailOutbox.attempts} - 1` })
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
    // Taken before the renewal, so never later than the database's view of the claim; with a
    // margin for the last attempt at recording the delivery.
    const claimExpiresAt = Date.now() + staleAfterMs * 0.8;
    if (!(await renewClaim(row))) {
      log.warn({ mailId: row.id, kind: row.kind }, "mail claim taken over by another worker, not sending");
      return;
    }
    const msg: OutgoingMail = {
      from,
      to: row.toAddress,
      replyTo: row.replyTo ?? undefined,
      subject: row.subject,
      html: row.html,
      text: row.text,
      messageId: outboxMessageId(row.id, new Date(row.createdAt), from),
    };
    try {
      await withTimeout((signal) => transport.send(msg, { signal }), sendTimeoutMs);
    } catch (err) {
      await markFailed(row, errorMessage(err));
      return;
    }
    await markSent(row, claimExpiresAt);
    log.info({ mailId: row.id, kind: row.kind, attempts: row.attempts }, "mail delivered");
  }

  let stopping = false;

  async function runOnce(): Promise<number> {
    const rows = await claim();
    if (rows.length === 0) return 0;
    const from = options.from ?? mailFrom();
    // One at a time: a plain SMTP transport opens one connection per message, and a batch is small.
    for (const [index, row] of rows.entries()) {
      if (stopping) {
        for (const rest of rows.slice(index)) await release(rest);
        break;
      }
      await deliver(row, from);
    }
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
      stopping = false;
      unsubscribe = onMailEnqueued(wake);
      schedule(0);
    },
    async stop() {
      started = false;
      stopping = true;
      unsubscribe?.();
      unsubscribe = undefined;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
  };
}

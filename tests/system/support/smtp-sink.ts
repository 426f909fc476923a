// A real SMTP server for the system tests, on a fixed loopback port that it can leave and take
// again (SMTP down, then up). It records which outbox rows it accepted (by the Message-ID the
// dispatcher gives every row), can slow down or hold its final reply to DATA so that a send is
// in flight, and tells a transaction it acknowledged from one cut before its final "250".
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";
import { outboxIdOf } from "~/lib/mail/dispatcher.server";
import { freePort } from "./server";

export type SinkMessage = {
  /** The outbox row, read from the Message-ID; null for a message the app did not send. */
  outboxId: number | null;
  messageId: string;
  subject: string;
  rcptTo: string[];
  /** The client connection (smtp-server session id). */
  session: string;
};

export type SmtpSink = {
  readonly port: number;
  /** SMTP_URL for the app. */
  readonly url: string;
  /** Transactions answered with the final "250 OK", in order. */
  readonly accepted: SinkMessage[];
  /** Messages fully received whose connection dropped before the final reply. */
  readonly cut: SinkMessage[];
  /** Messages whose final reply is being held right now (see holdNext). */
  readonly held: SinkMessage[];
  /** Delay before each final reply to DATA. */
  delayMs: number;
  /** The next message's final reply is never sent: it waits until its connection drops. */
  holdNext: boolean;
  /**
   * Final replies wait until this many transactions are in DATA at once (then the gate stays
   * open), or 10 s at most. A dispatcher sends one message at a time, so 2 proves that two
   * instances were sending at the same moment. 0: no gate.
   */
  gate: number;
  /** Most transactions seen in DATA at the same time. */
  readonly maxConcurrentData: number;
  readonly running: boolean;
  start(): Promise<void>;
  /** Stops listening and drops open connections (SMTP down). */
  stop(): Promise<void>;
  /** Accepted count per outbox id. */
  counts(): Map<number, number>;
};

async function readAll(stream: SMTPServerDataStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) => {
      if (encoding.toUpperCase() === "B") return Buffer.from(text, "base64").toString("utf8");
      const bytes = text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => `%${hex}`);
      return decodeURIComponent(bytes.replace(/%(?![0-9A-Fa-f]{2})/g, "%25"));
    });
}

const header = (raw: string, name: string) => {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? "";
  // Unfold continuation lines before matching.
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  return decodeWords(new RegExp(`^${name}:[ \\t]*(.*)$`, "im").exec(unfolded)?.[1]?.trim() ?? "");
};

export async function createSmtpSink(options: { port?: number; delayMs?: number } = {}): Promise<SmtpSink> {
  const port = options.port ?? (await freePort());
  const accepted: SinkMessage[] = [];
  const cut: SinkMessage[] = [];
  const held = new Map<string, SinkMessage>();
  const closedSessions = new Set<string>();
  let inData = 0;
  let maxConcurrentData = 0;
  let gateWaiters: Array<() => void> = [];
  let gateTimer: NodeJS.Timeout | undefined;
  const openGate = () => {
    sink.gate = 0;
    clearTimeout(gateTimer);
    gateTimer = undefined;
    const waiters = gateWaiters;
    gateWaiters = [];
    for (const release of waiters) release();
  };
  /** Resolves when the gate lets this transaction answer. */
  const throughGate = () =>
    new Promise<void>((resolve) => {
      if (sink.gate <= 0) return resolve();
      gateWaiters.push(resolve);
      if (inData >= sink.gate) openGate();
      else gateTimer ??= setTimeout(openGate, 10_000);
    });
  let server: SMTPServer | undefined;

  const sink: SmtpSink = {
    port,
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    accepted,
    cut,
    get held() {
      return [...held.values()];
    },
    delayMs: options.delayMs ?? 0,
    holdNext: false,
    gate: 0,
    get maxConcurrentData() {
      return maxConcurrentData;
    },
    get running() {
      return server !== undefined;
    },
    async start() {
      if (server) return;
      const s = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        closeTimeout: 100,
        onClose(session) {
          closedSessions.add(session.id);
          const message = held.get(session.id);
          if (message) {
            held.delete(session.id);
            inData--;
            cut.push(message);
          }
        },
        onData(stream, session, callback) {
          inData++;
          maxConcurrentData = Math.max(maxConcurrentData, inData);
          const done = () => {
            inData--;
          };
          readAll(stream).then(
            (raw) => {
              const messageId = header(raw, "Message-ID");
              const message: SinkMessage = {
                outboxId: outboxIdOf(messageId),
                messageId,
                subject: header(raw, "Subject"),
                rcptTo: session.envelope.rcptTo.map((r) => r.address),
                session: session.id,
              };
              if (sink.holdNext) {
                sink.holdNext = false;
                held.set(session.id, message);
                // Counted as in DATA until the connection goes.
                return;
              }
              void throughGate().then(() =>
                setTimeout(() => {
                  done();
                  if (closedSessions.has(session.id)) {
                    cut.push(message);
                    return;
                  }
                  accepted.push(message);
                  callback();
                }, sink.delayMs),
              );
            },
            (err: unknown) => {
              done();
              callback(err instanceof Error ? err : new Error(String(err)));
            },
          );
        },
      });
      await new Promise<void>((resolve, reject) => {
        s.once("error", reject);
        s.listen(port, "127.0.0.1", () => resolve());
      });
      server = s;
    },
    async stop() {
      openGate();
      const s = server;
      server = undefined;
      if (!s) return;
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    counts() {
      const counts = new Map<number, number>();
      for (const m of accepted) if (m.outboxId !== null) counts.set(m.outboxId, (counts.get(m.outboxId) ?? 0) + 1);
      return counts;
    },
  };
  return sink;
}

// A real SMTP server on a free local port for the mail tests: records what it accepts and can
// be told to reject messages.
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";

export type ReceivedMail = { rcptTo: string[]; raw: string; subject: string };

export type SmtpPeer = {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Messages refused with rejectWith. */
  rejected: ReceivedMail[];
  /** When set, every message is refused after DATA with this temporary error. */
  rejectWith: string | null;
  /** When true, DATA is read but never answered (a hung server). */
  holdData: boolean;
  /** Client connections that ended (closed by either side). */
  closedConnections: number;
  close(): Promise<void>;
};

async function readAll(stream: SMTPServerDataStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startSmtpPeer(options: { starttls?: boolean } = {}): Promise<SmtpPeer> {
  const peer: SmtpPeer = {
    port: 0,
    url: "",
    received: [],
    rejected: [],
    rejectWith: null,
    holdData: false,
    closedConnections: 0,
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    // Without STARTTLS, a plain smtp:// client never tries to upgrade. With it (default
    // self-signed certificate) a client that does not ignore TLS fails certificate checks.
    disabledCommands: options.starttls ? [] : ["STARTTLS"],
    logger: false,
    closeTimeout: 100,
    onClose() {
      peer.closedConnections++;
    },
    onData(stream, session, callback) {
      // Decided when the DATA command arrives: a held send read after the hold ended stays unanswered.
      const held = peer.holdData;
      readAll(stream).then(
        (raw) => {
          const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? "";
          const rcptTo = session.envelope.rcptTo.map((r) => r.address);
          if (held) return;
          if (peer.rejectWith) {
            peer.rejected.push({ rcptTo, raw, subject });
            const err = Object.assign(new Error(peer.rejectWith), { responseCode: 451 });
            callback(err);
            return;
          }
          peer.received.push({ rcptTo, raw, subject });
          callback();
        },
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  peer.port = (server.server.address() as AddressInfo).port;
  peer.url = `smtp://127.0.0.1:${peer.port}?ignoreTLS=true`;
  peer.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return peer;
}

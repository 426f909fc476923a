// Mail outbox: features never talk to SMTP. They insert a row (inside their own transaction
// when they have one), and the dispatcher delivers it later. Nothing is lost while SMTP is
// down, and a rolled-back transaction sends nothing.
import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { db as defaultDb, type Db } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";
import { getEnv } from "~/lib/env.server";
import { isSendableEmail } from "~/lib/email-address";
import { isLoopbackAddress } from "~/lib/net";
import { getClientIp } from "~/lib/rate-limit.server";

// Header values must stay on one line: a CR/LF in a subject or an address would let a caller
// smuggle extra headers into the message.
const singleLine = (s: string) => s.replace(/[\r\n\t]+/g, " ").trim();

// The same rule as the forms that collect addresses to be mailed (app/lib/email-address.ts).
const address = z.string().trim().refine(isSendableEmail, "adresse non envoyable");

const enqueueSchema = z.object({
  to: address,
  replyTo: address.optional(),
  subject: z.string().transform(singleLine).pipe(z.string().min(1).max(300)),
  html: z.string().min(1),
  text: z.string().min(1),
  kind: z.string().trim().min(1).max(64),
  dedupeKey: z.string().trim().min(1).max(300).optional(),
});

export type EnqueueMailInput = z.input<typeof enqueueSchema>;

type WakeListener = () => void;
const wakeListeners = new Set<WakeListener>();

/** Lets a running dispatcher hear about new mail instead of waiting for its next tick. */
export function onMailEnqueued(listener: WakeListener): () => void {
  wakeListeners.add(listener);
  return () => wakeListeners.delete(listener);
}

/**
 * Queues an e-mail. Pass the transaction handle to enqueue atomically with the feature's own
 * writes. Returns the new row id, or null when a row with the same dedupeKey already exists.
 */
export async function enqueueMail(input: EnqueueMailInput, tx?: Db): Promise<number | null> {
  const data = enqueueSchema.parse(input);
  const handle = tx ?? defaultDb;
  const rows = await handle
    .insert(mailOutbox)
    .values({
      toAddress: data.to,
      replyTo: data.replyTo ?? null,
      subject: data.subject,
      html: data.html,
      text: data.text,
      kind: data.kind,
      dedupeKey: data.dedupeKey ?? null,
    })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  const id = rows[0]?.id ?? null;
  // Inside a transaction the row is not visible yet; the dispatcher then finds it on its next
  // regular tick, which is all a wake-up is meant to shorten.
  if (id !== null) for (const listener of wakeListeners) listener();
  return id;
}

// ---------------------------------------------------------------------------------------------
// Built-in mailbox (no SMTP_URL): the outbox table is the mailbox.

/** True when mail is not really sent and the local mailbox pages are available. */
export function isLocalMailboxEnabled(): boolean {
  return !getEnv().SMTP_URL;
}

/**
 * Throws a 404 response unless the local mailbox is enabled AND the client is this machine
 * (loaders of the mailbox pages). It holds sign-in and password-reset links: a server listening
 * on 0.0.0.0 must not hand them to the network.
 */
export function requireLocalMailbox(request: Request): void {
  if (!isLocalMailboxEnabled() || !isLoopbackAddress(getClientIp(request))) throw new Response("Not Found", { status: 404 });
}

export const MAILBOX_LIMIT = 200;

/** French labels of the outbox statuses, for the mailbox pages. */
export const MAILBOX_STATUS_LABELS: Record<MailboxListItem["status"], string> = {
  pending: "En attente",
  sending: "En cours d’envoi",
  sent: "Délivré",
  failed: "Échec",
};

const mailboxListColumns = {
  id: mailOutbox.id,
  to: mailOutbox.toAddress,
  subject: mailOutbox.subject,
  kind: mailOutbox.kind,
  status: mailOutbox.status,
  createdAt: mailOutbox.createdAt,
};

export type MailboxListItem = {
  id: number;
  to: string;
  subject: string;
  kind: string;
  status: "pending" | "sending" | "sent" | "failed";
  createdAt: Date;
};

const toFilter = (to: string | undefined) =>
  to ? eq(sql`lower(${mailOutbox.toAddress})`, to.trim().toLowerCase()) : undefined;

/** Latest outbox rows, newest first (local mailbox list). */
export async function listMailbox(options: { to?: string; limit?: number } = {}): Promise<MailboxListItem[]> {
  return defaultDb
    .select(mailboxListColumns)
    .from(mailOutbox)
    .where(toFilter(options.to))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(options.limit ?? MAILBOX_LIMIT);
}

export type MailboxMessage = MailboxListItem & {
  replyTo: string | null;
  html: string;
  text: string;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
};

const mailboxMessageColumns = {
  ...mailboxListColumns,
  replyTo: mailOutbox.replyTo,
  html: mailOutbox.html,
  text: mailOutbox.text,
  attempts: mailOutbox.attempts,
  lastError: mailOutbox.lastError,
  sentAt: mailOutbox.sentAt,
};

/** Latest outbox rows with their bodies, newest first (local mailbox JSON for tests). */
export async function listMailboxMessages(options: { to?: string; limit?: number } = {}): Promise<MailboxMessage[]> {
  return defaultDb
    .select(mailboxMessageColumns)
    .from(mailOutbox)
    .where(toFilter(options.to))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(options.limit ?? MAILBOX_LIMIT);
}

/** One outbox row, or null. */
export async function getMailboxMessage(id: number): Promise<MailboxMessage | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const rows = await defaultDb
    .select(mailboxMessageColumns)
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id))
    .limit(1);
  return rows[0] ?? null;
}

// Infrastructure tables the hosted backend used to hide: mail outbox, audit log, rate limits.
import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { outboxStatusEnum } from "./enums";

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    toAddress: text("to_address").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    // What kind of e-mail (verification, sponsor, notification…), for the logs and the mailbox.
    kind: text("kind").notNull(),
    // Optional idempotency key: the same key is never enqueued twice.
    dedupeKey: text("dedupe_key"),
    status: outboxStatusEnum("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    lockedAt: ts("locked_at"),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    sentAt: ts("sent_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    index("mail_outbox_created_idx").on(t.createdAt.desc()),
    uniqueIndex("mail_outbox_dedupe_key").on(t.dedupeKey),
  ],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorUserId: text("actor_user_id"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    // The journal's order (`created_at desc, id desc`): a page walks it and stops.
    index("audit_log_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("audit_log_action_idx").on(t.action, t.createdAt.desc()),
  ],
);

// Fixed-window counters for the app's own rate limits (contact forms, messages, match requests).
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  windowStart: ts("window_start").notNull(),
  count: integer("count").notNull(),
});

// Two-factor codes already accepted, per user and 30-second time step: a
// code is worth one use. The primary key makes two concurrent uses of one code race-safe.
export const usedTotpSteps = pgTable(
  "used_totp_steps",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    timeStep: bigint("time_step", { mode: "number" }).notNull(),
    usedAt: ts("used_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.timeStep] })],
);

// The notification centre: what happened for a member (a request received, a
// message, a decision…), shown under the bell with a link, kept 90 days. Every insert or update
// notifies the channel 'rt_notifications' with the user id at commit (trigger in the migration),
// which every instance listens to and forwards to that member's open tabs (Server-Sent Events).
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** notification-rules.ts NOTIFICATION_KINDS. */
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body"),
    /** A path inside the application ("/mandates?matching=…"), never an external URL. */
    link: text("link"),
    readAt: ts("read_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** The to-do this notification opened (event-rules.ts taskKey), null when it opened none. */
    task: text("task"),
    /** When that to-do was done (the use case that did it completes it by its key). */
    doneAt: ts("done_at"),
  },
  (t) => [
    index("notifications_user_task_idx").on(t.userId, t.task).where(sql`${t.task} is not null and ${t.doneAt} is null`),
    index("notifications_user_created_idx").on(t.userId, t.createdAt.desc()),
    index("notifications_user_unread_idx").on(t.userId).where(sql`${t.readAt} is null`),
    index("notifications_created_idx").on(t.createdAt),
  ],
);

/** How often a member gets each e-mail kind (event-rules.ts EMAIL_KINDS); no row is the default. */
export const emailPreferences = pgTable(
  "email_preferences",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    emailKind: text("email_kind").notNull(),
    frequency: text("frequency").notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.emailKind] }),
    check("email_preferences_frequency_check", sql`${t.frequency} in ('immediate', 'daily', 'weekly', 'off')`),
  ],
);

/**
 * One row per digest sent (member, frequency, period start): the primary key is what keeps two
 * instances from sending one period twice; the row and the outbox message commit together.
 */
export const emailDigests = pgTable(
  "email_digests",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    frequency: text("frequency").notNull(),
    periodStart: ts("period_start").notNull(),
    /** The newest notification the digest carried: the next one starts after it. */
    upTo: ts("up_to").notNull(),
    notificationCount: integer("notification_count").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.frequency, t.periodStart] })],
);

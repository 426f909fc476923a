// The notification centre: what happened for a member (a request received, a
// message, a decision…), shown under the bell with a link, kept 90 days. Every insert or update
// notifies the channel 'rt_notifications' with the user id at commit (trigger in the migration),
// which every instance listens to and forwards to that member's open tabs (Server-Sent Events).
import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt.desc()),
    index("notifications_user_unread_idx").on(t.userId).where(sql`${t.readAt} is null`),
    index("notifications_created_idx").on(t.createdAt),
  ],
);

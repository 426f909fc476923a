// The notification centre: use cases create notifications with `notify` (inside
// their own transaction when they have one, like the mail outbox), the member reads them under
// the bell and marks them read. Every query is scoped by the acting user: another member's
// notification is never read nor touched (a miss is a 404).
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { db as defaultDb, type Db } from "~/db/client.server";
import { builtOnce } from "~/db/query.server";
import { notifications, profiles } from "~/db/schema";
import { cached, getCache, invalidate } from "~/lib/cache.server";
import { logger } from "~/lib/logger.server";
import { oncePerRequest } from "~/lib/request-scope.server";
import { startPeriodicJob, type PeriodicJob } from "~/lib/periodic-job.server";
import {
  BODY_MAX,
  clip,
  isInternalLink,
  NOTIFICATION_LIST_SIZE,
  retentionCutoff,
  TITLE_MAX,
  type NotificationKind,
  type NotificationState,
  type NotificationText,
} from "./notification-rules";
import { AppError } from "~/lib/errors/app-error";

export type { NotificationItem, NotificationState } from "./notification-rules";

export type NotificationActor = { user: { id: string } };

function row(text: NotificationText) {
  return {
    title: clip(text.title, TITLE_MAX),
    body: text.body ? clip(text.body, BODY_MAX) : null,
    link: text.link && isInternalLink(text.link) ? text.link : null,
  };
}

// clock_timestamp(), not now(): two notifications of one transaction keep their order.

/**
 * Every write to notifications goes through this file and drops this instance's kept bell first:
 * a member's next page shows it at once; the other instances hear of it at commit.
 */
function dropBell(userId?: string): void {
  invalidate(userId ? `notifications:${userId}` : "notifications");
}

/**
 * Creates a notification for a user (the live stream hears of it at commit). Pass the
 * transaction handle to create it atomically with the use case's own writes.
 */
export async function notify(userId: string, kind: NotificationKind, text: NotificationText, tx?: Db): Promise<string> {
  dropBell(userId);
  const [created] = await (tx ?? defaultDb)
    .insert(notifications)
    .values({ userId, kind, ...row(text), createdAt: sql`clock_timestamp()` })
    .returning({ id: notifications.id });
  return created!.id;
}

/**
 * `notify` for the owner of a profile (use cases know profiles). Nothing when it is gone. With
 * `whileUnread`, nothing either while the member has an unread one of this kind and link (a burst
 * of messages in one file makes one notification until it is read).
 */
export async function notifyProfile(
  profileId: string,
  kind: NotificationKind,
  text: NotificationText,
  tx?: Db,
  options: { whileUnread?: boolean } = {},
): Promise<void> {
  const { title, body, link } = row(text);
  const unreadTwin = options.whileUnread
    ? sql`and not exists (select 1 from notifications n where n.user_id = p.user_id and n.kind = ${kind}
        and n.link is not distinct from ${link} and n.read_at is null)`
    : sql``;
  dropBell();
  await (tx ?? defaultDb).execute(sql`
    insert into notifications (user_id, kind, title, body, link, created_at)
    select p.user_id, ${kind}, ${title}, ${body}, ${link}, clock_timestamp() from profiles p
    where p.id = ${profileId}::uuid ${unreadTwin}`);
}

/**
 * For a use case that has already committed: a notification that cannot be created is logged,
 * never an error for the member who acted (like its e-mail, spec §8).
 */
export async function notifyProfileSafely(profileId: string, kind: NotificationKind, text: NotificationText): Promise<void> {
  try {
    await notifyProfile(profileId, kind, text);
  } catch (error) {
    logger.warn({ err: error, kind }, "notification not created");
  }
}

/**
 * The unread count and the latest notifications of a user, in one statement (the frame of every
 * member page reads it): with no row at all, nothing is unread either.
 */
const notificationState = builtOnce(
  (db) =>
    db
      .select({
        id: notifications.id,
        kind: notifications.kind,
        title: notifications.title,
        body: notifications.body,
        link: notifications.link,
        createdAt: notifications.createdAt,
        readAt: notifications.readAt,
        unread: sql<number>`(select count(*) from notifications u where u.user_id = ${sql.placeholder("userId")} and u.read_at is null)`.mapWith(Number),
      })
      .from(notifications)
      .where(eq(notifications.userId, sql.placeholder("userId")))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(NOTIFICATION_LIST_SIZE),
  { reusablePlan: true },
);

export async function getNotificationState(userId: string, options: { fresh?: boolean } = {}): Promise<NotificationState> {
  // The frame and the notification centre both show it: one statement for the page, none while
  // this instance keeps the state (no change notified for this user since it was read). The live
  // stream reads it fresh: it runs on the trigger's NOTIFY, which may reach it before the cache's.
  const read = () => notificationState().execute({ userId });
  const rows = await (options.fresh ? read() : oncePerRequest(`notifications:${userId}`, () => cached(getCache("bells"), userId, read, { tags: [`notifications:${userId}`] })));
  return {
    unread: rows[0]?.unread ?? 0,
    items: rows.map(({ readAt, createdAt, unread: _unread, ...r }) => ({ ...r, createdAt: createdAt.toISOString(), read: readAt !== null })),
  };
}

/** The profile id's owner, for use cases that only hold a profile id. */
export async function userIdOfProfile(profileId: string, db: Db = defaultDb): Promise<string | null> {
  const [p] = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.id, profileId)).limit(1);
  return p?.userId ?? null;
}

const uuid = z.uuid();

/** Marks one of the actor's notifications read; returns its link. Another's (or none) is a 404. */
export async function markNotificationRead(actor: NotificationActor, notificationId: string): Promise<{ link: string | null }> {
  if (!uuid.safeParse(notificationId).success) throw new AppError("not-found", "Notification introuvable");
  dropBell(actor.user.id);
  const [updated] = await defaultDb
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(eq(notifications.id, notificationId), eq(notifications.userId, actor.user.id)))
    .returning({ link: notifications.link });
  if (!updated) throw new AppError("not-found", "Notification introuvable");
  return updated;
}

/** Marks every unread notification of the actor read; returns how many. */
export async function markAllNotificationsRead(actor: NotificationActor): Promise<number> {
  dropBell(actor.user.id);
  const rows = await defaultDb
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, actor.user.id), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** Deletes notifications past their retention (90 days). Returns how many. */
export async function purgeExpiredNotifications(now = new Date(), db: Db = defaultDb): Promise<number> {
  dropBell();
  const rows = await db
    .delete(notifications)
    .where(lt(notifications.createdAt, retentionCutoff(now)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** The purge, shortly after start and then every `intervalMs` (6 h), on any number of instances. */
export function startNotificationPurgeJob(options: { intervalMs?: number; initialDelayMs?: number } = {}): PeriodicJob {
  return startPeriodicJob({
    name: "notification purge",
    intervalMs: options.intervalMs ?? 6 * 60 * 60_000,
    initialDelayMs: options.initialDelayMs ?? 60_000,
    run: () => purgeExpiredNotifications(),
  });
}

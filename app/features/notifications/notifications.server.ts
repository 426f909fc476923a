// The notification centre: use cases create notifications with `notify` (inside
// their own transaction when they have one, like the mail outbox), the member reads them under
// the bell and marks them read. Every query is scoped by the acting user: another member's
// notification is never read nor touched (a miss is a 404).
import { type AnyColumn, and, desc, eq, isNull, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { db as defaultDb, type Db } from "~/db/client.server";
import { builtOnce, queryRows } from "~/db/query.server";
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

import { areaCounts, DEFAULT_EMAIL_FREQUENCIES, type EmailFrequency, type EmailKind, type EventKind, eventRule, isEmailFrequency, type OpenTask } from "./event-rules";

export type { NotificationItem, NotificationState } from "./notification-rules";


const jsonOf = <T>(v: unknown): T | null => (v === null || v === undefined ? null : typeof v === "string" ? (JSON.parse(v) as T) : (v as T));

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
export async function notify(userId: string, kind: NotificationKind, text: NotificationText, tx?: Db, options: { task?: string } = {}): Promise<string> {
  dropBell(userId);
  const [created] = await (tx ?? defaultDb)
    .insert(notifications)
    .values({ userId, kind, ...row(text), task: options.task ?? null, createdAt: sql`clock_timestamp()` })
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
  options: { whileUnread?: boolean; task?: string; whileOpen?: boolean } = {},
): Promise<void> {
  const { title, body, link } = row(text);
  const unreadTwin = options.whileUnread
    ? sql`and not exists (select 1 from notifications n where n.user_id = p.user_id and n.kind = ${kind}
        and n.link is not distinct from ${link} and n.read_at is null)`
    : sql``;
  // A job that runs every hour opens a to-do once, not once per run.
  const openTwin =
    options.whileOpen && options.task
      ? sql`and not exists (select 1 from notifications n where n.user_id = p.user_id and n.task = ${options.task} and n.done_at is null)`
      : sql``;
  dropBell();
  await (tx ?? defaultDb).execute(sql`
    insert into notifications (user_id, kind, title, body, link, task, created_at)
    select p.user_id, ${kind}, ${title}, ${body}, ${link}, ${options.task ?? null}, clock_timestamp() from profiles p
    where p.id = ${profileId}::uuid ${unreadTwin} ${openTwin}`);
}

/**
 * For a use case that has already committed: a notification that cannot be created is logged,
 * never an error for the member who acted (like its e-mail, spec §8).
 */
export async function notifyProfileSafely(profileId: string, kind: NotificationKind, text: NotificationText, options: { whileUnread?: boolean } = {}): Promise<void> {
  try {
    await notifyProfile(profileId, kind, text, undefined, options);
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
        // The counts of each area and the open to-dos ride on the same statement (no extra one per page).
        byKind: sql<unknown>`(select json_object_agg(k.kind, k.n) from (select u.kind, count(*) as n from notifications u
          where u.user_id = ${sql.placeholder("userId")} and u.read_at is null group by u.kind) k)`,
        // Every open to-do counted, one per subject, the kind being the key's prefix (the list itself is paged: openTasksPage).
        taskTotals: sql<unknown>`(select json_agg(json_build_object('kind', g.kind, 'count', g.n, 'link', g.link, 'at', g.at))
          from (select split_part(t.task, ':', 1) as kind, count(distinct t.task) as n, max(t.created_at) as at,
            (array_agg(t.link order by t.created_at desc))[1] as link
            from notifications t where t.user_id = ${sql.placeholder("userId")} and t.task is not null and t.done_at is null
            group by split_part(t.task, ':', 1)) g)`,
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
  const first = rows[0];
  const byKind = jsonOf<Record<string, number | string>>(first?.byKind) ?? {};
  const taskTotals = (jsonOf<Array<{ kind: string; count: number | string; link: string | null; at: string }>>(first?.taskTotals) ?? []).map((t) => ({
    ...t,
    count: Number(t.count),
    at: new Date(t.at).toISOString(),
  }));
  return {
    unread: first?.unread ?? 0,
    items: rows.map(({ readAt, createdAt, unread: _unread, byKind: _byKind, taskTotals: _taskTotals, ...r }) => ({ ...r, createdAt: createdAt.toISOString(), read: readAt !== null })),
    counts: areaCounts(Object.fromEntries(Object.entries(byKind).map(([k, n]) => [k, Number(n)]))),
    taskTotals,
  };
}

/** How many open to-dos one page of `openTasksPage` holds. */
export const OPEN_TASKS_PAGE_SIZE = 50;

export type OpenTasksPage = { tasks: OpenTask[]; next: string | null };

// The cursor keeps the timestamp as the database prints it: microseconds, which an ISO date would round away.
const taskCursor = z.object({ at: z.string().min(1).max(40), key: z.string().min(1).max(200) });

/**
 * One page of a member's open to-dos, newest first, one per subject (its newest notification):
 * the notification centre's list, with an opaque cursor (`next`, null on the last page).
 * A cursor that does not parse reads the first page.
 */
export async function openTasksPage(userId: string, cursor?: string | null, size = OPEN_TASKS_PAGE_SIZE): Promise<OpenTasksPage> {
  let after: z.infer<typeof taskCursor> | null = null;
  if (cursor) {
    try {
      const parsed = taskCursor.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
      after = parsed.success ? parsed.data : null;
    } catch {
      after = null;
    }
  }
  const past = after ? sql`where (t.created_at, t.task) < (${after.at}::timestamptz, ${after.key})` : sql``;
  const rows = await queryRows<{ key: string; kind: string; link: string | null; created_at: string | Date; at: string }>(
    sql`select t.task as key, t.kind, t.link, t.created_at, t.created_at::text as at from (
        select distinct on (n.task) n.task, n.kind, n.link, n.created_at from notifications n
        where n.user_id = ${userId} and n.task is not null and n.done_at is null
        order by n.task, n.created_at desc) t
      ${past} order by t.created_at desc, t.task desc limit ${size + 1}`,
    defaultDb,
  );
  const tasks = rows.slice(0, size).map((r) => ({ key: r.key, kind: r.kind, link: r.link, createdAt: new Date(r.created_at).toISOString() }));
  const last = rows[size - 1];
  const next = rows.length > size && last ? Buffer.from(JSON.stringify({ at: last.at, key: last.key }), "utf8").toString("base64url") : null;
  return { tasks, next };
}

/**
 * Marks a to-do done for whoever has it open (`taskKey` of event-rules), or only for one member:
 * the bell, the counts and « Ce qui vous attend » of every open tab hear of it at commit.
 */
export async function completeTask(task: string, tx?: Db, only: { userId?: string; profileId?: string } = {}): Promise<void> {
  dropBell(only.userId);
  const who = only.userId
    ? sql`and user_id = ${only.userId}`
    : only.profileId
      ? sql`and user_id = (select p.user_id from profiles p where p.id = ${only.profileId}::uuid)`
      : sql``;
  await (tx ?? defaultDb).execute(sql`update notifications set done_at = clock_timestamp() where task = ${task} and done_at is null ${who}`);
}

/**
 * Marks done the open to-dos of one kind whose subject no longer asks for anything, for the jobs
 * that notice it with time (a rating window closed, a mandate expired): `stillDue` says, in SQL
 * about the subject (the key after « kind: »), when the to-do stays open. Returns how many.
 */
export async function completeTasksNoLongerDue(kind: EventKind, stillDue: (subject: SQL) => SQL, tx?: Db): Promise<number> {
  dropBell();
  const subject = sql`substr(n.task, ${kind.length + 2})`;
  const rows = await queryRows<{ id: string }>(
    sql`update notifications n set done_at = clock_timestamp()
      where n.task like ${`${kind}:%`} and n.done_at is null and not (${stillDue(subject)}) returning n.id`,
    tx ?? defaultDb,
  );
  return rows.length;
}

/**
 * Records an event for a member (its notification, and its to-do when it opens one) and says how
 * that member wants its e-mail: the sender sends it now only when the answer is « immediate »;
 * « daily » and « weekly » go into the digest, « off » nowhere.
 */
export async function recordEvent(
  tx: Db,
  profileId: string,
  kind: NotificationKind,
  text: NotificationText,
  options: { whileUnread?: boolean; task?: string; whileOpen?: boolean } = {},
): Promise<EmailFrequency> {
  await notifyProfile(profileId, kind, text, tx, options);
  return emailFrequencyOfProfile(profileId, eventRule(kind).email, tx);
}

/** A member's frequency for one e-mail kind (the default when they never chose). */
export async function emailFrequencyOfProfile(profileId: string, email: EmailKind, tx: Db = defaultDb): Promise<EmailFrequency> {
  const rows = await queryRows<{ frequency: string | null }>(
    sql`select (select e.frequency from email_preferences e where e.user_id = p.user_id and e.email_kind = ${email}) as frequency
      from profiles p where p.id = ${profileId}::uuid`,
    tx,
  );
  const f = rows[0]?.frequency;
  return isEmailFrequency(f) ? f : DEFAULT_EMAIL_FREQUENCIES[email];
}

/**
 * SQL: the frequency a member chose for an e-mail kind, the default when they never chose; for the
 * senders that pick their recipients in one statement (`userId` is the column of their user id).
 */
export function emailFrequencySql(userId: SQL | AnyColumn, email: EmailKind): SQL<string> {
  return sql<string>`coalesce((select e.frequency from email_preferences e where e.user_id = ${userId} and e.email_kind = ${email}), ${DEFAULT_EMAIL_FREQUENCIES[email]})`;
}

/** SQL: the default frequency of the e-mail kind `kind` (an SQL expression), for statements over several kinds. */
export function defaultEmailFrequencySql(kind: SQL): SQL<string> {
  const cases = Object.entries(DEFAULT_EMAIL_FREQUENCIES).map(([k, f]) => sql` when ${k} then ${f}`);
  return sql<string>`(case ${kind}${sql.join(cases, sql``)} end)`;
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

/** Deletes notifications past their retention (90 days), but an open to-do stays until done. Returns how many. */
export async function purgeExpiredNotifications(now = new Date(), db: Db = defaultDb): Promise<number> {
  dropBell();
  const rows = await db
    .delete(notifications)
    .where(and(lt(notifications.createdAt, retentionCutoff(now)), sql`(${notifications.task} is null or ${notifications.doneAt} is not null)`))
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

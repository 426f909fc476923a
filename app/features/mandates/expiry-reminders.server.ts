// The 7-day expiry reminder: the owner of an active mandate gets one e-mail when its end date is
// at most 7 days away. Rows are claimed with an UPDATE … RETURNING on rows locked with SKIP
// LOCKED, and the e-mails are queued in the same transaction: any number of app instances may
// run this loop, each mandate is e-mailed once (editing the end date re-arms it).
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { getEnv } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { recordJobRun, registerJob } from "~/lib/metrics/signals.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { EXPIRY_REMINDER_DAYS, MANDATE_TYPE_LABELS, type MandateType } from "./mandate-rules";
import { PARIS_TODAY_SQL } from "./mandates.server";
import { notificationTexts } from "~/features/notifications/notification-rules";
import { completeTasksNoLongerDue, recordEvent } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import { invalidate } from "~/lib/cache.server";

type ClaimedRow = { id: string; client_code: string; end_date: string; mandate_type: MandateType; email: string; profile_id: string; days_left: number };

/** Claims up to `batchSize` due mandates and queues their reminders. Returns how many. */
export async function sendExpiryReminders(batchSize = 100): Promise<number> {
  const env = getEnv();
  return db.transaction(async (tx) => {
    invalidate("mandates");
    const rows = await queryRows<ClaimedRow>(
      sql`update mandates m set expiry_reminder_sent_at = now()
        from profiles p join "user" u on u.id = p.user_id
        where p.id = m.profile_id and m.expiry_reminder_sent_at is null and m.id in (
          select d.id from mandates d join profiles dp on dp.id = d.profile_id
          where d.status = 'active' and d.expiry_reminder_sent_at is null and dp.profile_status = 'validated'
            and d.end_date >= ${PARIS_TODAY_SQL}
            and d.end_date <= ${PARIS_TODAY_SQL} + ${EXPIRY_REMINDER_DAYS}::int
          order by d.end_date, d.id
          limit ${batchSize}
          for update of d skip locked)
        returning m.id, m.client_code, m.end_date::text as end_date, m.mandate_type::text as mandate_type, u.email, p.id as profile_id,
          m.end_date - ${PARIS_TODAY_SQL} as days_left`,
      tx,
    );
    for (const r of rows) {
      const end = formatDate(r.end_date);
      // A to-do until the mandate is extended, put on hold, concluded or past its end date; the
      // e-mail now only for « Immédiatement » under « Compte et mandats » (otherwise the digest).
      const frequency = await recordEvent(
        tx,
        r.profile_id,
        "mandate_expiring",
        notificationTexts.mandateExpiring({ clientCode: r.client_code, days: Number(r.days_left), mandateId: r.id }),
        { task: taskKey("mandate_expiring", r.id), whileOpen: true },
      );
      if (frequency !== "immediate") continue;
      await sendNotificationEmail(
        r.email,
        {
          title: `Votre mandat «\u00a0${r.client_code}\u00a0» expire le ${end}`,
          intro: `Votre ${MANDATE_TYPE_LABELS[r.mandate_type].toLowerCase()} «\u00a0${r.client_code}\u00a0» arrive à échéance le ${end}. Après cette date, il ne sera plus proposé aux confrères du réseau.`,
          lines: ["S’il est toujours d’actualité, prolongez-le en modifiant sa date de fin."],
          ctaLabel: "Prolonger le mandat",
          ctaUrl: `${env.APP_URL}/mandates?modifier=${r.id}`,
          footer: "Vous recevez cet e-mail car l’un de vos mandats arrive à échéance.",
          unsubscribeUrl: unsubscribeUrl(r.profile_id, "account"),
        },
        { kind: "mandate-expiry", dedupeKey: `mandate-expiry:${r.id}:${r.end_date}`, tx },
      );
    }
    return rows.length;
  });
}

/**
 * The to-dos « mandat arrive à échéance » whose mandate no longer asks for it: extended past the
 * reminder's horizon, no longer active (on hold, in negotiation, concluded), expired or deleted.
 */
export async function closeSettledMandateTasks(): Promise<number> {
  return completeTasksNoLongerDue(
    "mandate_expiring",
    (subject) => sql`exists (select 1 from mandates m where m.id::text = ${subject} and m.status = 'active'
      and m.end_date >= ${PARIS_TODAY_SQL} and m.end_date <= ${PARIS_TODAY_SQL} + ${EXPIRY_REMINDER_DAYS}::int)`,
  );
}

/** Its name in the metrics (`rt_job_last_success_timestamp_seconds{job}`). */
export const EXPIRY_REMINDER_JOB = "mandate expiry reminders";

export type ExpiryReminderJob = { runOnce(): Promise<number>; stop(): void };

/**
 * Runs the reminders shortly after start, then every `intervalMs` (hourly by default). The
 * timers never keep the process alive; errors are logged.
 */
export function startExpiryReminderJob(options: { intervalMs?: number; initialDelayMs?: number } = {}): ExpiryReminderJob {
  const intervalMs = options.intervalMs ?? 60 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running = false;
  const runOnce = async () => {
    if (running) return 0;
    running = true;
    try {
      let total = 0;
      await closeSettledMandateTasks();
      // Drain full batches before waiting for the next tick.
      for (let n = await sendExpiryReminders(); n > 0; n = await sendExpiryReminders()) {
        total += n;
        if (n < 100) break;
      }
      if (total > 0) logger.info({ count: total }, "mandate expiry reminders queued");
      recordJobRun(EXPIRY_REMINDER_JOB, true);
      return total;
    } catch (error) {
      recordJobRun(EXPIRY_REMINDER_JOB, false);
      logger.error({ err: error }, "mandate expiry reminders failed");
      return 0;
    } finally {
      running = false;
    }
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(async () => {
      await runOnce();
      schedule(intervalMs);
    }, delay);
    timer.unref();
  };
  registerJob(EXPIRY_REMINDER_JOB, intervalMs);
  schedule(options.initialDelayMs ?? 30_000);
  return {
    runOnce,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

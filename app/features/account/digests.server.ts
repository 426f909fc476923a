// The e-mail digests: a member who chose the daily (the default) or weekly summary for an e-mail
// kind gets one e-mail per period that lists, by title and link only, the notifications of those
// kinds since the previous digest. The row of email_digests (member, frequency, period start) and
// the outbox message commit together: whichever instance inserts the row first sends; the others
// find it and send nothing, so a period never gets two digests.
import { sql } from "drizzle-orm";
import { db as defaultDb, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { guestUnsubscribeUrl, unsubscribeUrl } from "./unsubscribe-link.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { startPeriodicJob, type PeriodicJob } from "~/lib/periodic-job.server";
import { defaultEmailFrequencySql } from "~/features/notifications/notifications.server";
import {
  DIGEST_KINDS,
  type DigestFrequency,
  digestPeriodStart,
  digestSections,
  digestSubject,
  EMAIL_KIND_LABELS,
  EVENT_RULES,
  type EmailKind,
} from "~/features/notifications/event-rules";

/** A digest goes out from this hour (UTC) of its period's first day: a morning e-mail. */
export const DIGEST_SEND_HOUR_UTC = 6;
/** The lines of one digest at most (the page lists the rest). */
const DIGEST_LINES_MAX = 50;
const PERIOD_MS: Record<DigestFrequency, number> = { daily: 24 * 60 * 60_000, weekly: 7 * 24 * 60 * 60_000 };

/** A guest account (no profile) gets its digest like a member: its links lead to its shared files. */
type Row = { user_id: string; profile_id: string | null; email: string; kind: string; email_kind: EmailKind; title: string; link: string | null; created_at: Date | string };

/** The e-mail kind of each digest kind, as SQL (the rules table, not a copy of it). */
function emailKindSql() {
  return sql.join(
    [sql`case n.kind`, ...DIGEST_KINDS.map((k) => sql`when ${k} then ${EVENT_RULES[k].email}`), sql`end`],
    sql` `,
  );
}

/**
 * Sends the digests of one frequency due at `now`: one per member with something new under a kind
 * they want at that frequency. Returns how many were sent (by this call).
 */
export async function sendDigests(frequency: DigestFrequency, now = new Date(), db: Db = defaultDb): Promise<number> {
  const periodStart = digestPeriodStart(now, frequency);
  if (now.getTime() < periodStart.getTime() + DIGEST_SEND_HOUR_UTC * 60 * 60_000) return 0;
  // The first digest of a member covers one period back at most.
  const floor = new Date(periodStart.getTime() - PERIOD_MS[frequency]);
  const rows = await queryRows<Row>(
    sql`select n.user_id, p.id as profile_id, u.email, n.kind, ${emailKindSql()} as email_kind, n.title, n.link, n.created_at
      from notifications n
      left join profiles p on p.user_id = n.user_id and p.profile_status = 'validated'
      join "user" u on u.id = n.user_id
      left join email_preferences e on e.user_id = n.user_id and e.email_kind = ${emailKindSql()}
      where n.kind in (${sql.join(
        DIGEST_KINDS.map((k) => sql`${k}`),
        sql`, `,
      )})
        and (p.id is not null or exists (select 1 from guest_accounts g where g.user_id = n.user_id))
        and coalesce(e.frequency, ${defaultEmailFrequencySql(emailKindSql())}) = ${frequency}
        and n.created_at <= ${now.toISOString()}::timestamptz
        and n.created_at > coalesce((select max(d.up_to) from email_digests d where d.user_id = n.user_id and d.frequency = ${frequency}), ${floor.toISOString()}::timestamptz)
        and not exists (select 1 from email_digests d where d.user_id = n.user_id and d.frequency = ${frequency} and d.period_start = ${periodStart.toISOString()}::timestamptz)
      order by n.user_id, n.created_at`,
    db,
  );
  const byUser = new Map<string, Row[]>();
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r]);
  let sent = 0;
  for (const [userId, items] of byUser) {
    try {
      if (await sendOneDigest(db, userId, items, frequency, periodStart)) sent++;
    } catch (error) {
      logger.warn({ err: error, frequency }, "digest not sent");
    }
  }
  return sent;
}

async function sendOneDigest(db: Db, userId: string, items: Row[], frequency: DigestFrequency, periodStart: Date): Promise<boolean> {
  const upTo = items.reduce((max, i) => (new Date(i.created_at) > max ? new Date(i.created_at) : max), new Date(0));
  const first = items[0]!;
  return db.transaction(async (tx) => {
    // The period's row decides who sends: a second instance conflicts here and sends nothing.
    const claimed = await queryRows<{ user_id: string }>(
      sql`insert into email_digests (user_id, frequency, period_start, up_to, notification_count)
        values (${userId}, ${frequency}, ${periodStart.toISOString()}::timestamptz, ${upTo.toISOString()}::timestamptz, ${items.length})
        on conflict do nothing returning user_id`,
      tx,
    );
    if (claimed.length === 0) return false;
    const appUrl = getEnv().APP_URL;
    const shown = items.slice(-DIGEST_LINES_MAX).reverse();
    const lines: string[] = [];
    for (const section of digestSections(shown)) {
      lines.push(`${section.label}\u00a0:`);
      for (const line of section.lines) lines.push(`— ${line.title}${line.link ? ` (${appUrl}${line.link})` : ""}`);
    }
    if (items.length > shown.length) lines.push(`Et ${items.length - shown.length} de plus, dans votre espace.`);
    const kinds = [...new Set(items.map((i) => i.email_kind))];
    // One-click links signed for the member's profile, or for the guest account (it has none).
    const profileId = first.profile_id;
    const oneClick = (kind: (typeof kinds)[number]) => (profileId ? unsubscribeUrl(profileId, kind) : guestUnsubscribeUrl(userId, kind));
    for (const kind of kinds) {
      lines.push(`Ne plus recevoir les e-mails «\u00a0${EMAIL_KIND_LABELS[kind].label}\u00a0»\u00a0: ${oneClick(kind)}`);
    }
    if (!profileId) lines.push(`Choisir les e-mails que vous recevez\u00a0: ${appUrl}/parametres/notifications`);
    await sendNotificationEmail(
      first.email,
      {
        title: digestSubject(items.length, frequency),
        intro:
          frequency === "daily"
            ? "Voici ce qui s’est passé pour vous sur le réseau depuis votre dernier résumé."
            : "Voici ce qui s’est passé pour vous sur le réseau cette semaine.",
        lines: [...lines, "Pour préserver la confidentialité, le détail se consulte sur la plateforme."],
        ctaLabel: profileId ? "Voir mes notifications" : "Voir mes dossiers partagés",
        ctaUrl: profileId ? `${appUrl}/dashboard/notifications` : `${appUrl}/dossiers-partages`,
        footer: "Vous recevez ce résumé selon vos préférences de notification, modifiables dans vos paramètres.",
        unsubscribeUrl: oneClick(kinds[0]!),
      },
      { kind: `digest-${frequency}`, tx, dedupeKey: `digest:${userId}:${frequency}:${periodStart.toISOString()}` },
    );
    return true;
  });
}

/** Both digests, every quarter of an hour, on any number of instances. */
export function startDigestJob(options: { intervalMs?: number; initialDelayMs?: number } = {}): PeriodicJob {
  return startPeriodicJob({
    name: "e-mail digests",
    intervalMs: options.intervalMs ?? 15 * 60_000,
    initialDelayMs: options.initialDelayMs ?? 90_000,
    run: async () => (await sendDigests("daily")) + (await sendDigests("weekly")),
  });
}

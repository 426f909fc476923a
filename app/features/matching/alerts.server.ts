// Alerts: when a mandate is created or reactivated, the owners of opposite active mandates that
// now score at least 60 with it get one e-mail (if they want such alerts at once; otherwise the
// digest carries the notification), without any client
// identity. One e-mail per owner and new mandate, ever: the outbox's dedupe key remembers it.
import { and, eq, inArray, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profiles, user } from "~/db/schema";
import { unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import {
  isMatchable,
  MANDATE_TYPE_LABELS,
  mandateSummaryLines,
  parisToday,
  sectorsSummary,
} from "~/features/mandates/mandate-rules";
import { getMyMandate, type MandateActor } from "~/features/mandates/mandates.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { notificationTexts } from "~/features/notifications/notification-rules";
import { emailFrequencySql, notifyProfileSafely } from "~/features/notifications/notifications.server";
import { ALERT_THRESHOLD } from "./match-score";
import { matchSourceOf, rankCandidates, type PotentialMatch } from "./matching.server";

/** Bounds the work of one creation: the best pairs, then at most this many owners. */
export const ALERT_CANDIDATES_LIMIT = 200;
export const ALERT_OWNERS_LIMIT = 50;

/**
 * Queues the alerts for one of the actor's mandates (404 for anyone else's). Returns how many
 * e-mails were queued. A failing e-mail is logged and skipped.
 */
export async function alertMatchingOwners(actor: MandateActor, mandateId: string): Promise<number> {
  const mandate = await getMyMandate(actor, mandateId);
  if (!isMatchable(mandate.status, mandate.endDate, parisToday())) return 0;
  const matches = await rankCandidates(matchSourceOf(mandate, actor.profileId), {
    limit: ALERT_CANDIDATES_LIMIT,
    minScore: ALERT_THRESHOLD,
  });
  const byOwner = new Map<string, PotentialMatch[]>();
  for (const m of matches) {
    const list = byOwner.get(m.owner.profileId) ?? [];
    list.push(m);
    byOwner.set(m.owner.profileId, list);
  }
  const owners = [...byOwner.keys()].slice(0, ALERT_OWNERS_LIMIT);
  if (owners.length === 0) return 0;
  // Every owner hears of it under the bell, whatever their e-mail preference; the mandate is
  // already committed, so a notification that fails is logged, never the creator's error.
  for (const owner of owners) {
    const best = byOwner.get(owner)![0]!;
    await notifyProfileSafely(owner, "new_match", notificationTexts.newMatch({ ownCode: best.clientCode, score: best.score.total, mandateId: best.id }), {
      whileUnread: true,
    });
  }
  const recipients = await db
    .select({ profileId: profiles.id, email: user.email })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    // The e-mail now for « Immédiatement »; « quotidien » and « hebdomadaire » get the digest.
    .where(and(inArray(profiles.id, owners), sql`${emailFrequencySql(profiles.userId, "match_alerts")} = 'immediate'`, eq(profiles.profileStatus, "validated")));
  const env = getEnv();
  const typeLabel = MANDATE_TYPE_LABELS[mandate.mandateType].toLowerCase();
  const summary = [`Secteur\u00a0: ${sectorsSummary(mandate)}`, ...mandateSummaryLines(mandate).map((l) => `${l.label}\u00a0: ${l.value}`)].join("\n");
  let queued = 0;
  for (const r of recipients) {
    const theirs = byOwner.get(r.profileId) ?? [];
    const best = theirs[0];
    if (!best) continue;
    try {
      const id = await sendNotificationEmail(
        r.email,
        {
          title: `Nouveau mandat compatible avec votre mandat «\u00a0${best.clientCode}\u00a0»`,
          intro: `Un ${typeLabel} (code «\u00a0${mandate.clientCode}\u00a0») vient d’être publié sur ${env.APP_NAME} et correspond à vos critères.`,
          lines: [
            theirs.map((m) => `Votre mandat «\u00a0${m.clientCode}\u00a0»\u00a0: compatibilité ${m.score.total}\u00a0%`).join("\n"),
            summary,
            "L’identité du client reste confidentielle\u00a0: demandez une mise en relation depuis votre espace pour aller plus loin.",
          ],
          ctaLabel: "Voir les mandats compatibles",
          ctaUrl: `${env.APP_URL}/mandates?matching=${best.id}`,
          footer: "Vous recevez cet e-mail car un nouveau mandat correspond à l’un de vos mandats actifs.",
          unsubscribeUrl: unsubscribeUrl(r.profileId, "match_alerts"),
        },
        { kind: "match-alert", dedupeKey: `match-alert:${mandate.id}:${r.profileId}` },
      );
      if (id !== null) queued++;
    } catch (error) {
      logger.warn({ err: error, mandateId: mandate.id, recipient: r.profileId }, "match alert failed");
    }
  }
  return queued;
}

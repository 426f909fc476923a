// Sponsor recommendations (spec §3 "Recommendation", §4 "Sponsor request").
import { and, asc, eq, isNull, notInArray } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { profiles, recommendations, user } from "~/db/schema";
import { notifyProfile } from "~/features/notifications/notifications.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { emailIdentity } from "./email-identity";
import type { Sponsor } from "./email-identity";
import { recommendationUrl, verifyRecommendationToken } from "./recommendation-link.server";
import { invalidate } from "~/lib/cache.server";
import { AppError } from "~/lib/errors/app-error";

export type SponsorView = { name: string; email: string; confirmedAt: string | null };

export async function listSponsors(profileId: string, handle: Db = db): Promise<SponsorView[]> {
  const rows = await handle
    .select({ name: recommendations.sponsorName, email: recommendations.sponsorEmail, confirmedAt: recommendations.confirmedAt })
    .from(recommendations)
    .where(eq(recommendations.profileId, profileId))
    .orderBy(asc(recommendations.createdAt), asc(recommendations.sponsorEmail));
  return rows.map((r) => ({ ...r, confirmedAt: r.confirmedAt?.toISOString() ?? null }));
}

/**
 * Makes the member's sponsors exactly `sponsors`: removes the unconfirmed ones that are no
 * longer listed, adds the new ones and e-mails each new sponsor a confirmation link. Sending is
 * queued in the same transaction; a failure to queue is logged and does not block (spec §7).
 */
export async function replaceSponsors(
  tx: Db,
  member: { profileId: string; firstName: string; lastName: string; company: string },
  sponsors: Sponsor[],
) {
  const emails = sponsors.map((s) => s.email);
  // Only a sponsor who is really new is written to (and counted): re-saving the same pair, or
  // correcting one of the two, sends nothing to the other.
  const current = await tx.select({ email: recommendations.sponsorEmail }).from(recommendations).where(eq(recommendations.profileId, member.profileId));
  const known = new Set(current.map((r) => r.email));
  const fresh = sponsors.filter((s) => !known.has(s.email));
  for (const s of fresh) await allowSponsorMail(tx, member.profileId, s.email);
  invalidate("recommendations");
  await tx
    .delete(recommendations)
    .where(
      and(eq(recommendations.profileId, member.profileId), isNull(recommendations.confirmedAt), notInArray(recommendations.sponsorEmail, emails)),
    );
  const inserted = await tx
    .insert(recommendations)
    .values(sponsors.map((s) => ({ profileId: member.profileId, sponsorName: s.name, sponsorEmail: s.email })))
    .onConflictDoNothing()
    .returning({ email: recommendations.sponsorEmail, name: recommendations.sponsorName });
  const env = getEnv();
  const memberName = `${member.firstName} ${member.lastName}`;
  for (const s of inserted) {
    try {
      await sendNotificationEmail(
        s.email,
        {
          // A fixed subject: nothing the applicant typed decides what the recipient reads first.
          title: `Demande de recommandation sur ${env.APP_NAME}`,
          intro: `Bonjour ${s.name}, ${memberName} (${member.company}) souhaite rejoindre ${env.APP_NAME}, le réseau des professionnels de la transmission d’entreprises, et vous demande de recommander sa candidature en tant que parrain.`,
          lines: [
            "Le réseau est réservé aux professionnels recommandés par deux confrères. En confirmant, vous attestez connaître son sérieux et sa pratique professionnelle.",
            "Si vous ne connaissez pas cette personne, ignorez simplement cet e-mail.",
          ],
          ctaLabel: "Confirmer ma recommandation",
          ctaUrl: recommendationUrl(member.profileId, s.email),
          footer: `Vous recevez cet e-mail car ${memberName} vous a indiqué comme parrain.`,
        },
        { kind: "sponsor-request", dedupeKey: `sponsor:${member.profileId}:${s.email}`, tx },
      );
    } catch (error) {
      logger.warn({ err: error, profileId: member.profileId }, "sponsor e-mail could not be queued");
    }
  }
}

/**
 * Sponsor requests are e-mails to addresses the applicant types: limited per applicant (a day,
 * and in all for one application) and per recipient mailbox, so that the sponsors step cannot
 * be used to mail strangers.
 */
export const SPONSOR_MAIL_LIMITS = {
  applicantPerDay: { limit: 6, windowSeconds: 24 * 60 * 60 },
  applicantInAll: { limit: 10, windowSeconds: 365 * 24 * 60 * 60 },
  recipientPerDay: { limit: 3, windowSeconds: 24 * 60 * 60 },
} satisfies Record<string, RateLimitRule>;

export const SPONSOR_LIMIT_MESSAGE =
  "Vous avez atteint le nombre maximal de demandes de recommandation envoyées. Réessayez demain, ou écrivez-nous depuis la page Contact si vous devez changer de parrains.";

async function allowSponsorMail(tx: Db, profileId: string, email: string): Promise<void> {
  for (const [key, rule] of [
    [`sponsor-mail:day:${profileId}`, SPONSOR_MAIL_LIMITS.applicantPerDay],
    [`sponsor-mail:all:${profileId}`, SPONSOR_MAIL_LIMITS.applicantInAll],
    [`sponsor-mail:to:${emailIdentity(email)}`, SPONSOR_MAIL_LIMITS.recipientPerDay],
  ] as const) {
    if (!(await consumeRateLimit(key, rule, tx)).allowed) throw new AppError("rate-limited", SPONSOR_LIMIT_MESSAGE);
  }
}

export type ConfirmOutcome = "missing" | "not-found" | "confirmed" | "already-confirmed";

/** Looks up a recommendation from a confirmation link. Forged tokens look like unknown ones. */
export async function findRecommendationFromLink(params: { profile: string | null; email: string | null; token: string | null }) {
  if (!params.profile || !params.email) return { outcome: "missing" as const };
  const email = params.email.trim().toLowerCase();
  if (!/^[0-9a-f-]{36}$/i.test(params.profile) || !verifyRecommendationToken(params.profile, email, params.token)) {
    return { outcome: "not-found" as const };
  }
  const rows = await db
    .select({
      id: recommendations.id,
      confirmedAt: recommendations.confirmedAt,
      sponsorName: recommendations.sponsorName,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      company: profiles.company,
    })
    .from(recommendations)
    .innerJoin(profiles, eq(profiles.id, recommendations.profileId))
    .where(and(eq(recommendations.profileId, params.profile), eq(recommendations.sponsorEmail, email)))
    .limit(1);
  const r = rows[0];
  if (!r) return { outcome: "not-found" as const };
  return {
    outcome: r.confirmedAt ? ("already-confirmed" as const) : ("pending" as const),
    id: r.id,
    sponsorName: r.sponsorName,
    memberName: `${r.firstName} ${r.lastName}`,
    company: r.company,
  };
}

/** Sets confirmed_at once; an already confirmed recommendation is left unchanged. */
export async function confirmRecommendation(params: { profile: string | null; email: string | null; token: string | null }): Promise<ConfirmOutcome> {
  const found = await findRecommendationFromLink(params);
  if (found.outcome === "missing" || found.outcome === "not-found") return found.outcome;
  invalidate("recommendations");
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(recommendations)
      .set({ confirmedAt: new Date() })
      .where(and(eq(recommendations.id, found.id), isNull(recommendations.confirmedAt)))
      .returning({ profileId: recommendations.profileId, sponsorEmail: recommendations.sponsorEmail });
    if (!updated) return "already-confirmed";
    // The candidate hears it; so does the sponsor when they are a member (an acknowledgement).
    await notifyProfile(updated.profileId, "sponsor_confirmed", {
      title: "Un parrainage est confirmé",
      body: `${found.sponsorName} a confirmé vous recommander auprès du réseau.`,
      link: "/dashboard",
    }, tx);
    const [sponsor] = await tx
      .select({ profileId: profiles.id })
      .from(profiles)
      .innerJoin(user, eq(user.id, profiles.userId))
      .where(and(eq(user.email, updated.sponsorEmail), eq(profiles.profileStatus, "validated")))
      .limit(1);
    if (sponsor && sponsor.profileId !== updated.profileId) {
      await notifyProfile(sponsor.profileId, "sponsor_confirmed", {
        title: "Votre parrainage est enregistré",
        body: `Merci\u00a0: votre recommandation de ${found.memberName} est transmise à l’équipe du réseau.`,
        link: null,
      }, tx);
    }
    return "confirmed";
  });
}

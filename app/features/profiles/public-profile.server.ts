// The public profile page: the explicit projection of spec §3 "Public profile". Never the
// internal presentation, user id, e-mail or status.
import { and, desc, eq, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { certifiedDeals, profiles } from "~/db/schema";
import { publicDealView } from "~/features/deals/deal-disclosure";
import { isPremium } from "~/auth/permissions";
import { profileSlug } from "~/lib/slug";
import { parisToday } from "~/features/mandates/mandate-rules";
import { verificationMark, type VerificationMarkView } from "~/features/trust/verification-rules";
import { getReputation } from "~/features/trust/reputation.server";
import { reputationBadges, type ReputationBadge } from "~/features/trust/reputation-rules";

/** A validated deal as the public sees it: `title` names the parties only when the member chose to. */
export type PublicDeal = { id: string; year: number; sector: string; title: string; dealDescription: string | null; named: boolean };

export type PublicProfile = {
  id: string;
  slug: string;
  firstName: string;
  lastName: string;
  company: string;
  profession: string;
  locationCity: string | null;
  locationDepartment: string | null;
  fullAddress: string | null;
  photoUrl: string | null;
  logoUrl: string | null;
  linkedinUrl: string | null;
  detailedPresentation: string | null;
  experienceDescription: string | null;
  recentOperations: string | null;
  specializationSectors: string[];
  conseilType: string | null;
  membershipType: "freemium" | "premium" | "founding_member";
  createdAt: string;
  certifiedDeals: PublicDeal[];
  /** Collaboration files concluded by both members (« N rapprochements conclus via le réseau »). */
  closingsCount: number;
  /** The "Profil vérifié" mark: what was checked and when, never any evidence. */
  verification: VerificationMarkView | null;
  /** Badges earned by behaviour, from the stored reputation figures. */
  reputationBadges: ReputationBadge[];
  /** Average and count of the ratings received: only when the member consents. */
  ratings: { average: number; count: number } | null;
};

export const PUBLIC_PROFILE_KEYS = [
  "id", "slug", "firstName", "lastName", "company", "profession", "locationCity", "locationDepartment",
  "fullAddress", "photoUrl", "logoUrl", "linkedinUrl", "detailedPresentation", "experienceDescription",
  "recentOperations", "specializationSectors", "conseilType", "membershipType", "createdAt", "certifiedDeals",
  "closingsCount", "verification", "reputationBadges", "ratings",
] as const satisfies ReadonlyArray<keyof PublicProfile>;

/** Only http(s) links are ever rendered as links. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** `handle`: the public profile page reads through the read replica (app/db/read-replica.server.ts). */
export async function getPublicProfile(id: string, handle: Db = db): Promise<PublicProfile | null> {
  const rows = await handle
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      company: profiles.company,
      profession: profiles.profession,
      locationCity: profiles.locationCity,
      locationDepartment: profiles.locationDepartment,
      fullAddress: profiles.fullAddress,
      photoUrl: profiles.photoUrl,
      logoUrl: profiles.logoUrl,
      linkedinUrl: profiles.linkedinUrl,
      detailedPresentation: profiles.detailedPresentation,
      experienceDescription: profiles.experienceDescription,
      recentOperations: profiles.recentOperations,
      specializationSectors: profiles.specializationSectors,
      conseilType: profiles.conseilType,
      membershipType: profiles.membershipType,
      createdAt: profiles.createdAt,
      verificationSummary: profiles.verificationSummary,
      insuranceValidUntil: profiles.insuranceValidUntil,
      showRatingsPublicly: profiles.showRatingsPublicly,
    })
    .from(profiles)
    .where(and(eq(profiles.id, id), eq(profiles.profileStatus, "validated")))
    .limit(1);
  const p = rows[0];
  if (!p) return null;
  const premium = isPremium(p.membershipType);
  // Presentation and certified deals are premium features (spec §2, §6).
  const deals = premium
    ? await handle
        .select({
          id: certifiedDeals.id,
          year: certifiedDeals.year,
          sector: certifiedDeals.sector,
          acquirerCedant: certifiedDeals.acquirerCedant,
          dealDescription: certifiedDeals.dealDescription,
          disclosure: certifiedDeals.disclosure,
          sizeBand: certifiedDeals.sizeBand,
          region: certifiedDeals.region,
          partiesConsentAt: certifiedDeals.partiesConsentAt,
        })
        .from(certifiedDeals)
        .where(and(eq(certifiedDeals.profileId, id), eq(certifiedDeals.status, "validated")))
        .orderBy(desc(certifiedDeals.year), desc(certifiedDeals.createdAt))
    : [];
  // The parties' names never leave this function unless the deal's disclosure allows them.
  const publicDeals: PublicDeal[] = deals.map((d) => ({ id: d.id, ...publicDealView(d) }));
  // A count only: which files, with whom and for which clients stays private. The page cache is
  // dropped when a file concludes (migration 0010).
  const [closings] = await queryRows<{ n: number | string }>(sql`
    select (select count(*) from collaboration_files where member_a_id = ${id}::uuid and stage = 'concluded')
         + (select count(*) from collaboration_files where member_b_id = ${id}::uuid and stage = 'concluded') as n`, handle);
  // The summary and the end date feed the mark only; neither leaves the server as such.
  const reputation = await getReputation(id, handle);
  const { verificationSummary, insuranceValidUntil, showRatingsPublicly, ...pub } = p;
  return {
    ...pub,
    slug: profileSlug({ firstName: p.firstName, lastName: p.lastName, profession: p.profession, id: p.id }),
    linkedinUrl: safeHttpUrl(p.linkedinUrl),
    detailedPresentation: premium ? p.detailedPresentation : null,
    specializationSectors: p.specializationSectors ?? [],
    createdAt: p.createdAt.toISOString(),
    certifiedDeals: publicDeals,
    closingsCount: Number(closings?.n ?? 0),
    verification: verificationMark(verificationSummary, insuranceValidUntil, parisToday()),
    reputationBadges: reputationBadges(reputation),
    ratings:
      showRatingsPublicly && reputation && reputation.ratingsCount > 0 && reputation.ratingAverage !== null
        ? { average: reputation.ratingAverage, count: reputation.ratingsCount }
        : null,
  };
}

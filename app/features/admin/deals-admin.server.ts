// Certified deals in the back office (spec §2 "Admin" Deals, §4 "Certified deal"): the pending
// references and their review. Only a pending deal can be decided; the decision, the member's
// e-mail and the audit row commit together.
import { and, asc, count, countDistinct, eq } from "drizzle-orm";
import type { SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { professionLabel, sectorName } from "~/db/reference";
import { certifiedDeals, profiles, user } from "~/db/schema";
import { publicDealView } from "~/features/deals/deal-disclosure";
import { getEnv } from "~/lib/env.server";
import { cached, getCache, invalidate } from "~/lib/cache.server";
import { sendEmail } from "~/lib/mail/render.server";
import { dealReviewed } from "~/lib/mail/templates/deal-reviewed";
import { AdminActionError } from "./admin-errors";
import { ADMIN_PAGE_SIZE, type DealListQuery } from "./admin.schema";
import { recordAdminAction } from "./audit.server";
import { notificationTexts } from "~/features/notifications/notification-rules";
import { notifyProfile } from "~/features/notifications/notifications.server";

export type AdminDealRow = {
  id: string;
  profileId: string;
  memberName: string;
  company: string;
  year: number;
  acquirerCedant: string;
  sector: string;
  sectorName: string;
  status: "pending" | "validated" | "rejected";
  createdAt: string;
};

export type AdminDealPage = { rows: AdminDealRow[]; total: number; profilesCount: number; page: number; pageCount: number };

const pending = eq(certifiedDeals.status, "pending");

/** Pending deals, oldest first (first submitted, first reviewed), with their professional. */
export async function listPendingDeals(query: DealListQuery): Promise<AdminDealPage> {
  // Counted over every pending deal: kept by the instance like the other admin totals, dropped
  // on any write to certified_deals (migration 0020).
  const { total, members } = await cached(getCache("admin-totals"), "deals:pending", async () => {
    const [{ n, members }] = await db
      .select({ n: count(), members: countDistinct(certifiedDeals.profileId) })
      .from(certifiedDeals)
      .where(pending);
    return { total: Number(n), members: Number(members) };
  });
  const pageCount = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const rows = await db
    .select({
      id: certifiedDeals.id,
      profileId: certifiedDeals.profileId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      company: profiles.company,
      year: certifiedDeals.year,
      acquirerCedant: certifiedDeals.acquirerCedant,
      sector: certifiedDeals.sector,
      status: certifiedDeals.status,
      createdAt: certifiedDeals.createdAt,
    })
    .from(certifiedDeals)
    .innerJoin(profiles, eq(profiles.id, certifiedDeals.profileId))
    .where(pending)
    .orderBy(asc(certifiedDeals.createdAt), asc(certifiedDeals.id))
    .limit(ADMIN_PAGE_SIZE)
    .offset((page - 1) * ADMIN_PAGE_SIZE);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      profileId: r.profileId,
      memberName: `${r.firstName} ${r.lastName}`,
      company: r.company,
      year: r.year,
      acquirerCedant: r.acquirerCedant,
      sector: r.sector,
      sectorName: sectorName(r.sector),
      status: r.status,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
    profilesCount: members,
    page,
    pageCount,
  };
}

export type AdminDealDetail = AdminDealRow & {
  dealDescription: string | null;
  /** What the public profile will show once validated, beside the parties the admin checks. */
  publicTitle: string;
  named: boolean;
  partiesConsentAt: string | null;
  professionLabel: string;
  membershipType: string;
  profileStatus: string;
  rejectionReason: string | null;
};

export async function getDealForAdmin(dealId: string): Promise<AdminDealDetail | null> {
  const [r] = await db
    .select({
      id: certifiedDeals.id,
      profileId: certifiedDeals.profileId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      company: profiles.company,
      profession: profiles.profession,
      membershipType: profiles.membershipType,
      profileStatus: profiles.profileStatus,
      year: certifiedDeals.year,
      acquirerCedant: certifiedDeals.acquirerCedant,
      sector: certifiedDeals.sector,
      dealDescription: certifiedDeals.dealDescription,
      disclosure: certifiedDeals.disclosure,
      sizeBand: certifiedDeals.sizeBand,
      region: certifiedDeals.region,
      partiesConsentAt: certifiedDeals.partiesConsentAt,
      status: certifiedDeals.status,
      rejectionReason: certifiedDeals.rejectionReason,
      createdAt: certifiedDeals.createdAt,
    })
    .from(certifiedDeals)
    .innerJoin(profiles, eq(profiles.id, certifiedDeals.profileId))
    .where(eq(certifiedDeals.id, dealId))
    .limit(1);
  if (!r) return null;
  const view = publicDealView(r);
  return {
    id: r.id,
    profileId: r.profileId,
    memberName: `${r.firstName} ${r.lastName}`,
    company: r.company,
    professionLabel: professionLabel(r.profession),
    membershipType: r.membershipType,
    profileStatus: r.profileStatus,
    year: r.year,
    acquirerCedant: r.acquirerCedant,
    sector: r.sector,
    sectorName: sectorName(r.sector),
    dealDescription: r.dealDescription,
    publicTitle: view.title,
    named: view.named,
    partiesConsentAt: r.partiesConsentAt?.toISOString() ?? null,
    status: r.status,
    rejectionReason: r.rejectionReason,
    createdAt: r.createdAt.toISOString(),
  };
}

/** pending → validated (validated_at, validated_by) or rejected (optional reason, shown to the member). */
export async function decideDeal(
  actor: Pick<SessionUser, "id">,
  dealId: string,
  decision: { outcome: "validated" | "rejected"; reason?: string | null },
): Promise<void> {
  const reason = decision.reason?.trim() || null;
  const done = await db.transaction(async (tx) => {
    const now = new Date();
    const validated = decision.outcome === "validated";
    invalidate("certified_deals");
    const [deal] = await tx
      .update(certifiedDeals)
      .set(
        validated
          ? { status: "validated", validatedAt: now, validatedBy: actor.id, rejectionReason: null, updatedAt: now }
          : { status: "rejected", rejectionReason: reason, validatedAt: null, validatedBy: null, updatedAt: now },
      )
      .where(and(eq(certifiedDeals.id, dealId), pending))
      .returning({ id: certifiedDeals.id, profileId: certifiedDeals.profileId, year: certifiedDeals.year, acquirerCedant: certifiedDeals.acquirerCedant });
    if (!deal) return false;
    const [member] = await tx
      .select({ firstName: profiles.firstName, lastName: profiles.lastName, company: profiles.company, email: user.email })
      .from(profiles)
      .innerJoin(user, eq(user.id, profiles.userId))
      .where(eq(profiles.id, deal.profileId))
      .limit(1);
    await sendEmail(
      dealReviewed,
      {
        firstName: member.firstName,
        deal: deal.acquirerCedant,
        year: deal.year,
        outcome: decision.outcome,
        reason: validated ? null : reason,
        profileUrl: `${getEnv().APP_URL}/dashboard/profil`,
      },
      { to: member.email, tx },
    );
    await notifyProfile(deal.profileId, "deal_decision", notificationTexts.dealDecision({ approved: validated, label: `${deal.acquirerCedant} (${deal.year})` }), tx);
    await recordAdminAction(tx, actor, {
      action: validated ? "deal.validate" : "deal.reject",
      targetId: deal.id,
      details: {
        target: `${member.firstName} ${member.lastName} (${member.company})`,
        deal: `${deal.acquirerCedant} (${deal.year})`,
        ...(validated ? {} : { reason }),
      },
    });
    return true;
  });
  if (done) return;
  const [exists] = await db.select({ id: certifiedDeals.id }).from(certifiedDeals).where(eq(certifiedDeals.id, dealId)).limit(1);
  throw exists ? new AdminActionError(409, "Seule une transaction en attente peut être validée ou rejetée.") : new AdminActionError(404, "Transaction introuvable");
}

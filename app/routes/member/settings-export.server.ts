// "Exporter mes données" (GDPR access and portability): everything the member owns, as one JSON
// document. Explicit projections only, all scoped by the acting user: other members appear at
// most through what they chose to send (a received message's sender name and e-mail) or what
// identifies a counterpart's mandate without revealing it (its client code).
import { and, desc, eq, gt, inArray, like } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import {
  auditLog,
  certifiedDeals,
  connectionEvents,
  mandateMatchRequests,
  mandates,
  messages,
  payments,
  profiles,
  recommendations,
  session,
  user,
  userRoles,
} from "~/db/schema";
import { collaborationDataOf } from "~/features/collaboration/export.server";
import { mediationsOfMember } from "~/features/mediation/mediation-views.server";
import type { AccountActor } from "~/features/account/account.server";
import { describeUserAgent } from "~/features/account/user-agent";

export const EXPORT_FORMAT = "reseau-transmission.export/v1";

export function exportFileName(now = new Date()): string {
  return `mes-donnees-${now.toISOString().slice(0, 10)}.json`;
}

const mine = alias(mandates, "my_mandate");
const theirs = alias(mandates, "their_mandate");

async function matchRequestsOf(profileId: string) {
  const columns = {
    id: mandateMatchRequests.id,
    status: mandateMatchRequests.status,
    message: mandateMatchRequests.message,
    createdAt: mandateMatchRequests.createdAt,
    respondedAt: mandateMatchRequests.respondedAt,
    myMandateId: mine.id,
    myMandateClientCode: mine.clientCode,
    counterpartMandateType: theirs.mandateType,
    counterpartClientCode: theirs.clientCode,
  };
  const sent = await db
    .select(columns)
    .from(mandateMatchRequests)
    .innerJoin(mine, eq(mine.id, mandateMatchRequests.requesterMandateId))
    .innerJoin(theirs, eq(theirs.id, mandateMatchRequests.targetMandateId))
    .where(and(eq(mandateMatchRequests.requesterProfileId, profileId), eq(mine.profileId, profileId)))
    .orderBy(desc(mandateMatchRequests.createdAt));
  const received = await db
    .select(columns)
    .from(mandateMatchRequests)
    .innerJoin(mine, eq(mine.id, mandateMatchRequests.targetMandateId))
    .innerJoin(theirs, eq(theirs.id, mandateMatchRequests.requesterMandateId))
    .where(eq(mine.profileId, profileId))
    .orderBy(desc(mandateMatchRequests.createdAt));
  const shape = (direction: "sent" | "received") => (r: (typeof sent)[number]) => ({
    id: r.id,
    direction,
    status: r.status,
    message: r.message,
    created_at: r.createdAt,
    responded_at: r.respondedAt,
    my_mandate: { id: r.myMandateId, client_code: r.myMandateClientCode },
    counterpart_mandate: { mandate_type: r.counterpartMandateType, client_code: r.counterpartClientCode },
  });
  return [...sent.map(shape("sent")), ...received.map(shape("received"))];
}

async function connectionEventsOf(profileId: string, requestIds: string[]) {
  if (requestIds.length === 0) return [];
  const rows = await db
    .select({
      matchRequestId: connectionEvents.matchRequestId,
      event: connectionEvents.event,
      actorProfileId: connectionEvents.actorProfileId,
      details: connectionEvents.details,
      createdAt: connectionEvents.createdAt,
    })
    .from(connectionEvents)
    .where(inArray(connectionEvents.matchRequestId, requestIds))
    .orderBy(connectionEvents.createdAt);
  return rows.map((r) => {
    const byMe = r.actorProfileId === profileId;
    // A counterpart's own notes stay theirs: only the member's events keep their details.
    return { match_request_id: r.matchRequestId, event: r.event, actor: byMe ? "vous" : "contrepartie", details: byMe ? r.details : null, created_at: r.createdAt };
  });
}

async function profileData(profileId: string) {
  const [deals, recos, received, sent, ownMandates, ownPayments] = await Promise.all([
    db
      .select({
        id: certifiedDeals.id,
        year: certifiedDeals.year,
        sector: certifiedDeals.sector,
        acquirer_cedant: certifiedDeals.acquirerCedant,
        deal_description: certifiedDeals.dealDescription,
        disclosure: certifiedDeals.disclosure,
        size_band: certifiedDeals.sizeBand,
        region: certifiedDeals.region,
        parties_consent_at: certifiedDeals.partiesConsentAt,
        status: certifiedDeals.status,
        rejection_reason: certifiedDeals.rejectionReason,
        validated_at: certifiedDeals.validatedAt,
        created_at: certifiedDeals.createdAt,
        updated_at: certifiedDeals.updatedAt,
      })
      .from(certifiedDeals)
      .where(eq(certifiedDeals.profileId, profileId))
      .orderBy(desc(certifiedDeals.year)),
    db
      .select({
        sponsor_name: recommendations.sponsorName,
        sponsor_email: recommendations.sponsorEmail,
        created_at: recommendations.createdAt,
        confirmed_at: recommendations.confirmedAt,
      })
      .from(recommendations)
      .where(eq(recommendations.profileId, profileId))
      .orderBy(recommendations.createdAt),
    db
      .select({
        id: messages.id,
        message_type: messages.messageType,
        sender_name: messages.senderName,
        sender_email: messages.senderEmail,
        subject: messages.subject,
        content: messages.content,
        is_read: messages.isRead,
        created_at: messages.createdAt,
      })
      .from(messages)
      .where(eq(messages.recipientId, profileId))
      .orderBy(desc(messages.createdAt)),
    db
      .select({
        id: messages.id,
        message_type: messages.messageType,
        recipient_first_name: profiles.firstName,
        recipient_last_name: profiles.lastName,
        recipient_company: profiles.company,
        subject: messages.subject,
        content: messages.content,
        created_at: messages.createdAt,
      })
      .from(messages)
      .innerJoin(profiles, eq(profiles.id, messages.recipientId))
      .where(eq(messages.senderId, profileId))
      .orderBy(desc(messages.createdAt)),
    db
      .select({
        id: mandates.id,
        mandate_type: mandates.mandateType,
        is_exclusive: mandates.isExclusive,
        start_date: mandates.startDate,
        end_date: mandates.endDate,
        client_code: mandates.clientCode,
        client_name: mandates.clientName,
        client_address: mandates.clientAddress,
        description: mandates.description,
        status: mandates.status,
        search_sectors: mandates.searchSectors,
        search_territories: mandates.searchTerritories,
        target_amount_min: mandates.targetAmountMin,
        target_amount_max: mandates.targetAmountMax,
        contribution_min: mandates.contributionMin,
        contribution_max: mandates.contributionMax,
        ma_usage: mandates.maUsage,
        company_sector: mandates.companySector,
        company_territory: mandates.companyTerritory,
        company_description: mandates.companyDescription,
        valuation_amount: mandates.valuationAmount,
        required_contribution_min: mandates.requiredContributionMin,
        required_contribution_max: mandates.requiredContributionMax,
        project_timeline: mandates.projectTimeline,
        target_buyer_types: mandates.targetBuyerTypes,
        created_at: mandates.createdAt,
        updated_at: mandates.updatedAt,
      })
      .from(mandates)
      .where(eq(mandates.profileId, profileId))
      .orderBy(desc(mandates.createdAt)),
    db
      .select({
        provider: payments.provider,
        status: payments.status,
        amount_cents: payments.amountCents,
        currency: payments.currency,
        paid_at: payments.paidAt,
        created_at: payments.createdAt,
      })
      .from(payments)
      .where(eq(payments.profileId, profileId))
      .orderBy(desc(payments.createdAt)),
  ]);
  const requests = await matchRequestsOf(profileId);
  const events = await connectionEventsOf(
    profileId,
    requests.map((r) => r.id),
  );
  const [collaborationFiles, ownMediations] = await Promise.all([collaborationDataOf(profileId), mediationsOfMember(profileId)]);
  return {
    certified_deals: deals,
    recommendations: recos,
    messages_received: received,
    messages_sent: sent,
    mandates: ownMandates,
    match_requests: requests,
    connection_events: events,
    collaboration_files: collaborationFiles,
    mediations: ownMediations,
    payments: ownPayments,
  };
}

export async function buildDataExport(actor: AccountActor, now = new Date()) {
  const [account] = await db
    .select({
      email: user.email,
      email_verified: user.emailVerified,
      two_factor_enabled: user.twoFactorEnabled,
      created_at: user.createdAt,
      updated_at: user.updatedAt,
    })
    .from(user)
    .where(eq(user.id, actor.id))
    .limit(1);
  const roles = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, actor.id));
  const sessions = await db
    .select({ userAgent: session.userAgent, ipAddress: session.ipAddress, createdAt: session.createdAt, updatedAt: session.updatedAt, expiresAt: session.expiresAt })
    .from(session)
    .where(and(eq(session.userId, actor.id), gt(session.expiresAt, now)))
    .orderBy(desc(session.createdAt));
  const securityEvents = await db
    .select({ action: auditLog.action, created_at: auditLog.createdAt })
    .from(auditLog)
    // The member's own account events only (an admin's decisions about others are not theirs).
    .where(and(eq(auditLog.actorUserId, actor.id), like(auditLog.action, "account.%")))
    .orderBy(desc(auditLog.createdAt))
    .limit(500);
  const [profile] = await db
    .select({
      id: profiles.id,
      first_name: profiles.firstName,
      last_name: profiles.lastName,
      company: profiles.company,
      profession: profiles.profession,
      college: profiles.college,
      onboarding_status: profiles.onboardingStatus,
      charter_signed_at: profiles.charterSignedAt,
      linkedin_url: profiles.linkedinUrl,
      experience_description: profiles.experienceDescription,
      recent_operations: profiles.recentOperations,
      location_city: profiles.locationCity,
      location_department: profiles.locationDepartment,
      full_address: profiles.fullAddress,
      specialization_sectors: profiles.specializationSectors,
      detailed_presentation: profiles.detailedPresentation,
      internal_presentation: profiles.internalPresentation,
      logo_url: profiles.logoUrl,
      photo_url: profiles.photoUrl,
      conseil_type: profiles.conseilType,
      membership_type: profiles.membershipType,
      profile_status: profiles.profileStatus,
      validated_at: profiles.validatedAt,
      rejection_reason: profiles.rejectionReason,
      suspended_at: profiles.suspendedAt,
      notify_messages: profiles.notifyMessages,
      notify_match_requests: profiles.notifyMatchRequests,
      notify_match_alerts: profiles.notifyMatchAlerts,
      created_at: profiles.createdAt,
      updated_at: profiles.updatedAt,
    })
    .from(profiles)
    .where(eq(profiles.userId, actor.id))
    .limit(1);
  return {
    format: EXPORT_FORMAT,
    exported_at: now,
    account: {
      ...account,
      roles: roles.map((r) => r.role),
      sessions: sessions.map((s) => ({
        device: describeUserAgent(s.userAgent),
        user_agent: s.userAgent,
        ip_address: s.ipAddress,
        created_at: s.createdAt,
        last_active_at: s.updatedAt,
        expires_at: s.expiresAt,
      })),
      security_events: securityEvents,
    },
    profile: profile ?? null,
    ...(profile
      ? await profileData(profile.id)
      : {
          certified_deals: [],
          recommendations: [],
          messages_received: [],
          messages_sent: [],
          mandates: [],
          match_requests: [],
          connection_events: [],
          collaboration_files: [],
          payments: [],
        }),
  };
}

export type DataExport = Awaited<ReturnType<typeof buildDataExport>>;

// The product's own tables (spec §3). Money is whole euros in bigint; dates are `date`;
// Note: `.desc()` in an index is DESC NULLS LAST; queries meant to use it say `desc nulls last`.
// every timestamp is timestamptz.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import {
  appRoleEnum,
  collegeEnum,
  connectionEventEnum,
  dealStatusEnum,
  maUsageEnum,
  mandateStatusEnum,
  mandateTypeEnum,
  matchRequestStatusEnum,
  membershipTypeEnum,
  messageTypeEnum,
  onboardingStatusEnum,
  paymentStatusEnum,
  professionEnum,
  profileStatusEnum,
  projectTimelineEnum,
  targetBuyerTypeEnum,
} from "./enums";

const ts = (name: string) => timestamp(name, { withTimezone: true });
const euros = (name: string) => bigint(name, { mode: "number" });

export const profiles = pgTable(
  "profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    company: text("company").notNull(),
    profession: professionEnum("profession").notNull(),
    college: collegeEnum("college").notNull(),
    onboardingStatus: onboardingStatusEnum("onboarding_status").notNull().default("account_created"),
    charterSignedAt: ts("charter_signed_at"),
    linkedinUrl: text("linkedin_url"),
    experienceDescription: text("experience_description"),
    recentOperations: text("recent_operations"),
    locationCity: text("location_city"),
    locationDepartment: text("location_department"),
    fullAddress: text("full_address"),
    specializationSectors: text("specialization_sectors").array().notNull().default(sql`'{}'::text[]`),
    detailedPresentation: text("detailed_presentation"),
    internalPresentation: text("internal_presentation"),
    logoUrl: text("logo_url"),
    photoUrl: text("photo_url"),
    conseilType: text("conseil_type"),
    membershipType: membershipTypeEnum("membership_type").notNull().default("freemium"),
    profileStatus: profileStatusEnum("profile_status").notNull().default("pending_validation"),
    validatedAt: ts("validated_at"),
    validatedBy: text("validated_by").references(() => user.id, { onDelete: "set null" }),
    rejectionReason: text("rejection_reason"),
    suspendedAt: ts("suspended_at"),
    // The public "Profil vérifié" mark: the steps an admin checked and when, written
    // when the profile is validated or a new insurance certificate is checked. Stored here so
    // that the profiles triggers invalidate the public page cache.
    verificationSummary: jsonb("verification_summary").$type<{ steps: { step: string; checkedAt: string }[] }>(),
    insuranceValidUntil: date("insurance_valid_until", { mode: "string" }),
    // Unaccented, lower-cased text of name, company, profession and sector names, maintained by
    // the profiles feature on every write; indexed with trigrams for the directory search.
    searchText: text("search_text").notNull().default(""),
    notifyMessages: boolean("notify_messages").notNull().default(true),
    notifyMatchRequests: boolean("notify_match_requests").notNull().default(true),
    notifyMatchAlerts: boolean("notify_match_alerts").notNull().default(true),
    // Ratings received (average and count) on the public profile: only with the member's consent;
    // members always see them.
    showRatingsPublicly: boolean("show_ratings_publicly").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("profiles_user_id_key").on(t.userId),
    // Directory order: premium/founding first, then newest; restricted to validated profiles.
    // The id makes the order total, so a filtered page can walk this index and stop at 24 rows.
    index("profiles_directory_idx")
      .on(sql`(${t.membershipType} = 'freemium')`, t.createdAt.desc(), t.id)
      .where(sql`${t.profileStatus} = 'validated'`),
    index("profiles_profession_idx").on(t.profession).where(sql`${t.profileStatus} = 'validated'`),
    index("profiles_conseil_type_idx")
      .on(t.conseilType)
      .where(sql`${t.profileStatus} = 'validated' and ${t.conseilType} is not null`),
    index("profiles_department_idx").on(t.locationDepartment).where(sql`${t.profileStatus} = 'validated'`),
    index("profiles_sectors_idx").using("gin", t.specializationSectors),
    index("profiles_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    index("profiles_status_created_idx").on(t.profileStatus, t.createdAt.desc()),
    // The admin profiles list, newest first (`order by created_at desc, id`): a page walks it and stops.
    index("profiles_created_id_idx").on(t.createdAt.desc(), t.id),
    // The founding offer's places left ('Aperçu'): validated paying members, counted up to the
    // number of places. The predicate is the count's, so it walks this small index and stops.
    index("profiles_paid_members_idx")
      .on(t.id)
      .where(sql`${t.profileStatus} = 'validated' and ${t.membershipType} <> 'freemium'`),
  ],
);

export const certifiedDeals = pgTable(
  "certified_deals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    year: integer("year").notNull(),
    sector: text("sector").notNull(),
    acquirerCedant: text("acquirer_cedant").notNull(),
    dealDescription: text("deal_description"),
    // "anonymised" (sector, size band, region, year) unless the member named the parties and
    // certified their consent; existing rows were migrated to "anonymised".
    disclosure: text("disclosure", { enum: ["named", "anonymised"] }).notNull().default("anonymised"),
    sizeBand: text("size_band"),
    region: text("region"),
    partiesConsentAt: ts("parties_consent_at"),
    status: dealStatusEnum("status").notNull().default("pending"),
    rejectionReason: text("rejection_reason"),
    validatedAt: ts("validated_at"),
    validatedBy: text("validated_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("certified_deals_profile_idx").on(t.profileId, t.year.desc()),
    index("certified_deals_pending_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    check("certified_deals_year_check", sql`${t.year} between 1900 and 2200`),
    check("certified_deals_disclosure_check", sql`${t.disclosure} in ('named', 'anonymised')`),
    check("certified_deals_named_consent_check", sql`${t.disclosure} <> 'named' or ${t.partiesConsentAt} is not null`),
  ],
);

export const recommendations = pgTable(
  "recommendations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    sponsorName: text("sponsor_name").notNull(),
    sponsorEmail: text("sponsor_email").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    confirmedAt: ts("confirmed_at"),
  },
  (t) => [
    unique("recommendations_profile_sponsor_key").on(t.profileId, t.sponsorEmail),
    // The admin list's order (`created_at desc, id`), and confirmed_at for its counts: a page
    // walks it and stops, the counts are an index-only scan.
    index("recommendations_created_idx").on(t.createdAt.desc(), t.id, t.confirmedAt),
  ],
);

export const messages = pgTable(
  "messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    senderId: uuid("sender_id").references(() => profiles.id, { onDelete: "set null" }),
    recipientId: uuid("recipient_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    content: text("content").notNull(),
    isRead: boolean("is_read").notNull().default(false),
    senderName: text("sender_name").notNull(),
    senderEmail: text("sender_email").notNull(),
    messageType: messageTypeEnum("message_type").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("messages_recipient_idx").on(t.recipientId, t.createdAt.desc()),
    index("messages_sender_idx").on(t.senderId),
  ],
);

export const userRoles = pgTable(
  "user_roles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: appRoleEnum("role").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [unique("user_roles_user_role_key").on(t.userId, t.role)],
);

export const mandates = pgTable(
  "mandates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    mandateType: mandateTypeEnum("mandate_type").notNull(),
    isExclusive: boolean("is_exclusive").notNull().default(false),
    startDate: date("start_date", { mode: "string" }).notNull(),
    endDate: date("end_date", { mode: "string" }).notNull(),
    clientCode: text("client_code").notNull(),
    clientName: text("client_name").notNull(),
    clientAddress: text("client_address").notNull(),
    description: text("description"),
    status: mandateStatusEnum("status").notNull().default("active"),
    // Buyer criteria
    searchSectors: text("search_sectors").array(),
    searchTerritories: text("search_territories").array(),
    targetAmountMin: euros("target_amount_min"),
    targetAmountMax: euros("target_amount_max"),
    contributionMin: euros("contribution_min"),
    contributionMax: euros("contribution_max"),
    maUsage: maUsageEnum("ma_usage"),
    // Seller information
    companySector: text("company_sector"),
    companyTerritory: text("company_territory"),
    companyDescription: text("company_description"),
    valuationAmount: euros("valuation_amount"),
    requiredContributionMin: euros("required_contribution_min"),
    requiredContributionMax: euros("required_contribution_max"),
    projectTimeline: projectTimelineEnum("project_timeline"),
    targetBuyerTypes: targetBuyerTypeEnum("target_buyer_types").array(),
    expiryReminderSentAt: ts("expiry_reminder_sent_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("mandates_profile_created_idx").on(t.profileId, t.createdAt.desc()),
    // Candidate set of the matcher: active mandates of one type that have not ended.
    index("mandates_matching_idx").on(t.mandateType, t.endDate).where(sql`${t.status} = 'active'`),
    // Ranking the candidates of one type reads only these columns: with all of them in the key,
    // scoring 50 000 candidates is an index-only scan (features/matching/matching.server.ts).
    index("mandates_buyer_candidates_idx")
      .on(
        t.endDate,
        t.id,
        t.profileId,
        t.createdAt,
        t.searchSectors,
        t.searchTerritories,
        t.targetAmountMin,
        t.targetAmountMax,
        t.contributionMin,
        t.contributionMax,
      )
      .where(sql`${t.status} = 'active' and ${t.mandateType} = 'buyer'`),
    index("mandates_seller_candidates_idx")
      .on(
        t.endDate,
        t.id,
        t.profileId,
        t.createdAt,
        t.companySector,
        t.companyTerritory,
        t.valuationAmount,
        t.requiredContributionMin,
        t.requiredContributionMax,
      )
      .where(sql`${t.status} = 'active' and ${t.mandateType} = 'seller'`),
    // The matcher's first pass walks the newest candidates of one type (created_at desc, id) and
    // stops at the first `limit` perfect scores: every column it reads is in the key again.
    index("mandates_buyer_newest_idx")
      .on(
        t.createdAt.desc(),
        t.id,
        t.endDate,
        t.profileId,
        t.searchSectors,
        t.searchTerritories,
        t.targetAmountMin,
        t.targetAmountMax,
        t.contributionMin,
        t.contributionMax,
      )
      .where(sql`${t.status} = 'active' and ${t.mandateType} = 'buyer'`),
    index("mandates_seller_newest_idx")
      .on(
        t.createdAt.desc(),
        t.id,
        t.endDate,
        t.profileId,
        t.companySector,
        t.companyTerritory,
        t.valuationAmount,
        t.requiredContributionMin,
        t.requiredContributionMax,
      )
      .where(sql`${t.status} = 'active' and ${t.mandateType} = 'seller'`),
    index("mandates_company_sector_idx").on(t.companySector).where(sql`${t.status} = 'active'`),
    index("mandates_search_sectors_idx").using("gin", t.searchSectors),
    check("mandates_dates_check", sql`${t.endDate} > ${t.startDate}`),
    check(
      "mandates_amounts_check",
      sql`coalesce(${t.targetAmountMin}, 0) >= 0 and coalesce(${t.targetAmountMax}, 0) >= 0
        and coalesce(${t.contributionMin}, 0) >= 0 and coalesce(${t.contributionMax}, 0) >= 0
        and coalesce(${t.valuationAmount}, 0) >= 0 and coalesce(${t.requiredContributionMin}, 0) >= 0
        and coalesce(${t.requiredContributionMax}, 0) >= 0`,
    ),
  ],
);

export const mandateMatchRequests = pgTable(
  "mandate_match_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requesterMandateId: uuid("requester_mandate_id")
      .notNull()
      .references(() => mandates.id, { onDelete: "cascade" }),
    targetMandateId: uuid("target_mandate_id")
      .notNull()
      .references(() => mandates.id, { onDelete: "cascade" }),
    requesterProfileId: uuid("requester_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    message: text("message"),
    status: matchRequestStatusEnum("status").notNull().default("pending"),
    respondedAt: ts("responded_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    unique("mandate_match_requests_pair_key").on(t.requesterMandateId, t.targetMandateId),
    index("mandate_match_requests_target_idx").on(t.targetMandateId),
    index("mandate_match_requests_requester_profile_idx").on(t.requesterProfileId),
    check("mandate_match_requests_distinct_check", sql`${t.requesterMandateId} <> ${t.targetMandateId}`),
  ],
);

// What the freemium quotas count (spec §6, §9): each mandate created and
// each match request sent, kept when the mandate or the request is deleted, so that deleting
// never gives a creation back. `subject_id` is the mandate or request it was counted for.
export const quotaEvents = pgTable(
  "quota_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"mandate_created" | "match_request_sent">().notNull(),
    subjectId: uuid("subject_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    unique("quota_events_subject_key").on(t.kind, t.subjectId),
    index("quota_events_profile_idx").on(t.profileId, t.kind, t.createdAt.desc()),
  ],
);

// Introduction log: every step of a connection, with its actor — the evidence of who
// introduced whom.
export const connectionEvents = pgTable(
  "connection_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    matchRequestId: uuid("match_request_id")
      .notNull()
      .references(() => mandateMatchRequests.id, { onDelete: "cascade" }),
    actorProfileId: uuid("actor_profile_id").references(() => profiles.id, { onDelete: "set null" }),
    event: connectionEventEnum("event").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("connection_events_request_idx").on(t.matchRequestId, t.createdAt)],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    company: text("company"),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("contact_messages_created_idx").on(t.createdAt.desc())],
);

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    checkoutSessionId: text("checkout_session_id").notNull(),
    status: paymentStatusEnum("status").notNull().default("pending"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("eur"),
    paidAt: ts("paid_at"),
    /** Stripe's payment intent (a refund event names it) and the receipt page, when known. */
    paymentIntentId: text("payment_intent_id"),
    receiptUrl: text("receipt_url"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("payments_intent_idx").on(t.paymentIntentId),
    unique("payments_provider_session_key").on(t.provider, t.checkoutSessionId),
    index("payments_profile_idx").on(t.profileId),
  ],
);

// Webhook events already processed (idempotency on the provider's event id).
export const paymentEvents = pgTable("payment_events", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

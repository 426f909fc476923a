import { pgEnum } from "drizzle-orm/pg-core";

export const collegeEnum = pgEnum("college", ["transmission_entreprises", "transmission_commerces"]);
export const onboardingStatusEnum = pgEnum("onboarding_status", [
  "account_created",
  "charter_signed",
  "profile_completed",
  "recommendations_pending",
  "payment_completed",
  "validated",
]);
export const membershipTypeEnum = pgEnum("membership_type", ["freemium", "premium", "founding_member"]);
export const profileStatusEnum = pgEnum("profile_status", [
  "pending_validation",
  "validated",
  "rejected",
  "suspended",
]);
export const professionEnum = pgEnum("profession", [
  "avocat_affaires",
  "avocat_fiscaliste",
  "notaire",
  "expert_comptable",
  "commissaire_aux_comptes",
  "conseiller_patrimoine",
  "conseil_ma",
  "conseil_levee_fonds",
  "conseil_cession_commerce",
  "conseil_immobilier_commercial",
  "expert_evaluation",
]);
export const dealStatusEnum = pgEnum("deal_status", ["pending", "validated", "rejected"]);
export const messageTypeEnum = pgEnum("message_type", ["public_contact", "internal"]);
export const appRoleEnum = pgEnum("app_role", ["admin"]);
export const mandateTypeEnum = pgEnum("mandate_type", ["buyer", "seller"]);
export const mandateStatusEnum = pgEnum("mandate_status", ["active", "on_hold", "expired", "negotiating", "concluded"]);
export const maUsageEnum = pgEnum("ma_usage", ["primo_buyer", "recurrent_buyer", "structured_ma"]);
export const projectTimelineEnum = pgEnum("project_timeline", [
  "3_months",
  "6_months",
  "9_months",
  "12_months",
  "24_months",
]);
export const targetBuyerTypeEnum = pgEnum("target_buyer_type", [
  "same_industry",
  "investment_fund",
  "company",
  "individual_entrepreneur",
  "other",
]);
export const matchRequestStatusEnum = pgEnum("match_request_status", ["pending", "accepted", "rejected"]);
export const connectionEventEnum = pgEnum("connection_event", [
  "requested",
  "accepted",
  "rejected",
  "undertaking_signed",
  "revealed",
]);
export const outboxStatusEnum = pgEnum("outbox_status", ["pending", "sending", "sent", "failed"]);
export const paymentStatusEnum = pgEnum("payment_status", ["pending", "paid", "canceled", "refunded"]);

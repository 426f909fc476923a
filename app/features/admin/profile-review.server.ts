// What the admin reviews of one profile (the detail overlay and its verification checklist), in
// one statement, as each page's statements are kept few. The profile with its account was read,
// then the validator's e-mail, the sponsors (twice: the detail and the checklist), the payments,
// the evidence and the checks, one statement each: 13 statements for `/admin?profil=…`.
import { eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { jsonValue } from "~/db/query.server";
import { profiles, user } from "~/db/schema";
import type { PaymentState } from "../membership/membership.server";
import type { SponsorView } from "../recommendations/recommendations.server";

/** The evidence fields the checklist shows (never the storage key). */
export type ReviewEvidence = {
  sirenTyped: string;
  sirenDigits: string;
  registrationKind: string;
  registrationValue: string;
  registrationYear: number | null;
  insurer: string;
  policyNumber: string;
  insuranceEndsOn: string;
  insuranceFileName: string;
  insuranceContentType: string;
  insuranceUploadedAt: Date;
};

export type ReviewCheck = { step: string; checkedAt: Date; email: string | null };

type Json<T> = T | string | null;


/** Timestamps inside JSON are text: the same ISO string the driver's Date gives. */
const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

export async function readProfileReview(profileId: string) {
  const [p] = await db
    .select({
      id: profiles.id,
      userId: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      company: profiles.company,
      profession: profiles.profession,
      college: profiles.college,
      linkedinUrl: profiles.linkedinUrl,
      experienceDescription: profiles.experienceDescription,
      recentOperations: profiles.recentOperations,
      status: profiles.profileStatus,
      onboardingStatus: profiles.onboardingStatus,
      membershipType: profiles.membershipType,
      charterSignedAt: profiles.charterSignedAt,
      createdAt: profiles.createdAt,
      validatedAt: profiles.validatedAt,
      validatedBy: profiles.validatedBy,
      rejectionReason: profiles.rejectionReason,
      suspendedAt: profiles.suspendedAt,
      validatedByEmail: sql<string | null>`(select v.email from "user" v where v.id = ${profiles.validatedBy})`,
      // As listSponsors orders them.
      sponsors: sql<Json<Array<{ name: string; email: string; confirmedAt: string | null }>>>`(
        select coalesce(json_agg(json_build_object('name', r.sponsor_name, 'email', r.sponsor_email, 'confirmedAt', r.confirmed_at)
                                 order by r.created_at, r.sponsor_email), '[]'::json)
        from recommendations r where r.profile_id = ${profiles.id})`,
      // As getPaymentState reads them: the 50 latest attempts, newest first.
      payments: sql<Json<Array<{ status: string; paidAt: string | null }>>>`(
        select coalesce(json_agg(json_build_object('status', x.status, 'paidAt', x.paid_at) order by x.created_at desc), '[]'::json)
        from (select y.status, y.paid_at, y.created_at from payments y where y.profile_id = ${profiles.id} order by y.created_at desc limit 50) x)`,
      evidence: sql<Json<Omit<ReviewEvidence, "insuranceUploadedAt"> & { insuranceUploadedAt: string }>>`(
        select json_build_object(
          'sirenTyped', e.siren_typed, 'sirenDigits', e.siren_digits, 'registrationKind', e.registration_kind,
          'registrationValue', e.registration_value, 'registrationYear', e.registration_year, 'insurer', e.insurer,
          'policyNumber', e.policy_number, 'insuranceEndsOn', e.insurance_ends_on::text, 'insuranceFileName', e.insurance_file_name,
          'insuranceContentType', e.insurance_content_type, 'insuranceUploadedAt', e.insurance_uploaded_at)
        from verification_evidence e where e.profile_id = ${profiles.id})`,
      checks: sql<Json<Array<{ step: string; checkedAt: string; email: string | null }>>>`(
        select coalesce(json_agg(json_build_object('step', c.step, 'checkedAt', c.checked_at, 'email', cu.email)), '[]'::json)
        from verification_checks c left join "user" cu on cu.id = c.checked_by where c.profile_id = ${profiles.id})`,
    })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(eq(profiles.id, profileId))
    .limit(1);
  if (!p) return null;
  const sponsors: SponsorView[] = (jsonValue(p.sponsors) ?? []).map((s) => ({ name: s.name, email: s.email, confirmedAt: iso(s.confirmedAt) }));
  const payments = jsonValue(p.payments) ?? [];
  const evidenceRow = jsonValue(p.evidence);
  const evidence: ReviewEvidence | null = evidenceRow ? { ...evidenceRow, insuranceUploadedAt: new Date(evidenceRow.insuranceUploadedAt) } : null;
  const checks: ReviewCheck[] = (jsonValue(p.checks) ?? []).map((c) => ({ step: c.step, checkedAt: new Date(c.checkedAt), email: c.email }));
  return { ...p, sponsors, payment: paymentState(payments), evidence, checks };
}

export type ProfileReview = NonNullable<Awaited<ReturnType<typeof readProfileReview>>>;

/** getPaymentState's rule: paid if any payment is paid, else the latest attempt's state. */
function paymentState(rows: Array<{ status: string; paidAt: string | null }>): PaymentState {
  const paidRow = rows.find((r) => r.status === "paid");
  if (paidRow) return { status: "paid", paidAt: iso(paidRow.paidAt) };
  const latest = rows[0];
  if (!latest) return { status: "none", paidAt: null };
  return { status: latest.status === "pending" ? "pending" : "canceled", paidAt: null };
}

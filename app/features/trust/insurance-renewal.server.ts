// The insurance lifecycle seen by the member (issue 14 §1): the "Profil vérifié" mark as the
// member reads it ("Assurance à renouveler" once the checked certificate has passed its end
// date), the certificate on file and whether the team has checked it, and the renewal: a new
// certificate replaces the previous one and waits for an admin's check (audited there).
import { db } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { parisToday } from "~/features/mandates/mandate-rules";
import type { InsuranceFields } from "./verification.schema";
import { getOwnEvidence, renewInsurance, type OwnEvidence, type UploadedFile } from "./verification.server";
import { verificationMark, type StoredVerificationSummary, type VerificationMarkView } from "./verification-rules";

export type InsuranceView = {
  /** The member's own mark (null before the team checked any step). */
  mark: VerificationMarkView | null;
  evidence: OwnEvidence | null;
  /** The certificate on file has passed its end date, or the checked one has: a new one is due. */
  toRenew: boolean;
  /** A new certificate waits for the team's check. */
  pendingCheck: boolean;
};

export async function getInsuranceView(
  profile: { id: string; verificationSummary: StoredVerificationSummary; insuranceValidUntil: string | null },
  today: string = parisToday(),
): Promise<InsuranceView> {
  const evidence = await getOwnEvidence(profile.id, today);
  const mark = verificationMark(profile.verificationSummary, profile.insuranceValidUntil, today, "private");
  return {
    mark,
    evidence,
    toRenew: Boolean(mark?.insuranceToRenew) || evidence?.insuranceStatus === "expired",
    pendingCheck: evidence !== null && !evidence.insuranceChecked && evidence.insuranceStatus !== "expired",
  };
}

/** The member sends a new certificate (their own profile only); recorded in the journal. */
export async function submitInsuranceRenewal(actor: { userId: string; profileId: string }, input: InsuranceFields, file: UploadedFile): Promise<void> {
  await renewInsurance(actor.profileId, input, file);
  // What the team reads later: that a certificate came in and until when (never its name or content).
  await db.insert(auditLog).values({
    actorUserId: actor.userId,
    action: "verification.insurance_renewed",
    targetType: "profile",
    targetId: actor.profileId,
    details: { endsOn: input.insuranceEndsOn },
  });
}

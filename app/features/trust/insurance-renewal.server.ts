// The insurance lifecycle seen by the member: the "Profil vérifié" mark as the
// member reads it ("Assurance à renouveler" once the checked certificate has passed its end
// date), the certificate on file and whether the team has checked it, and the renewal: a new
// certificate replaces the previous one and waits for an admin's check (audited there).
import { recordAudit } from "~/lib/audit/audit.server";
import { db } from "~/db/client.server";
import { parisToday } from "~/features/mandates/mandate-rules";
import type { InsuranceFields, VerificationInput } from "./verification.schema";
import { getOwnEvidence, renewInsurance, saveEvidence, writeVerificationSummary, type OwnEvidence, type UploadedFile } from "./verification.server";
import { verificationMark, verificationState, type StoredVerificationSummary, type VerificationMarkView, type VerificationState } from "./verification-rules";

export type InsuranceView = {
  /** The member's own mark: the public one, null unless the rule grants it. */
  mark: VerificationMarkView | null;
  /** Where the member stands against the rule (what is missing, or the insurance to renew). */
  state: VerificationState;
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
  const mark = verificationMark(profile.verificationSummary, profile.insuranceValidUntil, today);
  const state = verificationState(profile.verificationSummary, profile.insuranceValidUntil, today);
  return {
    mark,
    state,
    evidence,
    toRenew: state.kind === "insurance_expired" || evidence?.insuranceStatus === "expired",
    pendingCheck: evidence !== null && !evidence.insuranceChecked && evidence.insuranceStatus !== "expired",
  };
}

/** The member sends a new certificate (their own profile only); recorded in the journal. */
export async function submitInsuranceRenewal(actor: { userId: string; profileId: string }, input: InsuranceFields, file: UploadedFile): Promise<void> {
  await renewInsurance(actor.profileId, input, file);
  // What the team reads later: that a certificate came in and until when (never its name or content).
  await recordAudit(db, {
    actorUserId: actor.userId,
    action: "verification.insurance_renewed",
    targetId: actor.profileId,
    details: { endsOn: input.insuranceEndsOn },
  });
}

/**
 * A validated member with no evidence on file (validated before the verification step existed)
 * files it from /parametres/assurance: the same checks as the onboarding step, then the team's.
 */
export async function submitFirstEvidence(actor: { userId: string; profileId: string }, input: VerificationInput, file: UploadedFile): Promise<void> {
  await saveEvidence(actor.profileId, input, file);
  await db.transaction(async (tx) => {
    // Steps ticked without evidence (a validation with a written reason) follow the new evidence.
    await writeVerificationSummary(tx, actor.profileId);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: "verification.evidence_filed",
      targetId: actor.profileId,
      details: { endsOn: input.insuranceEndsOn },
    });
  });
}

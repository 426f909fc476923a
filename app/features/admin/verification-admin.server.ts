// The verification checklist of the admin profiles tab: the five steps of an
// applicant with their evidence inline, each ticked or unticked by an admin in one transaction
// with its audit row. A validated member's public mark summary is rewritten on each change.
// The facts the platform records itself (the charter signed, two sponsors confirmed) are ticked
// by the system, with their evidence.
import { and, eq } from "drizzle-orm";
import type { SessionUser } from "~/auth/session.server";
import { db, type Db } from "~/db/client.server";
import { profiles, recommendations, verificationChecks } from "~/db/schema";
import { parisToday } from "~/features/mandates/mandate-rules";
import {
  insuranceStatus,
  registrationSummary,
  VERIFICATION_STEP_LABELS,
  VERIFICATION_STEPS,
  verificationState,
  type InsuranceStatus,
  type RegistrationKind,
  type VerificationState,
  type VerificationStep,
} from "~/features/trust/verification-rules";
import { writeVerificationSummary } from "~/features/trust/verification.server";
import { AdminActionError } from "./admin-errors";
import { recordAdminAction } from "./audit.server";
import { readProfileReview, type ProfileReview } from "./profile-review.server";

export type ChecklistStep = {
  step: VerificationStep;
  label: string;
  /** What the admin checks, in one or more lines (no raw storage key). */
  evidence: string[];
  /** The evidence the member has given for this step (a step without it can still be ticked). */
  provided: boolean;
  checkedAt: string | null;
  checkedByEmail: string | null;
  /** "system": a fact the platform recorded itself (the charter, the sponsors), not an admin's tick. */
  checkedBy: "admin" | "system" | null;
};

export type VerificationChecklist = {
  steps: ChecklistStep[];
  /** The certificate, served by the guarded /justificatifs route. */
  certificate: { url: string; name: string; contentType: string; isImage: boolean; isPdf: boolean; uploadedAt: string } | null;
  sirenDigits: string | null;
  insuranceStatus: InsuranceStatus | null;
  unchecked: VerificationStep[];
  /** The "Profil vérifié" mark under the one rule, from these checks and this certificate. */
  mark: VerificationState;
};

export async function getVerificationChecklist(profileId: string, today: string = parisToday()): Promise<VerificationChecklist | null> {
  const review = await readProfileReview(profileId);
  return review ? checklistOfReview(review, today) : null;
}

/** Sponsors confirmed for the sponsors step to hold. */
const SPONSORS_NEEDED = 2;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The steps the platform can tick itself, each with the date its fact became true: the charter's
 * signature, and the confirmation that made the second sponsor.
 */
export function systemChecks(facts: { charterSignedAt: Date | string | null; sponsors: Array<{ confirmedAt: Date | string | null }> }): Partial<Record<VerificationStep, string>> {
  const out: Partial<Record<VerificationStep, string>> = {};
  if (facts.charterSignedAt) out.charter = new Date(facts.charterSignedAt).toISOString();
  const confirmed = facts.sponsors.flatMap((s) => (s.confirmedAt ? [new Date(s.confirmedAt).toISOString()] : [])).sort();
  if (confirmed.length >= SPONSORS_NEEDED) out.sponsors = confirmed[SPONSORS_NEEDED - 1];
  return out;
}

/**
 * Stores the system's ticks of a profile (no author: `checked_by` stays null), so that the
 * verified mark's summary and the validation read them like an admin's. Returns the steps added.
 */
export async function recordSystemChecks(tx: Tx, profileId: string): Promise<VerificationStep[]> {
  const [p] = await tx.select({ charterSignedAt: profiles.charterSignedAt }).from(profiles).where(eq(profiles.id, profileId)).limit(1);
  if (!p) return [];
  const sponsors = await tx.select({ confirmedAt: recommendations.confirmedAt }).from(recommendations).where(eq(recommendations.profileId, profileId));
  const facts = Object.entries(systemChecks({ charterSignedAt: p.charterSignedAt, sponsors })) as Array<[VerificationStep, string]>;
  if (facts.length === 0) return [];
  const added = await tx
    .insert(verificationChecks)
    .values(facts.map(([step, at]) => ({ profileId, step, checkedBy: null, checkedAt: new Date(at) })))
    .onConflictDoNothing()
    .returning({ step: verificationChecks.step });
  return added.map((a) => a.step as VerificationStep);
}

/** The checklist from the profile's review (readProfileReview: one statement for the whole overlay). */
export function checklistOfReview(review: Pick<ProfileReview, "id" | "charterSignedAt" | "evidence" | "checks" | "sponsors">, today: string = parisToday()): VerificationChecklist {
  const { id: profileId, evidence, checks, sponsors } = review;
  const p = review;
  const byStep = new Map(checks.map((c) => [c.step as VerificationStep, c]));
  const confirmed = sponsors.filter((s) => s.confirmedAt);
  const date = (iso: string | Date) => new Intl.DateTimeFormat("fr-FR", { dateStyle: "long", timeZone: "Europe/Paris" }).format(new Date(iso));
  const status = evidence ? insuranceStatus(evidence.insuranceEndsOn, today) : null;
  const evidenceOf: Record<VerificationStep, { lines: string[]; provided: boolean }> = {
    charter: { lines: [p.charterSignedAt ? `Charte signée le ${date(p.charterSignedAt)}` : "Charte non signée"], provided: p.charterSignedAt !== null },
    sponsors: {
      lines: [`${confirmed.length} parrainage${confirmed.length > 1 ? "s" : ""} confirmé${confirmed.length > 1 ? "s" : ""} sur ${sponsors.length}`],
      provided: confirmed.length >= 2,
    },
    registration: {
      lines: evidence
        ? [registrationSummary({ kind: evidence.registrationKind as RegistrationKind, value: evidence.registrationValue, year: evidence.registrationYear })]
        : ["Non renseignée"],
      provided: evidence !== null,
    },
    siren: { lines: evidence ? [`${evidence.sirenDigits.length === 9 ? "SIREN" : "SIRET"}\u00a0: ${evidence.sirenTyped}`] : ["Non renseigné"], provided: evidence !== null },
    insurance: {
      lines: evidence
        ? [
            `Assureur\u00a0: ${evidence.insurer}`,
            `Contrat n° ${evidence.policyNumber}`,
            `Valable jusqu’au ${date(`${evidence.insuranceEndsOn}T12:00:00Z`)}${status === "expired" ? " — expirée" : status === "expiring" ? " — expire bientôt" : ""}`,
          ]
        : ["Aucune attestation"],
      provided: evidence !== null,
    },
  };
  const bySystem = systemChecks(review);
  const steps = VERIFICATION_STEPS.map((step): ChecklistStep => {
    const check = byStep.get(step);
    // A stored row without an author on a step the system knows is the system's own tick.
    const system = bySystem[step] !== undefined && (!check || check.email === null);
    const checkedAt = check ? check.checkedAt.toISOString() : (bySystem[step] ?? null);
    return {
      step,
      label: VERIFICATION_STEP_LABELS[step],
      evidence: evidenceOf[step].lines,
      provided: evidenceOf[step].provided,
      checkedAt,
      checkedByEmail: system ? null : (check?.email ?? null),
      checkedBy: checkedAt === null ? null : system ? "system" : "admin",
    };
  });
  return {
    steps,
    certificate: evidence
      ? {
          url: `/justificatifs/${profileId}/assurance`,
          name: evidence.insuranceFileName,
          contentType: evidence.insuranceContentType,
          isImage: evidence.insuranceContentType.startsWith("image/"),
          isPdf: evidence.insuranceContentType === "application/pdf",
          uploadedAt: evidence.insuranceUploadedAt.toISOString(),
        }
      : null,
    sirenDigits: evidence?.sirenDigits ?? null,
    insuranceStatus: status,
    unchecked: steps.filter((s) => !s.checkedAt).map((s) => s.step),
    mark: verificationState(
      { steps: steps.flatMap((s) => (s.checkedAt ? [{ step: s.step, checkedAt: s.checkedAt }] : [])) },
      byStep.has("insurance") && evidence ? evidence.insuranceEndsOn : null,
      today,
    ),
  };
}

const memberName = (p: { firstName: string; lastName: string; company: string }) => `${p.firstName} ${p.lastName} (${p.company})`;

/**
 * Ticks (or unticks) one step of a pending or validated profile; the audit row is written in the
 * same transaction. Ticking twice is a no-op (no second audit row).
 */
export async function setVerificationCheck(actor: Pick<SessionUser, "id">, profileId: string, step: VerificationStep, checked: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const [p] = await tx
      .select({ id: profiles.id, status: profiles.profileStatus, firstName: profiles.firstName, lastName: profiles.lastName, company: profiles.company })
      .from(profiles)
      .where(eq(profiles.id, profileId))
      .for("update")
      .limit(1);
    if (!p) throw new AdminActionError(404, "Profil introuvable");
    if (p.status !== "pending_validation" && p.status !== "validated") {
      throw new AdminActionError(409, "Les étapes de vérification ne se cochent que pour un profil en attente ou validé.");
    }
    const changed = checked
      ? await tx.insert(verificationChecks).values({ profileId, step, checkedBy: actor.id }).onConflictDoNothing().returning({ step: verificationChecks.step })
      : await tx
          .delete(verificationChecks)
          .where(and(eq(verificationChecks.profileId, profileId), eq(verificationChecks.step, step)))
          .returning({ step: verificationChecks.step });
    if (changed.length === 0) return;
    await recordAdminAction(tx, actor, {
      action: checked ? "verification.check" : "verification.uncheck",
      targetId: profileId,
      details: { target: memberName(p), step, stepLabel: VERIFICATION_STEP_LABELS[step] },
    });
    if (p.status === "validated") await writeVerificationSummary(tx, profileId);
  });
}

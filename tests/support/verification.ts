// Verification evidence for tests (issue 14): a small real PDF certificate and a valid form input.
// No vitest import: usable by e2e fixtures too.
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { SessionUser } from "~/auth/session.server";
import { saveVerification } from "~/features/onboarding/onboarding.server";
import { verificationSchema, type VerificationInput } from "~/features/trust/verification.schema";
import { parisToday } from "~/features/mandates/mandate-rules";

/** A one-page PDF that says what it is. */
export async function certificatePdf(text = "Attestation d'assurance RC professionnelle"): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText(text, { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

/** A year ahead, "YYYY-MM-DD". */
export function inAYear(): string {
  const d = new Date(`${parisToday()}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString().slice(0, 10);
}

/** The form's raw fields for a profession (valid SIREN key, fitting registration). */
export function verificationFields(profession: string, overrides: Record<string, string> = {}): Record<string, string> {
  const registration: Record<string, string> =
    profession.startsWith("avocat") ? { registrationValue: "Barreau de Lyon", registrationYear: "2008" }
    : profession === "expert_comptable" ? { registrationValue: "14000123401" }
    : profession === "notaire" ? { registrationValue: "Office notarial de Lyon Bellecour" }
    : ["commissaire_aux_comptes", "expert_evaluation"].includes(profession) ? { registrationValue: "Membre de la Compagnie des experts" }
    : { registrationValue: "12 345 678" };
  return { siren: "732 829 320 00074", ...registration, insurer: "MMA", policyNumber: "RCP-2026-0042", insuranceEndsOn: inAYear(), ...overrides };
}

export function verificationInput(profession: string, overrides: Record<string, string> = {}): VerificationInput {
  return verificationSchema(profession, parisToday()).parse(verificationFields(profession, overrides));
}

/** Completes the verification step of an applicant at profile_completed. */
export async function provideVerification(u: SessionUser, profession = "conseil_ma", overrides: Record<string, string> = {}) {
  await saveVerification(u, verificationInput(profession, overrides), { name: "attestation-rc-pro.pdf", bytes: await certificatePdf() });
}

// The five verification steps of a member, the professional registration that fits
// each profession, and the insurance certificate's lifecycle. Pure: dates are "YYYY-MM-DD" strings
// of the Paris calendar, passed in by the caller.
import type { ProfessionCode } from "~/db/reference";
import { formatDate } from "~/lib/dates";

export const VERIFICATION_STEPS = ["charter", "sponsors", "registration", "siren", "insurance"] as const;
export type VerificationStep = (typeof VERIFICATION_STEPS)[number];

/** What the admin checklist calls each step. */
export const VERIFICATION_STEP_LABELS: Record<VerificationStep, string> = {
  charter: "Charte d’engagement signée",
  sponsors: "Deux parrainages confirmés",
  registration: "Identité et inscription professionnelle",
  siren: "SIREN ou SIRET de la structure",
  insurance: "Assurance responsabilité civile professionnelle",
};

/** What the public "Profil vérifié" mark says was checked (no document content). */
export const VERIFICATION_PUBLIC_LABELS: Record<VerificationStep, string> = {
  charter: "Charte d’engagement signée",
  sponsors: "Recommandé par deux confrères",
  registration: "Inscription professionnelle vérifiée",
  siren: "Entreprise immatriculée (SIREN vérifié)",
  insurance: "Assurance responsabilité civile professionnelle en cours",
};

export function isVerificationStep(value: unknown): value is VerificationStep {
  return typeof value === "string" && (VERIFICATION_STEPS as readonly string[]).includes(value);
}

/** Steps not ticked yet, in checklist order. */
export function uncheckedSteps(checked: Iterable<string>): VerificationStep[] {
  const done = new Set(checked);
  return VERIFICATION_STEPS.filter((s) => !done.has(s));
}

// ---------------------------------------------------------------------------------------------
// Professional registration

export type RegistrationKind = "bar" | "order" | "office" | "intermediary" | "other";

const KIND_BY_PROFESSION: Record<ProfessionCode, RegistrationKind> = {
  avocat_affaires: "bar",
  avocat_fiscaliste: "bar",
  expert_comptable: "order",
  notaire: "office",
  conseiller_patrimoine: "intermediary",
  conseil_ma: "intermediary",
  conseil_levee_fonds: "intermediary",
  conseil_cession_commerce: "intermediary",
  conseil_immobilier_commercial: "intermediary",
  commissaire_aux_comptes: "other",
  expert_evaluation: "other",
};

export function registrationKind(profession: string): RegistrationKind {
  return Object.hasOwn(KIND_BY_PROFESSION, profession) ? KIND_BY_PROFESSION[profession as ProfessionCode] : "other";
}

/** The labels of the form's fields for each kind (`year` only for lawyers). */
export const REGISTRATION_FIELDS: Record<RegistrationKind, { label: string; hint: string; yearLabel?: string }> = {
  bar: { label: "Barreau d’inscription", hint: "Par exemple\u00a0: Barreau de Lyon", yearLabel: "Année de prestation de serment" },
  order: { label: "Numéro d’inscription à l’Ordre des experts-comptables", hint: "Le numéro figurant au tableau de l’Ordre" },
  office: { label: "Office notarial", hint: "Le nom et la ville de votre office" },
  intermediary: { label: "Numéro ORIAS ou de carte professionnelle (CCI)", hint: "ORIAS\u00a0: 8 chiffres\u00a0; carte CCI\u00a0: «\u00a0CPI\u00a0» suivi de 17 chiffres" },
  other: { label: "Inscription ou qualification professionnelle", hint: "Ordre, compagnie, registre ou certification dont vous relevez" },
};

export type RegistrationInput = { value: string; year?: string | null };
export type Registration = { kind: RegistrationKind; value: string; year: number | null };
export type RegistrationCheck = { ok: true; registration: Registration } | { ok: false; field: "value" | "year"; message: string };

const ORIAS = /^\d{8}$/;
const CCI_CARD = /^CPI\d{17}$/;

export function checkRegistration(profession: string, input: RegistrationInput, currentYear: number): RegistrationCheck {
  const kind = registrationKind(profession);
  const field = REGISTRATION_FIELDS[kind];
  const value = input.value.replace(/[\u00a0\u202f\t]/g, " ").trim().replace(/ {2,}/g, " ");
  if (!value) return { ok: false, field: "value", message: `${field.label}\u00a0: ce champ est obligatoire` };
  if (value.length > 120) return { ok: false, field: "value", message: `${field.label}\u00a0: 120 caractères au maximum` };
  if (/[<>]|https?:|www\./i.test(value)) return { ok: false, field: "value", message: `${field.label}\u00a0: ce champ ne doit pas contenir de lien` };
  if (kind === "order" && !/^[A-Za-z0-9][A-Za-z0-9 /-]{2,29}$/.test(value)) {
    return { ok: false, field: "value", message: "Le numéro d’inscription à l’Ordre ne peut contenir que des lettres, des chiffres et des espaces" };
  }
  if (kind === "intermediary") {
    const compact = value.replace(/ /g, "").toUpperCase();
    if (!ORIAS.test(compact) && !CCI_CARD.test(compact)) {
      return { ok: false, field: "value", message: "Saisissez un numéro ORIAS (8 chiffres) ou un numéro de carte professionnelle (CPI suivi de 17 chiffres)" };
    }
  }
  let year: number | null = null;
  if (kind === "bar") {
    const raw = (input.year ?? "").trim();
    year = /^\d{4}$/.test(raw) ? Number(raw) : NaN;
    if (!raw) return { ok: false, field: "year", message: "L’année de prestation de serment est obligatoire" };
    if (!Number.isInteger(year) || year < 1950 || year > currentYear) {
      return { ok: false, field: "year", message: `L’année de prestation de serment doit être comprise entre 1950 et ${currentYear}` };
    }
  }
  return { ok: true, registration: { kind, value, year } };
}

/** One line for the admin checklist. */
export function registrationSummary(r: Registration): string {
  const label = REGISTRATION_FIELDS[r.kind].label;
  return r.year ? `${label}\u00a0: ${r.value} (serment prêté en ${r.year})` : `${label}\u00a0: ${r.value}`;
}

// ---------------------------------------------------------------------------------------------
// Insurance certificate

export type InsuranceStatus = "valid" | "expiring" | "expired";

/** Whole days from `today` to `date` (both "YYYY-MM-DD"); negative once past. */
export function daysUntil(date: string, today: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** Valid through its end date; "expiring" in the last 30 days. */
export function insuranceStatus(endsOn: string, today: string): InsuranceStatus {
  const left = daysUntil(endsOn, today);
  if (left < 0) return "expired";
  return left <= 30 ? "expiring" : "valid";
}

export const INSURANCE_REMINDER_DAYS = [30, 7] as const;
export type InsuranceReminder = (typeof INSURANCE_REMINDER_DAYS)[number];

/**
 * The reminder due on `today`: the 30-day one from 30 days before the end date, the 7-day one
 * from 7 days before, nothing once past. A job that missed a day still sends it the next day; the
 * outbox's dedupe key (profile, end date, reminder) makes each one go out once.
 */
export function insuranceReminderDue(endsOn: string, today: string): InsuranceReminder | null {
  const left = daysUntil(endsOn, today);
  if (left < 0 || left > 30) return null;
  return left <= 7 ? 7 : 30;
}

/** What the admin list flags for a validated member: an expired certificate, or a new one to check. */
export type InsuranceFlag = "to_renew" | "to_check" | null;

export function insuranceFlag(endsOn: string | null, checked: boolean, today: string): InsuranceFlag {
  if (!endsOn) return null;
  if (insuranceStatus(endsOn, today) === "expired") return "to_renew";
  return checked ? null : "to_check";
}

export const INSURANCE_FLAG_LABELS: Record<Exclude<InsuranceFlag, null>, string> = {
  to_renew: "Assurance à renouveler",
  to_check: "Attestation à vérifier",
};

/** The end date a new certificate may carry: from today to ten years ahead. */
export function checkInsuranceEndDate(endsOn: string, today: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(endsOn) || Number.isNaN(Date.parse(`${endsOn}T00:00:00Z`)) || new Date(`${endsOn}T00:00:00Z`).toISOString().slice(0, 10) !== endsOn) {
    return "La date de fin de validité n’est pas une date valide";
  }
  if (daysUntil(endsOn, today) < 0) return "Cette attestation a expiré\u00a0: joignez une attestation en cours de validité";
  if (daysUntil(endsOn, today) > 3660) return "La date de fin de validité est trop lointaine";
  return null;
}

// ---------------------------------------------------------------------------------------------
// The "Profil vérifié" mark

/**
 * The rule behind the mark, as every page states it (landing, /tiers-confiance, the mark itself,
 * the admin checklist): one wording so that no page promises more or less than the code grants.
 */
export const VERIFIED_MARK_RULE = {
  steps:
    "Inscription professionnelle (barreau, Ordre, office notarial, ORIAS…), SIREN de la structure, attestation d’assurance en cours de validité, charte signée et parrainage par deux confrères : la mention « Profil vérifié » n’est accordée qu’une fois ces cinq étapes contrôlées par notre équipe.",
  insurance:
    "Chaque membre dépose son attestation d’assurance responsabilité civile professionnelle, contrôlée par notre équipe. Un rappel précède son échéance ; une assurance expirée retire la mention « Profil vérifié » jusqu’à la vérification de la nouvelle attestation.",
  short: "Cinq étapes contrôlées par l’équipe, dont une attestation d’assurance en cours de validité.",
} as const;

export type StoredVerificationSummary = { steps: { step: string; checkedAt: string }[] } | null | undefined;

/**
 * Where a member stands against the rule: verified (the five steps checked and the checked
 * certificate not past its end date), the insurance to renew (five steps, certificate expired),
 * or incomplete (the steps still to check, in checklist order).
 */
export type VerificationState =
  | { kind: "verified" }
  | { kind: "insurance_expired" }
  | { kind: "incomplete"; missing: VerificationStep[] };

export function verificationState(summary: StoredVerificationSummary, insuranceValidUntil: string | null | undefined, today: string): VerificationState {
  const checked = new Set((summary?.steps ?? []).map((s) => s.step).filter(isVerificationStep));
  // A checked insurance step without the checked certificate's end date proves nothing.
  if (!insuranceValidUntil) checked.delete("insurance");
  const missing = uncheckedSteps(checked);
  if (missing.length > 0) return { kind: "incomplete", missing };
  if (insuranceStatus(insuranceValidUntil!, today) === "expired") return { kind: "insurance_expired" };
  return { kind: "verified" };
}

export function isVerified(summary: StoredVerificationSummary, insuranceValidUntil: string | null | undefined, today: string): boolean {
  return verificationState(summary, insuranceValidUntil, today).kind === "verified";
}

export type VerificationMarkView = {
  /**
   * What was checked and when (labels only: never a document's content), the date already in
   * 'dd/MM/yyyy' so that the public pages' bundle needs no date code.
   */
  lines: { label: string; checkedOn: string }[];
};

/** The mark, for everyone alike: null unless the member is verified under the rule above. */
export function verificationMark(summary: StoredVerificationSummary, insuranceValidUntil: string | null | undefined, today: string): VerificationMarkView | null {
  if (!isVerified(summary, insuranceValidUntil, today)) return null;
  const byStep = new Map((summary?.steps ?? []).map((s) => [s.step, s.checkedAt]));
  return { lines: VERIFICATION_STEPS.map((step) => ({ label: VERIFICATION_PUBLIC_LABELS[step], checkedOn: formatDate(byStep.get(step)!) })) };
}

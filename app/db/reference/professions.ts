/** The 11 professions a member can declare; codes are stable and stored in the database. */

export const PROFESSION_CODES = [
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
] as const;

export type ProfessionCode = (typeof PROFESSION_CODES)[number];

const CODE_SET: ReadonlySet<string> = new Set<string>(PROFESSION_CODES);

const PROFESSION_LABELS: Readonly<Record<ProfessionCode, string>> = {
  avocat_affaires: "Avocat d’affaires / M&A",
  avocat_fiscaliste: "Avocat fiscaliste",
  notaire: "Notaire",
  expert_comptable: "Expert-comptable",
  commissaire_aux_comptes: "Commissaire aux comptes",
  conseiller_patrimoine: "Conseiller en gestion de patrimoine",
  conseil_ma: "Conseil en fusions-acquisitions",
  conseil_levee_fonds: "Conseil en levée de fonds",
  conseil_cession_commerce: "Conseil en cession de fonds de commerce",
  conseil_immobilier_commercial: "Conseil en immobilier commercial",
  expert_evaluation: "Expert en évaluation d’entreprise",
};

export interface Profession {
  readonly code: ProfessionCode;
  readonly label: string;
}

export const PROFESSIONS: readonly Profession[] = PROFESSION_CODES.map((code) => ({
  code,
  label: PROFESSION_LABELS[code],
}));

export function isProfessionCode(value: unknown): value is ProfessionCode {
  return typeof value === "string" && CODE_SET.has(value);
}

/** French label of a profession; falls back to the code itself when unknown. */
export function professionLabel(code: string): string {
  return isProfessionCode(code) ? PROFESSION_LABELS[code] : code;
}

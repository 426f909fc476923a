/** Membership colleges a professional belongs to. */

export const COLLEGE_CODES = ["transmission_entreprises", "transmission_commerces"] as const;

export type CollegeCode = (typeof COLLEGE_CODES)[number];

const CODE_SET: ReadonlySet<string> = new Set<string>(COLLEGE_CODES);

const COLLEGE_LABELS: Readonly<Record<CollegeCode, string>> = {
  transmission_entreprises: "Transmission d’entreprises",
  transmission_commerces: "Transmission de commerces",
};

export interface College {
  readonly code: CollegeCode;
  readonly label: string;
}

export const COLLEGES: readonly College[] = COLLEGE_CODES.map((code) => ({
  code,
  label: COLLEGE_LABELS[code],
}));

export function isCollegeCode(value: unknown): value is CollegeCode {
  return typeof value === "string" && CODE_SET.has(value);
}

/** French label of a college; falls back to the code itself when unknown. */
export function collegeLabel(code: string): string {
  return isCollegeCode(code) ? COLLEGE_LABELS[code] : code;
}

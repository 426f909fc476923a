// Years offered for a certified deal (spec §5 "Deal reference", §9: 20 years, current included).
export const DEAL_YEAR_COUNT = 20;

/** The current year first, then the 19 before it. */
export function dealYears(now: Date = new Date()): number[] {
  const current = now.getFullYear();
  return Array.from({ length: DEAL_YEAR_COUNT }, (_, i) => current - i);
}

export function isDealYear(year: number, now: Date = new Date()): boolean {
  const current = now.getFullYear();
  return Number.isInteger(year) && year <= current && year > current - DEAL_YEAR_COUNT;
}

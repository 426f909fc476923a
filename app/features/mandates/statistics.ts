// Pure helpers of the dashboard's mandate statistics (spec §2 "Stats tab").

// Axis labels: short enough for twelve of them on a 360 px screen.
const MONTHS_SHORT = ["jan", "fév", "mar", "avr", "mai", "juin", "juil", "aoû", "sep", "oct", "nov", "déc"];
const MONTHS_LONG = [
  "janvier", "février", "mars", "avril", "mai", "juin",
  "juillet", "août", "septembre", "octobre", "novembre", "décembre",
];

export type MonthBucket = { month: string; shortLabel: string; label: string };

/** The 12 calendar months ending with the month of `today` ('YYYY-MM-DD'), oldest first. */
export function lastTwelveMonths(today: string): MonthBucket[] {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7)) - 1;
  const out: MonthBucket[] = [];
  for (let i = 11; i >= 0; i--) {
    const index = year * 12 + month - i;
    const y = Math.floor(index / 12);
    const m = index % 12;
    out.push({
      month: `${y}-${String(m + 1).padStart(2, "0")}`,
      shortLabel: MONTHS_SHORT[m],
      label: `${MONTHS_LONG[m]} ${y}`,
    });
  }
  return out;
}

/** A 'nice' upper bound for a chart axis (1, 2, 5, 10, 20, 50…), at least 1. */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (value <= step * magnitude) return step * magnitude;
  }
  return 10 * magnitude;
}

/** Days from the introduction to the closing (whole days, never negative). */
export function daysToClose(createdAt: Date, concludedAt: Date): number {
  return Math.max(0, Math.floor((concludedAt.getTime() - createdAt.getTime()) / 86_400_000));
}

/** The median of whole numbers (null for none): the statistics' "délai médian". */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

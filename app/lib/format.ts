import { format } from "date-fns";
import { fr } from "date-fns/locale";
import { toParts, type DateInput } from "./dates";
import { truncate } from "./text";

/** Label shown for a missing value (spec §9 "Formats"). */
export const NOT_SPECIFIED = "Non spécifié";

/** date-fns options for French calendars and pickers (French locale, weeks start on Monday). */
export const DATE_FNS_OPTIONS = { locale: fr, weekStartsOn: 1 } as const;

/** Length of the message preview sent in notifications. */
export const MESSAGE_PREVIEW_LENGTH = 100;

// Dates without date-fns patterns (app/lib/dates.ts), for the public pages' bundle.
export { DISPLAY_TIME_ZONE, formatAdminDate, formatDate, formatDateTime, type DateInput } from "./dates";

// Text helpers without dates (app/lib/text.ts): the public pages import them from there, so that
// their browser bundle does not carry date-fns and its French locale.
export { countLabel, initials, placesLeftLabel, plural, truncate } from "./text";

/**
 * Any date-fns pattern with the French locale (e.g. 'EEEE d MMMM yyyy'), applied
 * to the Europe/Paris wall-clock time of the input; '' when missing or invalid.
 */
export function formatDatePattern(input: DateInput, pattern: string): string {
  const parts = toParts(input);
  if (!parts) return "";
  const wallClock = new Date(2000, 0, 1, 0, 0, 0, 0);
  wallClock.setFullYear(parts.year, parts.month - 1, parts.day);
  wallClock.setHours(parts.hour, parts.minute, 0, 0);
  return format(wallClock, pattern, DATE_FNS_OPTIONS);
}

const eurosFormatter = new Intl.NumberFormat("fr-FR", {
  style: "currency",
  currency: "EUR",
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
});

/**
 * Euros, French format, no decimals ("1 234 567 €" with U+202F between groups
 * and U+00A0 before €). 'Non spécifié' when missing or not a finite number.
 * Numeric strings (e.g. Postgres numeric columns) are accepted.
 */
export function formatEuros(amount: number | bigint | string | null | undefined): string {
  if (amount === null || amount === undefined) return NOT_SPECIFIED;
  if (typeof amount === "bigint") return eurosFormatter.format(amount);
  const value = typeof amount === "string" ? (amount.trim() === "" ? Number.NaN : Number(amount)) : amount;
  if (!Number.isFinite(value)) return NOT_SPECIFIED;
  // Values that round to zero would print as "-0 €".
  return eurosFormatter.format(Math.abs(value) < 0.5 ? 0 : value);
}

/** Message preview for notifications: first 100 characters plus '…' if longer. */
export function messagePreview(text: string | null | undefined): string {
  return truncate(text, MESSAGE_PREVIEW_LENGTH);
}

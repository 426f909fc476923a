import { format, isValid, parseISO } from "date-fns";
import { fr } from "date-fns/locale";
import { truncate } from "./text";

/** Label shown for a missing value (spec §9 "Formats"). */
export const NOT_SPECIFIED = "Non spécifié";

/** Time zone in which timestamps are displayed, whatever the machine's zone. */
export const DISPLAY_TIME_ZONE = "Europe/Paris";

/** date-fns options for French calendars and pickers (French locale, weeks start on Monday). */
export const DATE_FNS_OPTIONS = { locale: fr, weekStartsOn: 1 } as const;

/** Length of the message preview sent in notifications. */
export const MESSAGE_PREVIEW_LENGTH = 100;

export type DateInput = Date | string | null | undefined;

// Text helpers without dates (app/lib/text.ts): the public pages import them from there, so that
// their browser bundle does not carry date-fns and its French locale.
export { countLabel, initials, placesLeftLabel, plural, truncate } from "./text";

const DATE_ONLY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const parisPartsFormatter = new Intl.DateTimeFormat("en-US", {
  timeZone: DISPLAY_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** Wall-clock parts of an instant in Europe/Paris. */
function parisParts(instant: Date): DateTimeParts {
  const values: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of parisPartsFormatter.formatToParts(instant)) {
    if (part.type !== "literal") values[part.type] = Number(part.value);
  }
  return {
    year: values.year ?? 0,
    month: values.month ?? 0,
    day: values.day ?? 0,
    // Some engines print midnight as "24" even with h23.
    hour: (values.hour ?? 0) % 24,
    minute: values.minute ?? 0,
  };
}

/**
 * Calendar parts of a date input. A 'YYYY-MM-DD' string is a calendar date and
 * is taken as is (no time-zone shift); a Date or any other ISO string is an
 * instant, shown in Europe/Paris. Returns null when missing or invalid.
 */
function toParts(input: DateInput): DateTimeParts | null {
  if (input === null || input === undefined) return null;
  if (typeof input === "string") {
    const text = input.trim();
    const dateOnly = DATE_ONLY_PATTERN.exec(text);
    if (dateOnly) {
      const year = Number(dateOnly[1]);
      const month = Number(dateOnly[2]);
      const day = Number(dateOnly[3]);
      // Round-trip through a local date to reject impossible dates (2023-02-30).
      const local = new Date(year, month - 1, day);
      if (local.getFullYear() !== year || local.getMonth() !== month - 1 || local.getDate() !== day) {
        return null;
      }
      return { year, month, day, hour: 0, minute: 0 };
    }
    const instant = parseISO(text);
    return isValid(instant) ? parisParts(instant) : null;
  }
  return isValid(input) ? parisParts(input) : null;
}

function pad(value: number, length = 2): string {
  return String(value).padStart(length, "0");
}

/** 'dd/MM/yyyy'; timestamps in Europe/Paris; '' when missing or invalid. */
export function formatDate(input: DateInput): string {
  const parts = toParts(input);
  if (!parts) return "";
  return `${pad(parts.day)}/${pad(parts.month)}/${pad(parts.year, 4)}`;
}

/** 'dd/MM/yyyy HH:mm' in Europe/Paris; '' when missing or invalid. */
export function formatDateTime(input: DateInput): string {
  const parts = toParts(input);
  if (!parts) return "";
  return `${pad(parts.day)}/${pad(parts.month)}/${pad(parts.year, 4)} ${pad(parts.hour)}:${pad(parts.minute)}`;
}

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

/** Admin screens: `toLocaleDateString('fr-FR')` in Europe/Paris; '' when missing or invalid. */
export function formatAdminDate(input: DateInput): string {
  if (input === null || input === undefined) return "";
  if (typeof input === "string" && DATE_ONLY_PATTERN.test(input.trim())) {
    return formatDate(input);
  }
  const instant = typeof input === "string" ? parseISO(input.trim()) : input;
  if (!isValid(instant)) return "";
  return instant.toLocaleDateString("fr-FR", { timeZone: DISPLAY_TIME_ZONE });
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

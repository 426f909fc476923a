// Dates for display without date-fns' formatter and French locale: the public pages import
// these from here, so that their browser bundle does not carry them (app/lib/format.ts re-exports
// them with the formatters that need date-fns' patterns).

/** Time zone in which timestamps are displayed, whatever the machine's zone. */
export const DISPLAY_TIME_ZONE = "Europe/Paris";

export type DateInput = Date | string | null | undefined;

const DATE_ONLY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An ISO 8601 date and time ('T' or a space between them, as PostgreSQL prints), optional zone. */
const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

function isValidDate(date: Date): boolean {
  return !Number.isNaN(date.getTime());
}

/**
 * The instant of an ISO 8601 date-time string, or null (what date-fns' parseISO accepted for the
 * forms this app produces, without shipping it to the browser): without a zone the time is local.
 */
export function parseIsoDateTime(text: string): Date | null {
  const m = DATE_TIME_PATTERN.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = Number(m[6] ?? 0);
  const ms = Math.floor(Number(`0.${m[7] ?? "0"}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return null;
  const zone = m[8];
  if (zone === undefined) {
    const local = new Date(2000, 0, 1);
    local.setFullYear(year, month - 1, day);
    local.setHours(hour, minute, second, ms);
    return isValidDate(local) ? local : null;
  }
  let offsetMinutes = 0;
  if (zone !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0));
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, ms);
  const instant = new Date(utc.getTime() - offsetMinutes * 60_000);
  return isValidDate(instant) ? instant : null;
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export interface DateTimeParts {
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

/** Wall-clock parts of an instant in Europe/Paris, from Intl (the reference; slow: ~10 µs). */
export function parisPartsFromIntl(instant: Date): DateTimeParts {
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

const HOUR_MS = 3_600_000;
/**
 * Since 1977 every change of Paris's offset happens on a whole UTC hour (01:00 UTC), so one UTC
 * hour has one offset: it is asked of Intl once per hour and kept, as a page of the
 * internal directory formats many dates and formatToParts showed in its server time.
 */
const OFFSET_CACHE_FROM = Date.UTC(1977, 0, 1);
const OFFSET_CACHE_MAX = 10_000;
const parisOffsetByHour = new Map<number, number>();

function parisOffsetMs(hour: number): number {
  let offset = parisOffsetByHour.get(hour);
  if (offset === undefined) {
    const start = hour * HOUR_MS;
    const p = parisPartsFromIntl(new Date(start));
    offset = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - start;
    if (parisOffsetByHour.size >= OFFSET_CACHE_MAX) parisOffsetByHour.clear();
    parisOffsetByHour.set(hour, offset);
  }
  return offset;
}

/** Wall-clock parts of an instant in Europe/Paris. */
export function parisParts(instant: Date): DateTimeParts {
  const time = instant.getTime();
  if (time < OFFSET_CACHE_FROM) return parisPartsFromIntl(instant);
  const wall = new Date(time + parisOffsetMs(Math.floor(time / HOUR_MS)));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
  };
}

/**
 * Calendar parts of a date input. A 'YYYY-MM-DD' string is a calendar date and
 * is taken as is (no time-zone shift); a Date or any other ISO string is an
 * instant, shown in Europe/Paris. Returns null when missing or invalid.
 */
export function toParts(input: DateInput): DateTimeParts | null {
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
    const instant = parseIsoDateTime(text);
    return instant ? parisParts(instant) : null;
  }
  return isValidDate(input) ? parisParts(input) : null;
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

/** Admin screens: `toLocaleDateString('fr-FR')` in Europe/Paris; '' when missing or invalid. */
export function formatAdminDate(input: DateInput): string {
  if (input === null || input === undefined) return "";
  if (typeof input === "string" && DATE_ONLY_PATTERN.test(input.trim())) {
    return formatDate(input);
  }
  const instant = typeof input === "string" ? parseIsoDateTime(input) : input;
  if (!instant || !isValidDate(instant)) return "";
  return instant.toLocaleDateString("fr-FR", { timeZone: DISPLAY_TIME_ZONE });
}

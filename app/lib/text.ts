// Text helpers of the spec's formats (§9) that need no date library: plural forms, counts,
// truncation, initials. Re-exported by app/lib/format.ts; the public pages import them from here
// so that their browser bundle stays without date-fns.

/**
 * French plural: counts below 2 (0 and 1) take the singular.
 * The plural form defaults to the singular followed by "s".
 */
export function plural(count: number, singular: string, pluralForm?: string): string {
  return Math.abs(count) < 2 ? singular : (pluralForm ?? `${singular}s`);
}

const countFormatter = new Intl.NumberFormat("fr-FR");

/** "2 professionnels trouvés", with the count formatted fr-FR ("1 000" with U+202F). */
export function countLabel(count: number, singular: string, pluralForm?: string): string {
  return `${countFormatter.format(count)} ${plural(count, singular, pluralForm)}`;
}

/**
 * First `max` characters (code points) followed by '…' when the text is longer;
 * the text unchanged otherwise. Missing text gives ''.
 */
export function truncate(text: string | null | undefined, max: number): string {
  if (!text) return "";
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max)).join("")}…`;
}

/** Upper-cased first letters of first and last name ("ÉD" for Élodie Dupré). */
export function initials(firstName: string | null | undefined, lastName: string | null | undefined): string {
  const first = Array.from((firstName ?? "").trim())[0] ?? "";
  const last = Array.from((lastName ?? "").trim())[0] ?? "";
  return `${first}${last}`.toUpperCase();
}

/**
 * "Plus que 12 places…", "Plus qu'une place…" (French elides que before une), with the noun
 * agreeing: `nouns` are the singular and plural forms that follow the count.
 */
export function placesLeftLabel(count: number, nouns: [string, string]): string {
  if (count === 1) return `Plus qu’une ${nouns[0]}`;
  return `Plus que ${countLabel(count, nouns[0], nouns[1])}`;
}

import { professionLabel } from "~/db/reference/professions";

/** Ligatures and letters that NFD does not decompose into a base letter. */
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  "œ": "oe",
  "æ": "ae",
  "ß": "ss",
};

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * URL slug (spec §2): lower-cased, accents removed, every character other than
 * a–z, digits, whitespace and hyphens dropped (so "d'Arc" gives "darc"),
 * whitespace runs turned into hyphens, repeated hyphens collapsed and
 * leading/trailing hyphens trimmed.
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[œæß]/g, (letter) => SPECIAL_LETTERS[letter] ?? "")
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");
}

export interface ProfileSlugInput {
  firstName?: string | null;
  lastName?: string | null;
  /** Profession code (e.g. "notaire"); its French label is used in the slug. */
  profession?: string | null;
  /** Profile UUID; always the last five dash-separated segments of the slug. */
  id: string;
}

/**
 * Slug of /consultant/{slug}: "{first-last}-{profession-label}-{id}",
 * e.g. "elodie-dupre-notaire-3f2a…". Empty parts are skipped.
 */
export function profileSlug({ firstName, lastName, profession, id }: ProfileSlugInput): string {
  const name = [firstName ?? "", lastName ?? ""].join(" ");
  const job = profession ? professionLabel(profession) : "";
  return [slugify(name), slugify(job), slugify(id)].filter((part) => part !== "").join("-");
}

/**
 * Profile id carried by a slug: the last five dash-separated segments when they
 * form a UUID (returned lower-cased), otherwise null.
 */
export function profileIdFromSlug(slug: string): string | null {
  const segments = slug.split("-");
  if (segments.length < 5) return null;
  const candidate = segments.slice(-5).join("-");
  return UUID_PATTERN.test(candidate) ? candidate.toLowerCase() : null;
}

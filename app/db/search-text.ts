// The text behind the directory's trigram search (profiles.search_text). Pure, so that every
// writer of a profile (features, factories, seed) computes exactly the same value.
import { professionLabel, sectorName } from "~/db/reference";

export type SearchTextInput = {
  firstName: string;
  lastName: string;
  company: string;
  profession: string;
  specializationSectors?: readonly string[] | null;
};

// NFD leaves ligatures alone, whereas PostgreSQL's unaccent() (used on the query side) expands
// them; map the French ones so both sides agree.
const LIGATURES: Record<string, string> = { "œ": "oe", "æ": "ae", "ß": "ss" };

/** Lower-cases, strips accents (NFD + combining marks), expands ligatures, squeezes spaces. */
export function normalizeSearchText(value: string): string {
  return value
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/[œæß]/g, (c) => LIGATURES[c] ?? c)
    // Hyphens and apostrophes separate words: "expert comptable" finds "Expert-comptable".
    .replace(/[-‐‑–—'’‘`]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Full name, company, profession label and sector names, normalised for search. */
export function profileSearchText(p: SearchTextInput): string {
  const parts = [
    p.firstName,
    p.lastName,
    p.company,
    professionLabel(p.profession),
    ...(p.specializationSectors ?? []).map((code) => sectorName(code)),
  ];
  return normalizeSearchText(parts.filter((s) => s && s.trim() !== "").join(" "));
}

// SIREN (9 digits) and SIRET (14 digits) of a firm, checked with their Luhn key. Pure.
// Members type them as they read them ("732 829 320 00074"): spaces are accepted and the typed
// form is kept for display, the digits alone are stored for checks and searches.

/** La Poste's establishments share one SIREN and their SIRET keys follow another rule. */
const LA_POSTE_SIREN = "356000000";

export type SirenKind = "siren" | "siret";
export type SirenCheck =
  | { ok: true; kind: SirenKind; digits: string; display: string }
  | { ok: false; problem: "empty" | "characters" | "length" | "key" };

export const SIREN_MESSAGES = {
  empty: "Le numéro SIREN ou SIRET est obligatoire",
  characters: "Le numéro SIREN ou SIRET ne peut contenir que des chiffres et des espaces",
  length: "Le numéro SIREN compte 9 chiffres et le numéro SIRET 14 chiffres",
  key: "Ce numéro SIREN ou SIRET n’est pas valide\u00a0: vérifiez les chiffres saisis",
} as const;

/** Luhn checksum: every second digit from the right doubled. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function checkSiren(typed: string): SirenCheck {
  // Non-breaking and narrow spaces come from copies of official documents.
  const display = typed.replace(/[\u00a0\u202f\t]/g, " ").trim().replace(/ {2,}/g, " ");
  if (!display) return { ok: false, problem: "empty" };
  if (!/^[\d ]+$/.test(display)) return { ok: false, problem: "characters" };
  const digits = display.replace(/ /g, "");
  if (digits.length !== 9 && digits.length !== 14) return { ok: false, problem: "length" };
  const kind: SirenKind = digits.length === 9 ? "siren" : "siret";
  const valid =
    kind === "siret" && digits.startsWith(LA_POSTE_SIREN) && digits !== `${LA_POSTE_SIREN}00048`
      ? [...digits].reduce((s, c) => s + Number(c), 0) % 5 === 0
      : luhnValid(digits);
  // The SIRET carries its own key; its first 9 digits must be a valid SIREN too.
  if (!valid || (kind === "siret" && !luhnValid(digits.slice(0, 9)))) return { ok: false, problem: "key" };
  return { ok: true, kind, digits, display };
}

/** `prefix` followed by the digit that makes it pass the Luhn check (demo data and tests). */
export function withLuhnKey(prefix: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${prefix}${d}`)) return `${prefix}${d}`;
  throw new Error("unreachable");
}

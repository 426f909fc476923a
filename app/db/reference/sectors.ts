/**
 * Activity sectors: the 21 sections (A–U) of the French activity nomenclature
 * (NAF rév. 2, "Nomenclature d'activités française").
 * Mandates display sectors as "code name"; profiles store the codes.
 */

export const SECTOR_CODES = [
  "A",
  "B",
  "C",
  "D",
  "E",
  "F",
  "G",
  "H",
  "I",
  "J",
  "K",
  "L",
  "M",
  "N",
  "O",
  "P",
  "Q",
  "R",
  "S",
  "T",
  "U",
] as const;

export type SectorCode = (typeof SECTOR_CODES)[number];

const CODE_SET: ReadonlySet<string> = new Set<string>(SECTOR_CODES);

const SECTOR_NAMES: Readonly<Record<SectorCode, string>> = {
  A: "Agriculture, sylviculture et pêche",
  B: "Industries extractives",
  C: "Industrie manufacturière",
  D: "Production et distribution d’électricité, de gaz, de vapeur et d’air conditionné",
  E: "Production et distribution d’eau\u00a0; assainissement, gestion des déchets et dépollution",
  F: "Construction",
  G: "Commerce\u00a0; réparation d’automobiles et de motocycles",
  H: "Transports et entreposage",
  I: "Hébergement et restauration",
  J: "Information et communication",
  K: "Activités financières et d’assurance",
  L: "Activités immobilières",
  M: "Activités spécialisées, scientifiques et techniques",
  N: "Activités de services administratifs et de soutien",
  O: "Administration publique",
  P: "Enseignement",
  Q: "Santé humaine et action sociale",
  R: "Arts, spectacles et activités récréatives",
  S: "Autres activités de services",
  T: "Activités des ménages en tant qu’employeurs\u00a0; activités indifférenciées des ménages en tant que producteurs de biens et services pour usage propre",
  U: "Activités extra-territoriales",
};

export interface Sector {
  readonly code: SectorCode;
  readonly name: string;
}

export const SECTORS: readonly Sector[] = SECTOR_CODES.map((code) => ({
  code,
  name: SECTOR_NAMES[code],
}));

export function isSectorCode(value: unknown): value is SectorCode {
  return typeof value === "string" && CODE_SET.has(value);
}

/** French name of a sector; falls back to the code itself when unknown. */
export function sectorName(code: string): string {
  return isSectorCode(code) ? SECTOR_NAMES[code] : code;
}

/** "A - Agriculture, sylviculture et pêche" (mandates show the code, then the name). */
export function sectorLabel(code: string): string {
  return isSectorCode(code) ? `${code} - ${SECTOR_NAMES[code]}` : code;
}

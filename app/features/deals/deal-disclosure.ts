// What the public sees of a certified deal: the parties' names only when the member
// chose to name them and certified their consent; otherwise an anonymised line made of the
// sector, size band, region and year. One rule for the profile, its JSON-LD and the directory.
export const DEAL_DISCLOSURES = ["anonymised", "named"] as const;
export type DealDisclosure = (typeof DEAL_DISCLOSURES)[number];

export const DEAL_SIZE_BANDS = [
  { code: "lt1", label: "moins de 1 M€" },
  { code: "1to5", label: "1 à 5 M€" },
  { code: "5to20", label: "5 à 20 M€" },
  { code: "20to50", label: "20 à 50 M€" },
  { code: "gt50", label: "plus de 50 M€" },
] as const;
export type DealSizeBand = (typeof DEAL_SIZE_BANDS)[number]["code"];
export const DEAL_SIZE_BAND_CODES = DEAL_SIZE_BANDS.map((b) => b.code) as [DealSizeBand, ...DealSizeBand[]];

export const DEAL_REGIONS = [
  "Auvergne-Rhône-Alpes",
  "Bourgogne-Franche-Comté",
  "Bretagne",
  "Centre-Val de Loire",
  "Corse",
  "Grand Est",
  "Hauts-de-France",
  "Île-de-France",
  "Normandie",
  "Nouvelle-Aquitaine",
  "Occitanie",
  "Pays de la Loire",
  "Provence-Alpes-Côte d’Azur",
  "Outre-mer",
  "International",
] as const;
export type DealRegion = (typeof DEAL_REGIONS)[number];

export function sizeBandLabel(code: string | null | undefined): string | null {
  return DEAL_SIZE_BANDS.find((b) => b.code === code)?.label ?? null;
}

/** The columns the rule reads; the parties' names are only returned when they may be shown. */
export type DisclosableDeal = {
  year: number;
  sector: string;
  acquirerCedant: string;
  dealDescription: string | null;
  disclosure: string;
  sizeBand: string | null;
  region: string | null;
  partiesConsentAt: Date | string | null;
};

export type PublicDealView = { year: number; sector: string; title: string; dealDescription: string | null; named: boolean };

/**
 * Named only when both the choice and the consent are recorded (the database refuses one without
 * the other, this guards any row read some other way); anything else is anonymised.
 */
export function publicDealView(deal: DisclosableDeal): PublicDealView {
  const named = deal.disclosure === "named" && deal.partiesConsentAt != null;
  if (named) return { year: deal.year, sector: deal.sector, title: deal.acquirerCedant, dealDescription: deal.dealDescription, named };
  const size = sizeBandLabel(deal.sizeBand);
  const region = DEAL_REGIONS.includes(deal.region as DealRegion) ? deal.region : null;
  // Year and sector are shown beside the title everywhere, so the title adds only size and region.
  const details = [size ? `valeur ${size}` : null, region].filter(Boolean).join(", ");
  const title = details ? `Opération confidentielle — ${details}` : "Opération confidentielle";
  // The free description may name the parties, so an anonymised deal never publishes it.
  return { year: deal.year, sector: deal.sector, title, dealDescription: null, named };
}

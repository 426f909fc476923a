// What the fee-sharing agreement form proposes before the member confirms or changes it:
// the operation type, who advises the seller and who the buyer, and the amounts band,
// read from the two mandates of the file. Pure; a mandate deleted since the file opened is absent.
import { AMOUNT_BANDS, type AmountBand } from "./collaboration-rules";

export type College = "transmission_entreprises" | "transmission_commerces";

/** One mandate of the file, as the agreement needs it. */
export type MandateFacts = {
  side: "a" | "b";
  type: "buyer" | "seller";
  /** The college of the member holding the mandate (company vs. goodwill transfers). */
  college: College | null;
  /** Seller: the valuation of the target, whole euros. */
  valuation: number | null;
  /** Buyer: the range of targets searched, whole euros. */
  targetMin: number | null;
  targetMax: number | null;
};

/** The operation types a suggestion can lead to (the form offers more). */
export type SuggestedOperation = "titres" | "fonds_de_commerce";

export type AgreementSuggestion = {
  operationType: SuggestedOperation | null;
  /** The side holding the seller's mandate, or null when the mandates do not say. */
  sellerSide: "a" | "b" | null;
  amountBand: AmountBand | null;
};

// Upper bounds (inclusive) of the bands, in euros; above the last one: "gt_10m".
const BAND_CEILINGS: [AmountBand, number][] = [
  ["lt_500k", 499_999],
  ["500k_1m", 1_000_000],
  ["1m_3m", 3_000_000],
  ["3m_10m", 10_000_000],
];

/** The band an amount falls in (null for no amount or a negative one). */
export function amountBandOf(euros: number | null): AmountBand | null {
  if (euros === null || !Number.isFinite(euros) || euros < 0) return null;
  for (const [band, ceiling] of BAND_CEILINGS) if (euros <= ceiling) return band;
  return AMOUNT_BANDS[AMOUNT_BANDS.length - 1];
}

const OPERATION_OF_COLLEGE: Record<College, SuggestedOperation> = {
  transmission_entreprises: "titres",
  transmission_commerces: "fonds_de_commerce",
};

/**
 * The seller's side is the side of the one seller mandate; the operation follows the college of
 * the member holding it (the target is their client), else the college both members share; the
 * band is the seller's valuation, else the buyer's range when both its ends lie within one band.
 */
export function suggestAgreement(mandates: readonly MandateFacts[]): AgreementSuggestion {
  const sellers = mandates.filter((m) => m.type === "seller");
  const buyers = mandates.filter((m) => m.type === "buyer");
  const seller = sellers.length === 1 ? sellers[0] : null;
  const buyer = buyers.length === 1 ? buyers[0] : null;
  const sellerSide = seller && (!buyer || buyer.side !== seller.side) ? seller.side : null;

  const colleges = new Set(mandates.map((m) => m.college));
  const college = seller?.college ?? (colleges.size === 1 ? [...colleges][0] : null);
  const operationType = college ? OPERATION_OF_COLLEGE[college] : null;

  let amountBand = amountBandOf(seller?.valuation ?? null);
  if (!amountBand && buyer) {
    const low = amountBandOf(buyer.targetMin);
    const high = amountBandOf(buyer.targetMax);
    // A range open on one side says nothing of the deal's size.
    amountBand = low && high && low === high ? low : null;
  }
  return { operationType, sellerSide, amountBand };
}

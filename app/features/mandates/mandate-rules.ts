// Pure rules of the mandates (spec §3 "Mandate", §4, §6 freemium quota, §9): labels, expiry,
// status toggle, quota window, amounts. Shared by the server, the UI and the tests.
import { subMonths } from "date-fns";
import { departmentLabel, sectorLabel } from "~/db/reference";
import { formatEuros, NOT_SPECIFIED } from "~/lib/format";
import type { MandateCriteria } from "./mandate-row";
import { FREEMIUM_MANDATE_QUOTA, FREEMIUM_OPPORTUNITY_QUOTA, normaliseMembership, QUOTA_WINDOW_MONTHS } from "~/auth/permissions";

export const MANDATE_TYPES = ["buyer", "seller"] as const;
export type MandateType = (typeof MANDATE_TYPES)[number];
/**
 * 'negotiating' and 'concluded' come from a collaboration file: a mandate
 * in negotiation is no longer offered as a match; a concluded one is done for good.
 */
export const MANDATE_STATUSES = ["active", "on_hold", "expired", "negotiating", "concluded"] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];
export const MA_USAGES = ["primo_buyer", "recurrent_buyer", "structured_ma"] as const;
export type MaUsage = (typeof MA_USAGES)[number];
export const PROJECT_TIMELINES = ["3_months", "6_months", "9_months", "12_months", "24_months"] as const;
export type ProjectTimeline = (typeof PROJECT_TIMELINES)[number];
export const TARGET_BUYER_TYPES = ["same_industry", "investment_fund", "company", "individual_entrepreneur", "other"] as const;
export type TargetBuyerType = (typeof TARGET_BUYER_TYPES)[number];

/** Stored among the buyer's territories for 'France entière' (spec §5); the matcher also knows 'france_entiere'. */
export const FRANCE_TERRITORY = "france";
export const NATIONWIDE_TERRITORIES: readonly string[] = ["france", "france_entiere"];

export const MANDATE_TYPE_LABELS: Record<MandateType, string> = {
  buyer: "Mandat acquéreur",
  seller: "Mandat cédant",
};
export const MANDATE_STATUS_LABELS: Record<MandateStatus, string> = {
  active: "Actif",
  on_hold: "En veille",
  expired: "Expiré",
  negotiating: "En négociation",
  concluded: "Conclu",
};
export const MA_USAGE_LABELS: Record<MaUsage, string> = {
  primo_buyer: "Primo acquéreur",
  recurrent_buyer: "Acheteur récurrent",
  structured_ma: "Pratique M&A structurée",
};
export const PROJECT_TIMELINE_LABELS: Record<ProjectTimeline, string> = {
  "3_months": "3 mois",
  "6_months": "6 mois",
  "9_months": "9 mois",
  "12_months": "12 mois",
  "24_months": "24 mois",
};
export const TARGET_BUYER_TYPE_LABELS: Record<TargetBuyerType, string> = {
  same_industry: "Acteur même industrie",
  investment_fund: "Fonds d’investissement",
  company: "Entreprise",
  individual_entrepreneur: "Entrepreneur individuel",
  other: "Autre",
};

export function oppositeType(type: MandateType): MandateType {
  return type === "buyer" ? "seller" : "buyer";
}

// ---------------------------------------------------------------------------------------------
// Calendar dates. Mandate dates are calendar days (YYYY-MM-DD) in France: "today" is the date
// in Europe/Paris, whatever the server's zone, here and in SQL (`PARIS_TODAY_SQL`).

export const DEFAULT_MANDATE_DAYS = 90;
/** 'Expire bientôt' on the mandate list (spec §9). */
export const EXPIRING_SOON_DAYS = 30;
/** Dashboard attention window and expiry reminder (spec §9). */
export const ATTENTION_DAYS = 7;
export const EXPIRY_REMINDER_DAYS = 7;

const parisDateFormatter = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Paris",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Today's date in Europe/Paris, 'YYYY-MM-DD'. */
export function parisToday(now: Date = new Date()): string {
  return parisDateFormatter.format(now);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written 'YYYY-MM-DD' (rejects 2026-02-30). */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function isoToUtcDays(iso: string): number {
  const [y, m, d] = iso.split("-").map(Number);
  return Date.UTC(y, m - 1, d) / 86_400_000;
}

/** `iso` plus `days` calendar days. */
export function addDaysIso(iso: string, days: number): string {
  return new Date((isoToUtcDays(iso) + days) * 86_400_000).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round(isoToUtcDays(to) - isoToUtcDays(from));
}

export type Expiry = {
  /** Days from today to the end date: 0 on the last day, negative once ended. */
  daysLeft: number;
  /** The end date is past: shown and treated as expired (never offered as a match). */
  expired: boolean;
  /** 'Expire bientôt': not ended, and the end date is at most 30 days away. */
  expiringSoon: boolean;
};

/**
 * The end date is the mandate's last day: it ends (and shows 'Expiré') the day after. The same
 * reading as the matcher's `end_date >= today`, so a mandate offered as a match is never shown
 * as expired. 'Expire bientôt' covers the last 30 days, the last day included.
 */
export function mandateExpiry(endDate: string, today: string): Expiry {
  const daysLeft = daysBetween(today, endDate);
  return { daysLeft, expired: daysLeft < 0, expiringSoon: daysLeft >= 0 && daysLeft <= EXPIRING_SOON_DAYS };
}

/** Past the search phase: an offer is under way, or the deal is done. */
export function isBeyondSearch(status: MandateStatus): boolean {
  return status === "negotiating" || status === "concluded";
}

/**
 * Status shown on the badge: 'expired' also when the end date is past — except for a mandate in
 * negotiation or concluded, whose state says more than its search period.
 */
export function effectiveStatus(status: MandateStatus, endDate: string, today: string): MandateStatus {
  if (isBeyondSearch(status)) return status;
  if (status === "expired" || mandateExpiry(endDate, today).expired) return "expired";
  return status;
}

/** An active mandate whose end date is within the dashboard's 7-day window (last day included). */
export function needsAttention(status: MandateStatus, endDate: string, today: string): boolean {
  const { daysLeft } = mandateExpiry(endDate, today);
  return status === "active" && daysLeft >= 0 && daysLeft <= ATTENTION_DAYS;
}

/** The single toggle of spec §4: active → on_hold, anything else → active. */
export function toggledStatus(status: MandateStatus): MandateStatus {
  return status === "active" ? "on_hold" : "active";
}

/**
 * The toggle applies to the search states only: a mandate in negotiation goes back with
 * « Remettre en recherche active », a concluded one stays concluded.
 */
export function canToggleStatus(status: MandateStatus): boolean {
  return !isBeyondSearch(status);
}

/** Offered as a match: active and not ended. */
export function isMatchable(status: MandateStatus, endDate: string, today: string): boolean {
  return status === "active" && !mandateExpiry(endDate, today).expired;
}

// ---------------------------------------------------------------------------------------------
// Freemium quota (spec §6, §8): at most 3 mandates created over the last six months; editing is
// exempt. The count and the insert happen in one locked transaction (mandates.server.ts).

/** Start of the rolling window: mandates created at or after this instant count. */
export function quotaWindowStart(now: Date = new Date()): Date {
  return subMonths(now, QUOTA_WINDOW_MONTHS);
}

export type QuotaState = { limited: boolean; used: number; limit: number; canCreate: boolean };

export function mandateQuota(membershipType: string | null | undefined, usedInWindow: number): QuotaState {
  const limited = normaliseMembership(membershipType) === "freemium";
  return {
    limited,
    used: usedInWindow,
    limit: FREEMIUM_MANDATE_QUOTA,
    canCreate: !limited || usedInWindow < FREEMIUM_MANDATE_QUOTA,
  };
}

/** Match requests ("opportunités") sent over the last six months and what the tier allows. */
export type OpportunityQuota = { limited: boolean; used: number; limit: number; canRequest: boolean };

export function opportunityQuota(membershipType: string | null | undefined, usedInWindow: number): OpportunityQuota {
  const limited = normaliseMembership(membershipType) === "freemium";
  return {
    limited,
    used: usedInWindow,
    limit: FREEMIUM_OPPORTUNITY_QUOTA,
    canRequest: !limited || usedInWindow < FREEMIUM_OPPORTUNITY_QUOTA,
  };
}

export const OPPORTUNITY_QUOTA_REACHED =
  "Limite atteinte\u00a0: les membres freemium peuvent envoyer 3 demandes de mise en relation par semestre. Passez Premium pour des demandes illimitées.";

/** 'Demandes de mise en relation : 1/3 utilisées ce semestre' (with the right plural). */
export function opportunityBanner(used: number): string {
  const n = Math.min(used, FREEMIUM_OPPORTUNITY_QUOTA);
  return `Compte freemium\u00a0: ${n}/${FREEMIUM_OPPORTUNITY_QUOTA} demande${n > 1 ? "s" : ""} de mise en relation ${n > 1 ? "utilisées" : "utilisée"} ce semestre`;
}

export const MANDATE_MESSAGES = {
  quotaReached: "Limite atteinte : Les membres freemium peuvent créer maximum 3 mandats par semestre",
  saveFailed: "Erreur lors de l'enregistrement : ",
  created: "Mandat créé avec succès",
  updated: "Mandat mis à jour avec succès",
  loadFailed: "Erreur lors du chargement des mandats",
  statusFailed: "Erreur lors de la modification du statut",
  onHold: "Mandat mis en veille",
  reactivated: "Mandat réactivé",
  toggleBeyondSearch: "Ce mandat est en négociation ou conclu\u00a0: il ne se met pas en veille. Un mandat en négociation se remet en recherche active depuis sa carte ou son dossier.",
  deleteFailed: "Erreur lors de la suppression",
  deleted: "Mandat supprimé",
} as const;

/** 'Compte freemium : X/3 mandats utilisés ce semestre' (spec §2). */
export function quotaBanner(used: number): string {
  return `Compte freemium : ${Math.min(used, FREEMIUM_MANDATE_QUOTA)}/${FREEMIUM_MANDATE_QUOTA} mandats utilisés ce semestre`;
}

// ---------------------------------------------------------------------------------------------
// Amounts: whole euros. The spec turns non-numeric input into 0; we also refuse negative and
// absurd amounts (bigint columns, a check constraint refuses negatives anyway).

export const MAX_AMOUNT = 1_000_000_000_000;

export const AMOUNT_MESSAGES = {
  negative: "Le montant ne peut pas être négatif",
  tooLarge: "Le montant est trop élevé",
  minAboveMax: "Le montant minimum ne peut pas être supérieur au montant maximum",
} as const;

export type ParsedAmount = { ok: true; value: number | null } | { ok: false; error: string };

/**
 * '' or missing → null (not specified); '1 500 000', '1500000', '1 500 000,50' → a whole number
 * of euros; anything non-numeric → 0 (spec §5); negative or above a trillion → an error.
 */
export function parseAmount(raw: string | number | null | undefined): ParsedAmount {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  let value: number;
  if (typeof raw === "number") {
    value = raw;
  } else {
    const text = raw.replace(/[\s\u00a0\u202f€]/g, "").replace(",", ".");
    if (text === "") return { ok: true, value: null };
    value = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? Number(text) : 0;
  }
  if (!Number.isFinite(value)) value = 0;
  if (value < 0) return { ok: false, error: AMOUNT_MESSAGES.negative };
  if (value > MAX_AMOUNT) return { ok: false, error: AMOUNT_MESSAGES.tooLarge };
  return { ok: true, value: Math.round(value) };
}

/** A range is invalid only when both bounds are given and the minimum is above the maximum. */
export function isRangeInverted(min: number | null | undefined, max: number | null | undefined): boolean {
  return min !== null && min !== undefined && max !== null && max !== undefined && min > max;
}

/** "500 000 € - 2 000 000 €", "À partir de 500 000 €", "Jusqu'à 2 000 000 €" or 'Non spécifié'. */
export function formatEuroRange(min: number | null | undefined, max: number | null | undefined): string {
  const hasMin = min !== null && min !== undefined;
  const hasMax = max !== null && max !== undefined;
  if (hasMin && hasMax) return `${formatEuros(min)} - ${formatEuros(max)}`;
  if (hasMin) return `À partir de ${formatEuros(min)}`;
  if (hasMax) return `Jusqu’à ${formatEuros(max)}`;
  return NOT_SPECIFIED;
}

// ---------------------------------------------------------------------------------------------
// Summaries shown on cards and to counterparties.

export function isNationwide(territories: readonly string[] | null | undefined): boolean {
  return (territories ?? []).some((t) => NATIONWIDE_TERRITORIES.includes(t));
}

/** Buyer card: 'France entière' or a count of départements (spec §2). */
export function territoriesSummary(territories: readonly string[] | null | undefined): string {
  const list = territories ?? [];
  if (isNationwide(list)) return "France entière";
  if (list.length === 0) return NOT_SPECIFIED;
  return list.length === 1 ? "1 département" : `${list.length} départements`;
}

/** Territory badge: 'france' shows 'France entière', a department its code and name. */
export function territoryLabel(code: string): string {
  return NATIONWIDE_TERRITORIES.includes(code) ? "France entière" : departmentLabel(code);
}

export function timelineLabel(value: string | null | undefined): string {
  return value && Object.hasOwn(PROJECT_TIMELINE_LABELS, value) ? PROJECT_TIMELINE_LABELS[value as ProjectTimeline] : NOT_SPECIFIED;
}

export function maUsageLabel(value: string | null | undefined): string {
  return value && Object.hasOwn(MA_USAGE_LABELS, value) ? MA_USAGE_LABELS[value as MaUsage] : NOT_SPECIFIED;
}

export function buyerTypeLabel(value: string): string {
  return Object.hasOwn(TARGET_BUYER_TYPE_LABELS, value) ? TARGET_BUYER_TYPE_LABELS[value as TargetBuyerType] : value;
}

/** Card border: green active, yellow on hold, blue in negotiation, grey concluded, red otherwise (spec §2). */
export function cardBorderClass(status: MandateStatus): string {
  switch (status) {
    case "active":
      return "border-l-green-600";
    case "on_hold":
      return "border-l-yellow-500";
    case "negotiating":
      return "border-l-blue-700";
    case "concluded":
      return "border-l-slate-500";
    case "expired":
      return "border-l-red-600";
  }
}

export type MandateBusinessFields = {
  mandateType: MandateType;
  searchSectors: readonly string[] | null;
  searchTerritories: readonly string[] | null;
  targetAmountMin: number | null;
  targetAmountMax: number | null;
  companySector: string | null;
  companyTerritory: string | null;
  valuationAmount: number | null;
  projectTimeline: string | null;
};

/**
 * The summary lines of a card (spec §2): buyer — target amount range and territories; seller —
 * valuation, territory and 'Délai'. Business criteria only: safe to show to anyone.
 */
export function mandateSummaryLines(m: MandateBusinessFields): Array<{ label: string; value: string }> {
  if (m.mandateType === "buyer") {
    return [
      { label: "Montant cible", value: formatEuroRange(m.targetAmountMin, m.targetAmountMax) },
      { label: "Territoires", value: territoriesSummary(m.searchTerritories) },
    ];
  }
  return [
    { label: "Valorisation", value: formatEuros(m.valuationAmount) },
    { label: "Territoire", value: m.companyTerritory ? territoryLabel(m.companyTerritory) : NOT_SPECIFIED },
    { label: "Délai", value: timelineLabel(m.projectTimeline) },
  ];
}

/** Sectors of a mandate ('C - Industrie manufacturière, G - Commerce…'), for e-mails. */
export function sectorsSummary(m: Pick<MandateBusinessFields, "mandateType" | "searchSectors" | "companySector">): string {
  const codes = m.mandateType === "buyer" ? (m.searchSectors ?? []) : m.companySector ? [m.companySector] : [];
  return codes.length ? codes.map(sectorLabel).join(", ") : NOT_SPECIFIED;
}

/**
 * What a buyer mandate lacks to be matched with any seller: without a sector, a territory and a
 * target amount range it scores 0 against everyone (the contribution alone is rarely filled by
 * sellers). Empty when it has at least one of them, and for a seller mandate.
 */
export function missingMatchCriteria(m: Pick<MandateCriteria, "mandateType" | "searchSectors" | "searchTerritories" | "targetAmountMin" | "targetAmountMax">): string[] {
  if (m.mandateType !== "buyer") return [];
  const hasSectors = (m.searchSectors ?? []).length > 0;
  const hasTerritories = (m.searchTerritories ?? []).length > 0;
  const hasAmount = m.targetAmountMin != null || m.targetAmountMax != null;
  if (hasSectors || hasTerritories || hasAmount) return [];
  return ["un secteur recherché", "un territoire", "un montant cible"];
}

export const UNMATCHABLE_BUYER_TEXT = "Ce mandat ne pourra être rapproché d’aucun mandat cédant";

/** Counts of potential matches stop here: a card says '99+'. */
export const MATCH_COUNT_CAP = 99;

/** '99+' past the count's cap. */
export function matchCountLabel(n: number, cap = MATCH_COUNT_CAP): string {
  return n > cap ? `${cap}+` : String(n);
}

// The admin back office's forms and URL queries (spec §2 "Admin", §5). Shared by the route
// components (Conform) and the actions (parseWithZod). Query parsers never refuse a URL: an
// unknown value is ignored, as in the public directory.
import type { AuditAction } from "~/lib/audit/audit-events";
import { z } from "zod";

export const ADMIN_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 30;
export const REASON_MAX = 1000;
export const SEARCH_MAX = 100;

/** Toasts of spec §8 "Admin toasts", verbatim, plus the back office's own French texts. */
export const ADMIN_MESSAGES = {
  profileValidated: "Profil validé avec succès",
  profileRejected: "Profil rejeté avec succès",
  profileUpdateFailed: "Erreur lors de la mise à jour du profil",
  profilesLoadFailed: "Erreur lors du chargement des profils",
  memberSuspended: "Membre suspendu",
  memberReinstated: "Membre réintégré",
  dealValidated: "Deal validé avec succès",
  dealRejected: "Deal rejeté avec succès",
  dealsLoadFailed: "Erreur lors du chargement des deals",
  dealUpdateFailed: "Erreur lors de la mise à jour",
  recommendationsLoadFailed: "Erreur lors du chargement des recommandations",
  emailsCopied: "Emails copiés dans le presse-papier",
  emailsExportFailed: "Impossible d’exporter les e-mails. Veuillez réessayer.",
  emailsCopyUnavailable: "Copie automatique impossible\u00a0: sélectionnez les adresses ci-dessous.",
  auditLoadFailed: "Erreur lors du chargement du journal",
  reasonTooLong: `Le motif ne doit pas dépasser ${REASON_MAX} caractères`,
} as const;

const page = z
  .string()
  .optional()
  .transform((v) => {
    const n = Number.parseInt(v ?? "1", 10);
    return Number.isFinite(n) && n >= 1 && n <= 100_000 ? n : 1;
  });

const search = z
  .string()
  .optional()
  .transform((v) => (v ?? "").replace(/\s+/g, " ").trim().slice(0, SEARCH_MAX));

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const optionalUuid = z
  .string()
  .optional()
  .transform((v) => (v && uuid.safeParse(v).success ? v.toLowerCase() : undefined));

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .optional()
    .transform((v) => (v && (values as readonly string[]).includes(v) ? (v as T[number]) : undefined));

// ---- Profiles --------------------------------------------------------------------------------

/** The statuses as they appear in the URL (`?statut=en-attente`). */
export const PROFILE_STATUS_PARAMS = {
  "en-attente": "pending_validation",
  valides: "validated",
  rejetes: "rejected",
  suspendus: "suspended",
} as const;
export type ProfileStatusParam = keyof typeof PROFILE_STATUS_PARAMS;
export type ProfileStatus = (typeof PROFILE_STATUS_PARAMS)[ProfileStatusParam];
const STATUS_PARAM_KEYS = Object.keys(PROFILE_STATUS_PARAMS) as [ProfileStatusParam, ...ProfileStatusParam[]];

export const profileListQuerySchema = z.object({
  q: search,
  statut: oneOf(STATUS_PARAM_KEYS),
  page,
  profil: optionalUuid,
});
export type ProfileListQuery = z.output<typeof profileListQuerySchema>;

export function parseProfileListQuery(params: URLSearchParams): ProfileListQuery {
  return profileListQuerySchema.parse(Object.fromEntries(params));
}

// Conform turns an empty field into undefined: no reason given.
const reason = z.string().trim().max(REASON_MAX, ADMIN_MESSAGES.reasonTooLong).optional();

/** The detail overlay's form: Valider / Rejeter for a pending profile, Suspendre / Réintégrer. */
export const profileDecisionSchema = z.object({
  profileId: uuid,
  intent: z.enum(["validate", "reject", "suspend", "reinstate", "check", "uncheck"]),
  reason,
  /** Why a profile is validated with unticked verification steps (audited, internal). */
  validationReason: reason,
  /** The verification step ticked or unticked ("check" / "uncheck"). */
  step: z.enum(["charter", "sponsors", "registration", "siren", "insurance"]).optional(),
});
export type ProfileDecision = z.output<typeof profileDecisionSchema>;

// ---- Deals -----------------------------------------------------------------------------------

export const dealListQuerySchema = z.object({ page, deal: optionalUuid });
export type DealListQuery = z.output<typeof dealListQuerySchema>;

export function parseDealListQuery(params: URLSearchParams): DealListQuery {
  return dealListQuerySchema.parse(Object.fromEntries(params));
}

/** The deal dialog's form: Rejeter (optional reason, spec §5) or Valider. */
export const dealDecisionSchema = z.object({
  dealId: uuid,
  intent: z.enum(["validate", "reject"]),
  reason,
});
export type DealDecision = z.output<typeof dealDecisionSchema>;

// ---- Recommendations -------------------------------------------------------------------------

export const recommendationListQuerySchema = z.object({
  q: search,
  page,
  emails: z
    .string()
    .optional()
    .transform((v) => v === "1"),
});
export type RecommendationListQuery = z.output<typeof recommendationListQuerySchema>;

export function parseRecommendationListQuery(params: URLSearchParams): RecommendationListQuery {
  return recommendationListQuerySchema.parse(Object.fromEntries(params));
}

// ---- Audit log -------------------------------------------------------------------------------

export const AUDIT_ACTIONS = [
  "profile.validate",
  "profile.reject",
  "profile.suspend",
  "profile.reinstate",
  "deal.validate",
  "deal.reject",
  "recommendations.export_csv",
  "recommendations.export_emails",
  "verification.check",
  "verification.uncheck",
  "mediation.open",
  "mediation.message",
  "mediation.status",
  "mediation.decide",
  "rating.hide",
  "rating.keep",
] as const satisfies readonly AuditAction[];

export const auditQuerySchema = z.object({ action: oneOf(AUDIT_ACTIONS), page });
export type AuditQuery = z.output<typeof auditQuerySchema>;

export function parseAuditQuery(params: URLSearchParams): AuditQuery {
  return auditQuerySchema.parse(Object.fromEntries(params));
}

// ---- URLs ------------------------------------------------------------------------------------

/** A query string from the non-empty values, in the given order ("" when none). */
export function queryString(values: Record<string, string | number | undefined | null | false>): string {
  const p = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === false || value === "") continue;
    if (key === "page" && Number(value) <= 1) continue;
    p.set(key, String(value));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

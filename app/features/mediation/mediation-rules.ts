// Pure rules of mediation: the statuses and what moves between them, the outcome of
// a decision, and the French texts. Browser-safe.

export const MEDIATION_STATUSES = ["open", "in_progress", "resolved", "dismissed"] as const;
export type MediationStatus = (typeof MEDIATION_STATUSES)[number];

export const MEDIATION_STATUS_LABELS: Record<MediationStatus, string> = {
  open: "Ouverte",
  in_progress: "En cours",
  resolved: "Résolue",
  dismissed: "Classée",
};

/** The decided statuses: each needs a written decision and ends the team's access to the file. */
export const DECIDED_STATUSES = ["resolved", "dismissed"] as const;
export type DecidedStatus = (typeof DECIDED_STATUSES)[number];

export function isDecided(status: MediationStatus): status is DecidedStatus {
  return status === "resolved" || status === "dismissed";
}

/** Open or in progress: the team reads the file, members and the team exchange messages. */
export function isActive(status: MediationStatus): boolean {
  return !isDecided(status);
}

export const BREACH_KINDS = ["confidentiality", "other"] as const;
export type BreachKind = (typeof BREACH_KINDS)[number];

export const BREACH_KIND_LABELS: Record<BreachKind, string> = {
  confidentiality: "Manquement à la confidentialité",
  other: "Autre manquement à la charte",
};

/** Who a decision finds at fault: nobody, the member who asked, or the other member. */
export const UPHELD_AGAINST = ["none", "opener", "respondent"] as const;
export type UpheldAgainst = (typeof UPHELD_AGAINST)[number];

export type MediationMove = { ok: true } | { ok: false; message: string };

/**
 * Whether the team may move a mediation from one status to another: ouverte → en cours, then
 * résolue or classée; an open request may also be classée at once (out of scope, duplicate).
 * A decided mediation never moves again.
 */
export function canMoveMediation(from: MediationStatus, to: MediationStatus): MediationMove {
  if (from === to) return { ok: false, message: MEDIATION_MESSAGES.sameStatus };
  if (isDecided(from)) return { ok: false, message: MEDIATION_MESSAGES.alreadyDecided };
  if (from === "open") return to === "in_progress" || to === "dismissed" ? { ok: true } : { ok: false, message: MEDIATION_MESSAGES.startFirst };
  return isDecided(to) ? { ok: true } : { ok: false, message: MEDIATION_MESSAGES.moveNotAllowed };
}

/** A complaint is upheld ("fondée") only in a resolved mediation, always with its kind. */
export function decisionProblem(input: { outcome: DecidedStatus; against: UpheldAgainst; breachKind: BreachKind | null }): string | null {
  if (input.against === "none") return null;
  if (input.outcome !== "resolved") return MEDIATION_MESSAGES.upheldNeedsResolved;
  if (!input.breachKind) return MEDIATION_MESSAGES.breachKindRequired;
  return null;
}

export const MEDIATION_LIMITS = {
  subjectMin: 5,
  subjectMax: 120,
  factsMin: 20,
  factsMax: 5000,
  messageMax: 5000,
  decisionMin: 20,
  decisionMax: 5000,
  attachmentsMax: 3,
  attachmentMaxMb: 10,
} as const;

export const MEDIATION_MESSAGES = {
  notFound: "Cette médiation n’existe pas.",
  alreadyActive: "Une médiation est déjà en cours pour ce dossier.",
  sameStatus: "La médiation a déjà ce statut.",
  alreadyDecided: "Cette médiation est close\u00a0: une décision a été rendue.",
  startFirst: "Passez d’abord la médiation «\u00a0En cours\u00a0» avant de rendre une décision.",
  moveNotAllowed: "Ce changement de statut n’est pas possible.",
  upheldNeedsResolved: "Une réclamation fondée se retient dans une médiation résolue, pas classée.",
  breachKindRequired: "Précisez la nature du manquement retenu.",
  closedForMessages: "Cette médiation est close\u00a0: il n’est plus possible d’y écrire.",
  tooManyAttachments: `Joignez au plus ${MEDIATION_LIMITS.attachmentsMax} pièces.`,
  tooManyMessages: "Trop de messages envoyés en peu de temps. Veuillez réessayer plus tard.",
  tooManyRequests: "Trop de demandes de médiation en peu de temps. Veuillez réessayer plus tard.",
  counterpartGone: "Votre confrère a quitté le réseau\u00a0: une médiation n’est plus possible dans ce dossier.",
  opened: "Demande de médiation envoyée",
  openedDescription: "L’équipe du réseau vous répondra dans ce dossier.",
  messageSent: "Message envoyé",
  statusChanged: "Statut de la médiation mis à jour",
  decided: "Décision enregistrée",
  failed: "L’action n’a pas pu aboutir. Veuillez réessayer.",
} as const;

/** The member's page of a file's mediation. */
export function mediationUrl(fileId: string): string {
  return `/dashboard/dossiers/${fileId}/mediation`;
}

/** The team's page of one mediation. */
export function adminMediationUrl(mediationId: string): string {
  return `/admin/mediations/${mediationId}`;
}

/** Where a mediation attachment is served (its uploader and the team only). */
export function attachmentUrl(attachmentId: string): string {
  return `/mediations/pieces/${attachmentId}`;
}

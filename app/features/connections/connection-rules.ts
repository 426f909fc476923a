// Pure rules of connections between mandates (spec §4 "Match request", §8 "Match requests").
//
// A connection between two mandates needs a request in each direction, both accepted: the
// owner of each mandate has agreed. Only then may each side see the other's client identity,
// and only after ticking the confidentiality undertaking.

export type RequestStatus = "pending" | "accepted" | "rejected";
export type ConnectionEvent = "requested" | "accepted" | "rejected" | "undertaking_signed" | "revealed";

export const MATCH_REQUEST_MESSAGES = {
  sendFailed: "Erreur lors de l'envoi de la demande",
  sent: "Demande de mise en relation envoyée !",
  updateFailed: "Erreur lors de la mise à jour",
  rejected: "Demande rejetée",
  confirmed: "Mise en relation confirmée ! Les coordonnées ont été échangées par email.",
  /** When the member turned these e-mails off: where the details are instead. */
  confirmedWithoutMail:
    "Mise en relation confirmée\u00a0! Les coordonnées de votre confrère sont dans ce panneau et dans le dossier de rapprochement (onglet Dossiers).",
  acceptedWaiting: "Demande acceptée ! En attente de confirmation de l'autre partie.",
  acceptedMailFailed: "Demande acceptée ! (Erreur lors de l'envoi des emails de confirmation)",
  duplicate: "Une demande de mise en relation existe déjà entre ces deux mandats",
  notPending: "Cette demande a déjà reçu une réponse",
  notMatchable: "Ce mandat n’est plus disponible pour une mise en relation",
  ownNotActive: "Votre mandat doit être actif et en cours de validité pour demander une mise en relation",
  sameType: "Une mise en relation rapproche un mandat acquéreur et un mandat cédant",
  tooMany: "Trop de demandes envoyées. Veuillez réessayer plus tard.",
  notConfirmed: "La mise en relation n’est pas encore confirmée par les deux parties",
  undertakingSigned: "Engagement de confidentialité enregistré\u00a0: l’identité du client est désormais visible.",
} as const;

/** The short undertaking each side ticks before the first reveal. */
export const UNDERTAKING_TEXT =
  "Je m’engage à n’utiliser l’identité et les coordonnées du client communiquées que pour cette opération, à ne pas les divulguer à des tiers et à ne pas contourner le confrère qui me les a transmises.";

export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  pending: "En attente",
  accepted: "Acceptée",
  rejected: "Rejetée",
};

const EVENT_LABELS: Record<ConnectionEvent, string> = {
  requested: "Demande de mise en relation envoyée",
  accepted: "Demande acceptée",
  rejected: "Demande rejetée",
  undertaking_signed: "Engagement de confidentialité signé",
  revealed: "Identité du client communiquée",
};

export function eventLabel(event: ConnectionEvent): string {
  return EVENT_LABELS[event];
}

/** Both directions accepted: the connection is confirmed. */
export function isConfirmed(forward: RequestStatus | null | undefined, reverse: RequestStatus | null | undefined): boolean {
  return forward === "accepted" && reverse === "accepted";
}

/** What the owner of the target mandate may do with a request: answer it while it is pending. */
export function canRespond(status: RequestStatus): boolean {
  return status === "pending";
}

/** Client identity leaves the server for a counterparty only once confirmed and undertaken. */
export function canSeeClientIdentity(confirmed: boolean, undertakingSigned: boolean): boolean {
  return confirmed && undertakingSigned;
}

/** The order-independent key of a pair of mandates (e-mail de-duplication, grouping). */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

type PanelRelation = { sent: { status: RequestStatus } | null; received: { status: RequestStatus } | null; confirmed: boolean };

/**
 * The matching panel's lists, and its counters taken from those very lists so that
 * they always agree: requests to answer (pending, received), the other received ones, the sent
 * ones not yet confirmed, and the confirmed connections (a confirmed pair is counted there only).
 */
export function panelLists<R extends PanelRelation>(relations: readonly R[]) {
  const open = relations.filter((r) => !r.confirmed);
  const confirmed = relations.filter((r) => r.confirmed);
  const toAnswer = open.filter((r) => r.received?.status === "pending");
  const answered = open.filter((r) => r.received && r.received.status !== "pending");
  const sent = open.filter((r) => r.sent);
  return {
    toAnswer,
    answered,
    sent,
    confirmed,
    counters: { sent: sent.length, pendingReceived: toAnswer.length, activeConnections: confirmed.length },
  };
}

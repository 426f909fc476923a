// Pure rules of the collaboration file of a confirmed connection: its stages, who may
// move it where, the two-sided closing, the reasons of an abandonment, and what awaits a member.

/** A file's human reference: « DR-2026-0042 » (four digits at least, more past 9 999 in a year). */
export function fileReference(year: number, n: number): string {
  return `DR-${year}-${String(n).padStart(4, "0")}`;
}

/** The page of a file in the member space. */
export function fileUrl(fileId: string): string {
  return `/dashboard/dossiers/${fileId}`;
}

export const STAGES = ["introduction", "exchanges", "documents", "offer", "protocol", "concluded", "abandoned"] as const;
export type Stage = (typeof STAGES)[number];

/** The working stages, in order; "Conclu" and "Abandonné" end the file. */
export const WORKING_STAGES = ["introduction", "exchanges", "documents", "offer", "protocol"] as const satisfies readonly Stage[];
export type WorkingStage = (typeof WORKING_STAGES)[number];

export const STAGE_LABELS: Record<Stage, string> = {
  introduction: "Mise en relation",
  exchanges: "Échanges confidentiels",
  documents: "Documents partagés",
  offer: "Offre / lettre d’intention",
  protocol: "Signature du protocole",
  concluded: "Conclu",
  abandoned: "Abandonné",
};

export const ABANDON_REASONS = ["price", "financing", "client_withdrawal", "other_counterpart", "other"] as const;
export type AbandonReason = (typeof ABANDON_REASONS)[number];

export const ABANDON_REASON_LABELS: Record<AbandonReason, string> = {
  price: "Désaccord sur le prix",
  financing: "Financement non obtenu",
  client_withdrawal: "Retrait du client",
  other_counterpart: "Opération conclue avec une autre contrepartie",
  other: "Autre motif",
};

export const AMOUNT_BANDS = ["lt_500k", "500k_1m", "1m_3m", "3m_10m", "gt_10m"] as const;
export type AmountBand = (typeof AMOUNT_BANDS)[number];

export const AMOUNT_BAND_LABELS: Record<AmountBand, string> = {
  lt_500k: "Moins de 500\u00a0000\u00a0€",
  "500k_1m": "De 500\u00a0000\u00a0€ à 1\u00a0M€",
  "1m_3m": "De 1\u00a0M€ à 3\u00a0M€",
  "3m_10m": "De 3\u00a0M€ à 10\u00a0M€",
  gt_10m: "Plus de 10\u00a0M€",
};

export function isWorkingStage(stage: Stage): stage is WorkingStage {
  return (WORKING_STAGES as readonly Stage[]).includes(stage);
}

export function isClosed(stage: Stage): boolean {
  return stage === "concluded" || stage === "abandoned";
}

/**
 * A member moves a working file one step forward or back ("Conclu" and "Abandonné" have their
 * own commands); an ended file moves no more.
 */
export function canMoveStage(from: Stage, to: Stage): boolean {
  if (!isWorkingStage(from) || !isWorkingStage(to)) return false;
  const a = WORKING_STAGES.indexOf(from);
  const b = WORKING_STAGES.indexOf(to);
  return Math.abs(a - b) === 1;
}

export function nextStage(stage: Stage): WorkingStage | null {
  if (!isWorkingStage(stage)) return null;
  return WORKING_STAGES[WORKING_STAGES.indexOf(stage) + 1] ?? null;
}

export function previousStage(stage: Stage): WorkingStage | null {
  if (!isWorkingStage(stage)) return null;
  const i = WORKING_STAGES.indexOf(stage);
  return i > 0 ? WORKING_STAGES[i - 1] : null;
}

/** Closing is proposed from the offer stage on (an offer or a protocol exists). */
export type StepState = "done" | "current" | "skipped" | "upcoming";

/**
 * Each working stage as the stepper shows it: a stage behind the file that it never reached
 * (closing straight from the offer skips the protocol) is « sautée », not done.
 */
export function stageSteps(stage: Stage, reached: readonly Stage[]): { stage: WorkingStage; state: StepState }[] {
  const seen = new Set<Stage>(["introduction", ...reached]);
  const current = isWorkingStage(stage) ? WORKING_STAGES.indexOf(stage) : -1;
  // Concluded: every stage is behind; abandoned: those after the last one reached are not.
  const lastReached = Math.max(...WORKING_STAGES.map((s, i) => (seen.has(s) ? i : 0)));
  return WORKING_STAGES.map((s, i) => {
    if (i === current) return { stage: s, state: "current" };
    const behind = stage === "concluded" || (current >= 0 ? i < current : i <= lastReached);
    if (!behind) return { stage: s, state: "upcoming" };
    return { stage: s, state: seen.has(s) ? "done" : "skipped" };
  });
}

export function canProposeClosing(stage: Stage): boolean {
  return stage === "offer" || stage === "protocol";
}

export type ClosingState = { proposedBy: string | null };

/** The second member confirms a proposed closing; the proposer cannot confirm their own. */
export function canConfirmClosing(stage: Stage, closing: ClosingState, actorProfileId: string): boolean {
  return canProposeClosing(stage) && closing.proposedBy !== null && closing.proposedBy !== actorProfileId;
}

export function canAbandon(stage: Stage): boolean {
  return isWorkingStage(stage);
}

/** "Autre motif" needs a few words; the others need none. */
export function abandonTextRequired(reason: AbandonReason): boolean {
  return reason === "other";
}

export const COLLABORATION_MESSAGES = {
  notFound: "Dossier introuvable",
  stageNotAllowed: "Ce changement d’étape n’est pas possible depuis l’étape actuelle du dossier.",
  stageChanged: "Étape du dossier mise à jour.",
  closed: "Ce dossier est clos\u00a0: il ne peut plus être modifié.",
  closingProposed: "Conclusion proposée\u00a0: elle sera effective quand votre confrère l’aura confirmée.",
  closingAlreadyProposed: "Vous avez déjà proposé la conclusion\u00a0: c’est à votre confrère de la confirmer.",
  closingNotProposable: "La conclusion se propose à partir de l’étape «\u00a0Offre / lettre d’intention\u00a0».",
  closingConfirmed: "Dossier conclu. Félicitations\u00a0!",
  closingNothingToConfirm: "Aucune conclusion à confirmer sur ce dossier.",
  closingCancelled: "Proposition de conclusion retirée.",
  abandoned: "Dossier marqué comme abandonné.",
  abandonTextRequired: "Précisez le motif de l’abandon.",
  messageSent: "Message envoyé.",
  messageEmpty: "Le message est vide.",
  messageTooLong: "Le message ne peut pas dépasser 5\u00a0000 caractères.",
  tooManyMessages: "Trop de messages envoyés. Veuillez réessayer plus tard.",
  closingDateInvalid: "Indiquez une date de signature valide, qui ne soit pas dans le futur.",
  counterpartGone: "Votre confrère a quitté le réseau\u00a0: ce dossier est conservé en lecture seule.",
} as const;

export type PendingAction = "confirm-closing" | "unread-messages" | "sign-agreement" | null;

/**
 * What awaits a member in a file, for the list "Mes dossiers": a closing to confirm first, then an
 * agreement to sign, then unread messages.
 */
export function pendingAction(input: {
  stage: Stage;
  closingProposedBy: string | null;
  actorProfileId: string;
  unreadMessages: number;
  agreementAwaitingMySignature: boolean;
}): PendingAction {
  if (canConfirmClosing(input.stage, { proposedBy: input.closingProposedBy }, input.actorProfileId)) return "confirm-closing";
  if (input.agreementAwaitingMySignature && !isClosed(input.stage)) return "sign-agreement";
  if (input.unreadMessages > 0) return "unread-messages";
  return null;
}

export const PENDING_ACTION_LABELS: Record<Exclude<PendingAction, null>, string> = {
  "confirm-closing": "Conclusion à confirmer",
  "sign-agreement": "Convention à signer",
  "unread-messages": "Messages non lus",
};

/**
 * The public profile's line: « 1 rapprochement conclu via le réseau », « 3 rapprochements conclus
 * via le réseau »; nothing at 0.
 */
export function closingsCountLine(count: number): string | null {
  if (!Number.isFinite(count) || count < 1) return null;
  const n = Math.floor(count);
  return n === 1 ? "1 rapprochement conclu via le réseau" : `${new Intl.NumberFormat("fr-FR").format(n)} rapprochements conclus via le réseau`;
}

/** The generic texts of a certified deal proposed from a file: never a client's name, nor an amount. */
export const DEAL_FROM_FILE_TEXT = {
  acquirerCedant: "Rapprochement conclu via le réseau",
  description: (side: "buyer" | "seller" | null) =>
    `${side === "seller" ? "Conseil du cédant" : side === "buyer" ? "Conseil de l’acquéreur" : "Conseil"}\u00a0; opération conclue avec un confrère du réseau et confirmée par les deux membres sur la plateforme.`,
} as const;

type SectorSource = { mandateType: "buyer" | "seller"; companySector: string | null; searchSectors: readonly string[] | null };

/** The sector of a deal made from a file: the seller mandate's sector, else the buyer's first searched sector. */
export function dealSector(mandates: readonly SectorSource[]): string | null {
  const seller = mandates.find((m) => m.mandateType === "seller");
  if (seller?.companySector) return seller.companySector;
  const buyer = mandates.find((m) => m.mandateType === "buyer");
  return buyer?.searchSectors?.[0] ?? null;
}

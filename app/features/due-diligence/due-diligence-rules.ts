// Pure rules of the due-diligence list and its Q&A: statuses and who moves them,
// who may edit the list, ask, answer and close a question, which side sees a question, and the
// progress shown on the file's overview. Browser-safe: the page reads them to hide or disable.

export const DD_CATEGORIES = ["juridique", "social", "fiscal", "financier", "immobilier", "contrats"] as const;
export type DdCategory = (typeof DD_CATEGORIES)[number];

export const DD_CATEGORY_LABELS: Record<DdCategory, string> = {
  juridique: "Juridique",
  social: "Social",
  fiscal: "Fiscal",
  financier: "Financier",
  immobilier: "Immobilier",
  contrats: "Contrats",
};

export const DD_STATUSES = ["requested", "in_progress", "provided", "validated", "not_applicable"] as const;
export type DdStatus = (typeof DD_STATUSES)[number];

export const DD_STATUS_LABELS: Record<DdStatus, string> = {
  requested: "Demandé",
  in_progress: "En cours",
  provided: "Fourni",
  validated: "Validé",
  not_applicable: "Sans objet",
};

export const DD_SIDES = ["cedant", "acquereur", "commun"] as const;
export type DdSide = (typeof DD_SIDES)[number];

export const DD_SIDE_LABELS: Record<DdSide, string> = { cedant: "Cédant", acquereur: "Acquéreur", commun: "Commun" };

/** Who sees a question, as the asker chooses it. */
export const DD_VISIBILITY_LABELS: Record<DdSide, string> = {
  cedant: "Côté cédant uniquement",
  acquereur: "Côté acquéreur uniquement",
  commun: "Les deux côtés",
};

export const DD_QUESTION_STATUSES = ["open", "answered", "closed"] as const;
export type DdQuestionStatus = (typeof DD_QUESTION_STATUSES)[number];

export const DD_QUESTION_STATUS_LABELS: Record<DdQuestionStatus, string> = { open: "Ouverte", answered: "Répondue", closed: "Close" };

/**
 * Roles of the people of a file: the two founding members advise the seller and the buyer
 * (`conseil`); invited participants bring the others.
 */
export const DD_ROLES = ["conseil", "expert_comptable", "avocat", "notaire", "banque", "autre"] as const;
export type DdRole = (typeof DD_ROLES)[number];

/** The person acting in the list, as the file's access function describes them. */
export type DdActor = { profileId: string; side: DdSide; role: DdRole; founder: boolean };

export const DD_LIMITS = { title: 200, body: 4000, items: 400 } as const;

export const DD_MESSAGES = {
  notFound: "Cette demande n’existe pas dans ce dossier.",
  questionNotFound: "Cette question n’existe pas dans ce dossier.",
  documentNotFound: "Ce document n’existe pas dans ce dossier.",
  closed: "Ce dossier est clos\u00a0: la liste de diligences ne peut plus être modifiée.",
  forbiddenEdit: "Seuls les conseils du dossier peuvent modifier la liste de diligences.",
  forbiddenStatus: "Vous ne pouvez pas donner ce statut à cette demande.",
  needsDocument: "Joignez au moins un document avant d’indiquer la demande comme fournie.",
  sameStatus: "La demande a déjà ce statut.",
  badOwner: "Le responsable doit être un participant du dossier.",
  badDate: "Indiquez une échéance valide.",
  titleRequired: "Indiquez l’intitulé de la demande.",
  titleTooLong: `L’intitulé ne peut pas dépasser ${DD_LIMITS.title} caractères.`,
  bodyRequired: "Écrivez votre question.",
  answerRequired: "Écrivez votre réponse.",
  bodyTooLong: `Le texte ne peut pas dépasser ${DD_LIMITS.body} caractères.`,
  badVisibility: "Choisissez qui peut voir la question.",
  forbiddenAnswer: "Vous ne pouvez pas répondre à cette question.",
  forbiddenClose: "Seul l’auteur de la question ou un conseil du dossier peut la clore.",
  questionClosed: "Cette question est close.",
  alreadyListed: "La liste de diligences existe déjà pour ce dossier.",
  tooMany: `Une liste ne peut pas dépasser ${DD_LIMITS.items} demandes.`,
  alreadyLinked: "Ce document répond déjà à cette demande.",
  withdrawnDocument: "Ce document a été retiré du dossier.",
  created: "Liste de diligences créée",
  added: "Demande ajoutée",
  updated: "Demande mise à jour",
  removed: "Demande supprimée",
  linked: "Document rattaché à la demande",
  unlinked: "Document détaché de la demande",
  asked: "Question posée",
  answered: "Réponse enregistrée",
  questionClosedToast: "Question close",
} as const;

// ---------------------------------------------------------------------------------------------
// The list

/** Adding, renaming, removing items and creating the list: the advisers, never a bank. */
export function canEditList(actor: Pick<DdActor, "founder" | "role">, closed: boolean): boolean {
  if (closed) return false;
  return actor.founder || actor.role === "avocat" || actor.role === "expert_comptable" || actor.role === "conseil";
}

/** A person of the file as the owner choice sees them. */
export type OwnerCandidate = { founder: boolean; role: DdRole; active: boolean; undertakingSigned: boolean; canView: boolean };

/**
 * Who may own a request (be the one it waits for): a founding member, or a participant admitted
 * to the file (active, undertaking signed) who reads the list (« voir »); never a bank, which reads
 * the list but neither provides nor decides.
 */
export function mayOwnRequest(c: OwnerCandidate): boolean {
  if (c.founder) return true;
  return c.active && c.undertakingSigned && c.canView && c.role !== "banque";
}

const OWNER_ROLE_LABELS: Record<DdRole, string> = {
  conseil: "conseil",
  expert_comptable: "expert-comptable",
  avocat: "avocat",
  notaire: "notaire",
  banque: "banque",
  autre: "intervenant",
};

/** An owner choice as the select lists it: « Claire Martin (avocat, côté cédant) », a founder « (membre fondateur, …) ». */
export function ownerLabel(o: { name: string; kind?: "founder" | "participant"; role: DdRole; side: DdSide }): string {
  const who = o.kind === "founder" ? "membre fondateur" : OWNER_ROLE_LABELS[o.role];
  const side = o.side === "commun" ? "commun" : `côté ${o.side === "cedant" ? "cédant" : "acquéreur"}`;
  return `${o.name} (${who}, ${side})`;
}

/** A status that ends what a request waits for (its owner's to-do): provided, validated, without object. */
export function settlesRequest(status: DdStatus): boolean {
  return status === "provided" || status === "validated" || status === "not_applicable";
}

/** In a due diligence the seller's side provides, the buyer's side asks and validates. */
type Party = "responder" | "requester";

function partyOf(side: DdSide): Party | null {
  if (side === "cedant") return "responder";
  if (side === "acquereur") return "requester";
  return null;
}

// Who may take an item from one status to another (absent: nobody).
const TRANSITIONS: Record<DdStatus, Partial<Record<DdStatus, readonly Party[]>>> = {
  requested: { in_progress: ["responder"], provided: ["responder"], not_applicable: ["responder", "requester"] },
  in_progress: { requested: ["responder"], provided: ["responder"], not_applicable: ["responder", "requester"] },
  provided: { validated: ["requester"], in_progress: ["responder", "requester"], not_applicable: ["requester"] },
  validated: { provided: ["requester"] },
  not_applicable: { requested: ["responder", "requester"] },
};

export type StatusRefusal = "closed" | "same" | "forbidden" | "needs-document";

/** Why an actor may not move an item to a status, or null when they may. */
export function statusRefusal(
  actor: Pick<DdActor, "side" | "role">,
  item: { status: DdStatus; documents: number },
  to: DdStatus,
  closed: boolean,
): StatusRefusal | null {
  if (closed) return "closed";
  if (item.status === to) return "same";
  const party = partyOf(actor.side);
  // A bank reads the list; it does not decide on it.
  if (!party || actor.role === "banque") return "forbidden";
  if (!TRANSITIONS[item.status][to]?.includes(party)) return "forbidden";
  if (to === "provided" && item.documents === 0) return "needs-document";
  return null;
}

/** The statuses an actor may choose for an item now (the page's choices). */
export function nextStatuses(actor: Pick<DdActor, "side" | "role">, item: { status: DdStatus; documents: number }, closed: boolean): DdStatus[] {
  return DD_STATUSES.filter((to) => statusRefusal(actor, item, to, closed) === null);
}

export const STATUS_REFUSAL_MESSAGES: Record<StatusRefusal, string> = {
  closed: DD_MESSAGES.closed,
  same: DD_MESSAGES.sameStatus,
  forbidden: DD_MESSAGES.forbiddenStatus,
  "needs-document": DD_MESSAGES.needsDocument,
};

/** Linking and unlinking documents, uploading from an item: anyone but a bank, on an open file. */
export function canAnswerItem(actor: Pick<DdActor, "role">, closed: boolean): boolean {
  return !closed && actor.role !== "banque";
}

export type DdProgress = { done: number; total: number; label: string };

/** « 12 / 40 fournis ou validés »: items without object leave the count. */
/** Requests per page of the list (a large file has hundreds; every template fits on one page). */
export const DD_PAGE_SIZE = 50;

export function listProgress(statuses: readonly DdStatus[]): DdProgress {
  const counted = statuses.filter((s) => s !== "not_applicable");
  const done = counted.filter((s) => s === "provided" || s === "validated").length;
  const total = counted.length;
  return { done, total, label: `${done}\u00a0/\u00a0${total} ${done > 1 ? "fournis ou validés" : "fourni ou validé"}` };
}

/** A due date « AAAA-MM-JJ » that exists in the calendar, between 2000 and 2100. */
export function isValidDueDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value && value >= "2000-01-01" && value <= "2100-12-31";
}

/** Overdue: a due date past and the item still waiting for its documents. */
export function isOverdue(item: { status: DdStatus; dueDate: string | null }, today: string): boolean {
  return item.dueDate !== null && item.dueDate < today && (item.status === "requested" || item.status === "in_progress");
}

// ---------------------------------------------------------------------------------------------
// Questions

/** A question for one side only is seen by that side; a common one by everyone of the file. */
export function canSeeQuestion(viewer: DdSide, visibility: DdSide): boolean {
  return visibility === "commun" || visibility === viewer;
}

/** An asker keeps a question to their own side or shares it with both. */
export function visibilitiesFor(side: DdSide): DdSide[] {
  return side === "commun" ? ["commun"] : ["commun", side];
}

export type Question = { askedBy: string | null; visibility: DdSide; status: DdQuestionStatus };

/** Someone other than the asker, who sees it, answers an open question of an open file. */
export function canAnswerQuestion(actor: Pick<DdActor, "profileId" | "side">, q: Question, closed: boolean): boolean {
  return !closed && q.status === "open" && q.askedBy !== actor.profileId && canSeeQuestion(actor.side, q.visibility);
}

/** The asker, or a founding member who sees it, closes a question not closed yet. */
export function canCloseQuestion(actor: Pick<DdActor, "profileId" | "side" | "founder">, q: Question, closed: boolean): boolean {
  if (closed || q.status === "closed" || !canSeeQuestion(actor.side, q.visibility)) return false;
  return q.askedBy === actor.profileId || actor.founder;
}

/** A request page's one primary action (docs/design-system.md): the reader's next step on it. */
export type DdItemAction = "answer-question" | "answer-request" | "ask";

/**
 * A question waiting for the reader's answer first, then the document the request asks of the
 * reader's side, then a question to ask; editing the request and its status stay secondary.
 */
export function ddItemPrimary(input: { questionToAnswer: boolean; canAnswerRequest: boolean; canAsk: boolean }): DdItemAction | null {
  if (input.questionToAnswer) return "answer-question";
  if (input.canAnswerRequest) return "answer-request";
  return input.canAsk ? "ask" : null;
}

/** The file's links: the list, one item, the exports. */
export const dueDiligenceUrl = (fileId: string) => `/dashboard/dossiers/${fileId}/diligences`;
export const dueDiligenceItemUrl = (fileId: string, requestId: string) => `${dueDiligenceUrl(fileId)}/${requestId}`;
export const dueDiligenceExportUrl = (fileId: string, format: "xlsx" | "pdf") => `${dueDiligenceUrl(fileId)}/export?format=${format}`;

// ---------------------------------------------------------------------------------------------
// The side of a founding member (until invited participants carry their own)

/**
 * The holder of the seller's mandate advises the seller (cédant), the buyer's the buyer
 * (acquéreur); a deleted mandate is read from the other one, then from the fee agreement's
 * parties; nothing known: commun.
 */
export function foundingSide(input: {
  mine: "buyer" | "seller" | null;
  theirs: "buyer" | "seller" | null;
  agreementSellerSide: "a" | "b" | null;
  mySide: "a" | "b";
}): DdSide {
  if (input.mine && input.theirs !== input.mine) return input.mine === "seller" ? "cedant" : "acquereur";
  if (!input.mine && input.theirs) return input.theirs === "seller" ? "acquereur" : "cedant";
  if (input.agreementSellerSide) return input.agreementSellerSide === input.mySide ? "cedant" : "acquereur";
  return "commun";
}

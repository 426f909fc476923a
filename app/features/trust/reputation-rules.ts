// Reputation and ratings: the published rules, as pure functions with their
// French texts. The figures come from the member_reputation row (refreshed in SQL); the same
// texts are published on /tiers-confiance. The labels the public pages show are in
// reputation-labels.ts (re-exported here), so that their bundles carry those only.
import type { ReputationBadge } from "./reputation-labels";

export { ratingSummaryLabel, REPUTATION_BADGE_LABELS, REPUTATION_BADGE_RULES, REPUTATION_BADGES, type ReputationBadge } from "./reputation-labels";

/** How long the two members of a file that ended have to rate each other (and the double blind). */
export const RATING_WINDOW_DAYS = 14;
export const RATING_COMMENT_MAX = 1000;
export const RATING_ANSWER_MAX = 1000;
export const REPORT_REASON_MAX = 1000;
/** The windows of the figures. */
export const RESPONSIVENESS_WINDOW_DAYS = 90;
export const ANSWER_WITHIN_DAYS = 7;
export const TOP_PERFORMER_WINDOW_MONTHS = 12;

/** The French messages of the rating commands (shared by the server and the file's page). */
export const RATING_MESSAGES = {
  rated: "Votre évaluation est enregistrée",
  answered: "Votre réponse est publiée",
  reported: "Le signalement a été transmis à l’équipe",
  notEnded: "L’évaluation s’ouvre lorsque le dossier est conclu ou abandonné.",
  windowClosed: "La période d’évaluation de ce dossier est close (14 jours après sa fin).",
  alreadyRated: "Vous avez déjà évalué votre confrère pour ce dossier.",
  counterpartGone: "Votre confrère a quitté le réseau\u00a0: il ne peut plus être évalué.",
  clientNamed: "Votre commentaire ne doit pas nommer le client d’un mandat\u00a0: retirez ce nom pour préserver la confidentialité.",
  ratingNotFound: "Évaluation introuvable",
  alreadyAnswered: "Vous avez déjà répondu à cette évaluation.",
  alreadyReported: "Vous avez déjà signalé cette évaluation.",
  tooManyReports: "Trop de signalements envoyés. Veuillez réessayer plus tard.",
} as const;

export const RATING_CRITERIA = ["responsiveness", "professionalism", "confidentiality"] as const;
export type RatingCriterion = (typeof RATING_CRITERIA)[number];
export const RATING_CRITERION_LABELS: Record<RatingCriterion, string> = {
  responsiveness: "Réactivité",
  professionalism: "Professionnalisme",
  confidentiality: "Confidentialité",
};

// ---------------------------------------------------------------------------------------------
// Badges earned by behaviour


/** The figures the rules read (a member_reputation row; absent row = all zero). */
export type ReputationFigures = {
  filesTotal: number;
  filesConcluded: number;
  filesAbandoned: number;
  filesWithUndertaking: number;
  concludedLast12Months: number;
  /** Share of members (with a concluded file in 12 months) who concluded strictly more; null if none. */
  concludedRankShare: number | null;
  confidentialityAverage: number | null;
  ratingsCount: number;
  upheldMediations: number;
  confidentialityBreaches: number;
};

export const EMPTY_FIGURES: ReputationFigures = {
  filesTotal: 0,
  filesConcluded: 0,
  filesAbandoned: 0,
  filesWithUndertaking: 0,
  concludedLast12Months: 0,
  concludedRankShare: null,
  confidentialityAverage: null,
  ratingsCount: 0,
  upheldMediations: 0,
  confidentialityBreaches: 0,
};

export function isFairPlayer(f: Pick<ReputationFigures, "upheldMediations" | "ratingsCount" | "confidentialityAverage">): boolean {
  return f.upheldMediations === 0 && f.ratingsCount >= 3 && f.confidentialityAverage !== null && f.confidentialityAverage >= 4;
}

export function isTopPerformer(f: Pick<ReputationFigures, "concludedLast12Months" | "concludedRankShare">): boolean {
  return f.concludedLast12Months >= 3 && f.concludedRankShare !== null && f.concludedRankShare < 0.1;
}

export function isConfidential(f: Pick<ReputationFigures, "filesTotal" | "filesWithUndertaking" | "confidentialityBreaches">): boolean {
  return f.filesTotal > 0 && f.filesWithUndertaking >= f.filesTotal && f.confidentialityBreaches === 0;
}

/** Success rate over the files that ended (concluded or abandoned); null when none ended. */
export function successRate(f: Pick<ReputationFigures, "filesConcluded" | "filesAbandoned">): number | null {
  const ended = f.filesConcluded + f.filesAbandoned;
  return ended === 0 ? null : f.filesConcluded / ended;
}

export function hasHighSuccessRate(f: Pick<ReputationFigures, "filesConcluded" | "filesAbandoned">): boolean {
  const rate = successRate(f);
  return f.filesConcluded + f.filesAbandoned >= 5 && rate !== null && rate >= 0.5;
}

/** The badges a member earned, in the order of the specification. */
export function reputationBadges(f: ReputationFigures | null | undefined): ReputationBadge[] {
  const figures = f ?? EMPTY_FIGURES;
  const out: ReputationBadge[] = [];
  if (isFairPlayer(figures)) out.push("fair-player");
  if (isTopPerformer(figures)) out.push("top-performer");
  if (isConfidential(figures)) out.push("confidential");
  if (hasHighSuccessRate(figures)) out.push("high-success-rate");
  return out;
}

// ---------------------------------------------------------------------------------------------
// Responsiveness (last 90 days), shown to members only

/**
 * Below this many match requests and internal messages received (and counted: answered, or
 * older than 7 days) in the window, the figures say too little and are not shown.
 */
export const RESPONSIVENESS_MIN_RECEIVED = 5;

/** The stored responsiveness figures of a member (member_reputation). */
export type ResponsivenessFigures = {
  requestsReceived: number;
  requestsAnswered: number;
  messagesReceived: number;
  messagesAnswered: number;
  medianResponseHours: number | null;
};

/** What a member reads: the share answered within 7 days and the median time to answer. */
export type Responsiveness = { received: number; answeredShare: number; medianHours: number | null };

/** The figures to show, or null when there is too little data (fewer than the minimum received). */
export function responsiveness(f: ResponsivenessFigures | null | undefined): Responsiveness | null {
  if (!f) return null;
  const received = f.requestsReceived + f.messagesReceived;
  if (received < RESPONSIVENESS_MIN_RECEIVED) return null;
  const answered = Math.min(received, f.requestsAnswered + f.messagesAnswered);
  return { received, answeredShare: answered / received, medianHours: f.medianResponseHours };
}

/** "80 %": the share rounded to the unit, French spacing (narrow no-break space before %). */
export function answeredShareLabel(share: number): string {
  return `${Math.round(share * 100)}\u202f%`;
}

/**
 * The median time to answer in words: "moins d'une heure", "5 h" (under 48 hours, rounded to
 * the hour), "3 jours" (rounded to the day); null without any answer.
 */
export function medianDelayLabel(hours: number | null): string | null {
  if (hours === null || !Number.isFinite(hours) || hours < 0) return null;
  if (hours < 1) return "moins d’une heure";
  if (hours < 47.5) return `${Math.round(hours)}\u00a0h`;
  return `${Math.round(hours / 24)}\u00a0jours`;
}

export const RESPONSIVENESS_WINDOW_LABEL = `sur les ${RESPONSIVENESS_WINDOW_DAYS} derniers jours`;
export const RESPONSIVENESS_EMPTY = `Pas encore assez d’échanges ${RESPONSIVENESS_WINDOW_LABEL} pour mesurer la réactivité (au moins ${RESPONSIVENESS_MIN_RECEIVED} demandes de rapprochement ou messages reçus).`;

/** "80 % de réponses sous 7 jours, sur les 90 derniers jours" (the directory card's line). */
export function responsivenessShortLabel(r: Responsiveness): string {
  return `${answeredShareLabel(r.answeredShare)} de réponses sous ${ANSWER_WITHIN_DAYS}\u00a0jours, ${RESPONSIVENESS_WINDOW_LABEL}`;
}

// ---------------------------------------------------------------------------------------------
// Ratings

/** The moment both ratings of a file show: the end of the rating window (14 days after the end). */
export function ratingWindowEnd(endedAt: Date): Date {
  return new Date(endedAt.getTime() + RATING_WINDOW_DAYS * 86_400_000);
}

export type RatingEligibility =
  | { ok: true }
  | { ok: false; reason: "not-ended" | "window-closed" | "already-rated" | "counterpart-gone" };

/** Whether a member may rate the other member of a file now. */
export function canRate(input: { stage: string; endedAt: Date | null; now: Date; alreadyRated: boolean; counterpartPresent: boolean }): RatingEligibility {
  if ((input.stage !== "concluded" && input.stage !== "abandoned") || !input.endedAt) return { ok: false, reason: "not-ended" };
  if (!input.counterpartPresent) return { ok: false, reason: "counterpart-gone" };
  if (input.alreadyRated) return { ok: false, reason: "already-rated" };
  if (input.now.getTime() >= ratingWindowEnd(input.endedAt).getTime()) return { ok: false, reason: "window-closed" };
  return { ok: true };
}

/** The overall mark of one rating: the mean of its three criteria. */
export function ratingMean(r: Record<RatingCriterion, number>): number {
  return (r.responsiveness + r.professionalism + r.confidentiality) / 3;
}


function normalise(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/**
 * A comment must not name a client of the file (the confidential client identity of either
 * mandate): true when one of the names, as a whole phrase of at least 3 characters, appears.
 */
export function mentionsClient(comment: string, clientNames: readonly (string | null | undefined)[]): boolean {
  const text = ` ${normalise(comment)} `;
  return clientNames.some((name) => {
    const n = normalise(name ?? "");
    return n.length >= 3 && text.includes(` ${n} `);
  });
}

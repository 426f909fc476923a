// Pure rules of a mandate's negotiation: which commands its owner
// may run from which mandate status, given the stage of the collaboration file they act from, and
// what the closing of a file does to its mandates.
import type { MandateStatus } from "~/features/mandates/mandate-rules";
import type { Stage } from "./collaboration-rules";

/**
 * - negotiate: « Passer en négociation » — the mandate leaves the matching while an offer is under way;
 * - resume: « Remettre en recherche active » — back to the matching;
 * - conclude: « Marquer mon mandat comme conclu » — once the file is concluded by both members.
 */
export type MandateCommand = "negotiate" | "resume" | "conclude";

export type RefusalReason = "file_stage" | "mandate_status" | "already";

export type MandateTransition = { ok: true; to: MandateStatus } | { ok: false; reason: RefusalReason };

/** The file stages from which a mandate may be put in negotiation: an offer or a protocol exists. */
export const NEGOTIATION_STAGES: readonly Stage[] = ["offer", "protocol"];

/** The mandate statuses a negotiation may start from: the two states of the search. */
const SEARCH_STATES: readonly MandateStatus[] = ["active", "on_hold"];

/**
 * What `command` does to a mandate of status `status`, acting from a file at stage `fileStage`
 * (null: not from a file — only « resume » needs none).
 */
export function mandateTransition(command: MandateCommand, status: MandateStatus, fileStage: Stage | null): MandateTransition {
  switch (command) {
    case "negotiate":
      if (status === "negotiating") return { ok: false, reason: "already" };
      if (!SEARCH_STATES.includes(status)) return { ok: false, reason: "mandate_status" };
      if (fileStage === null || !NEGOTIATION_STAGES.includes(fileStage)) return { ok: false, reason: "file_stage" };
      return { ok: true, to: "negotiating" };
    case "resume":
      if (status === "active") return { ok: false, reason: "already" };
      if (status !== "negotiating") return { ok: false, reason: "mandate_status" };
      return { ok: true, to: "active" };
    case "conclude":
      if (status === "concluded") return { ok: false, reason: "already" };
      if (fileStage !== "concluded") return { ok: false, reason: "file_stage" };
      return { ok: true, to: "concluded" };
  }
}

/**
 * When a file is concluded by both members, both of its mandates are concluded with it, whatever
 * their state: a mandate whose deal is signed is no longer offered to anyone (a
 * buyer who keeps buying opens a new mandate).
 */
export function mandateStatusAfterClosing(_status: MandateStatus): MandateStatus {
  return "concluded";
}

export const NEGOTIATION_MESSAGES = {
  mandateGone: "Votre mandat de ce dossier a été supprimé.",
  negotiateStage: "Un mandat passe en négociation à partir de l’étape «\u00a0Offre / lettre d’intention\u00a0» de son dossier.",
  negotiateStatus: "Seul un mandat actif ou en veille peut passer en négociation.",
  alreadyNegotiating: "Ce mandat est déjà en négociation.",
  resumeStatus: "Seul un mandat en négociation se remet en recherche active.",
  alreadyActive: "Ce mandat est déjà en recherche active.",
  concludeStage: "Un mandat se marque comme conclu une fois le dossier conclu par les deux membres.",
  alreadyConcluded: "Ce mandat est déjà conclu.",
  negotiating: "Mandat passé en négociation\u00a0: il n’est plus proposé aux confrères.",
  resumed: "Mandat remis en recherche active.",
  concluded: "Mandat marqué comme conclu.",
} as const;

/** The French 409 message of a refused transition. */
export function refusalMessage(command: MandateCommand, reason: RefusalReason): string {
  const m = NEGOTIATION_MESSAGES;
  switch (command) {
    case "negotiate":
      return reason === "already" ? m.alreadyNegotiating : reason === "file_stage" ? m.negotiateStage : m.negotiateStatus;
    case "resume":
      return reason === "already" ? m.alreadyActive : m.resumeStatus;
    case "conclude":
      return reason === "already" ? m.alreadyConcluded : m.concludeStage;
  }
}

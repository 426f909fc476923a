// The one primary action of a file's « Suivi » tab: the next step of the work for this member,
// in the order the work comes (docs/design-system.md: one primary per view). Every other
// command of the tab stays, as a secondary (outline) button.
import { canProposeClosing, isClosed, nextStage, type Stage } from "./collaboration-rules";
import type { MandateCommand } from "./negotiation-rules";

export type FileAction = "undertaking" | "confirm-closing" | "propose-deal" | "negotiate" | "move" | "propose-closing" | "message";

export type NextActionInput = {
  stage: Stage;
  /** The undertaking form is shown: no client revealed yet, not signed, both mandates still there. */
  undertakingToSign: boolean;
  closing: { proposedByMe: boolean; proposedByThem: boolean };
  myMandateCommands: readonly MandateCommand[];
  /** « Proposer comme transaction certifiée » is offered (Premium, not proposed yet). */
  dealProposable: boolean;
  /** The composer is shown (the counterpart has not left the network). */
  canWrite: boolean;
};

/**
 * First what blocks the rest (the undertaking that reveals the client), then what the other
 * member waits for (a closing to confirm), then the member's own next step, and the message
 * composer when nothing else is left to do.
 */
export function fileNextAction(f: NextActionInput): FileAction | null {
  if (f.undertakingToSign) return "undertaking";
  const working = !isClosed(f.stage);
  if (working && canProposeClosing(f.stage) && f.closing.proposedByThem) return "confirm-closing";
  if (f.stage === "concluded" && f.dealProposable) return "propose-deal";
  if (working && f.myMandateCommands.includes("negotiate")) return "negotiate";
  if (working && nextStage(f.stage)) return "move";
  if (working && canProposeClosing(f.stage) && !f.closing.proposedByMe) return "propose-closing";
  return f.canWrite ? "message" : null;
}

/** The button variant of `action` on a tab whose primary action is `primary`. */
export function actionVariant(primary: FileAction | null, action: FileAction): "default" | "outline" {
  return primary === action ? "default" : "outline";
}

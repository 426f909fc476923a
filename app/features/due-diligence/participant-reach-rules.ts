// What each person of a file may reach beyond the document room : the overview,
// the due-diligence list and its questions, the fee agreement, the closing archive. Pure: the
// participants' pages and services read this one table; the folder rule stays participant-rules'.
import type { DdActor } from "./due-diligence-rules";
import type { FileRole, FileSide, Rights } from "~/features/collaboration/participant-rules";

export type ReachActor = { kind: "founder" | "member" | "guest"; role: FileRole; side: FileSide; rights: Rights; undertakingSigned: boolean };

export const FILE_ACTIONS = [
  "overview", // stage and progress, read-only for participants
  "dd-read", // the list, the requests and the questions their side sees
  "dd-ask", // ask a question, answer one
  "dd-provide", // link or upload documents to a request (into a folder they may deposit into)
  "dd-status", // move a request's status (then the list's side transitions decide)
  "dd-edit", // create the list, add, edit, remove requests
  "agreement", // the fee agreement between the two founding members
  "archive", // the closing archive, as their folders and rights allow
] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];

/**
 * May this person take this action in a file (open or closed)? Founders hold every one. A
 * participant reaches nothing before their undertaking; then « voir » opens the list and its
 * questions, « déposer » providing documents and moving statuses (never for a bank, which reads
 * the list), « télécharger » the archive. The list's structure and the fee agreement stay the
 * founders'.
 */
export function mayReach(actor: ReachActor, action: FileAction, closed: boolean): boolean {
  if (actor.kind === "founder") return action === "dd-edit" || action === "dd-ask" || action === "dd-provide" || action === "dd-status" ? !closed : true;
  if (!actor.undertakingSigned) return false;
  switch (action) {
    case "overview":
      return true;
    case "dd-read":
      return actor.rights.voir;
    case "dd-ask":
      return actor.rights.voir && !closed;
    case "dd-provide":
    case "dd-status":
      return actor.rights.voir && actor.rights.deposer && actor.role !== "banque" && !closed;
    case "archive":
      return actor.rights.voir && actor.rights.telecharger;
    case "dd-edit":
    case "agreement":
      return false;
  }
}

/** The due-diligence list's view of a person: their side, role and the key their questions carry. */
export function ddActorOf(access: { role: FileRole; side: FileSide; profileId: string | null; participantId: string | null }): DdActor {
  return {
    profileId: questionAuthorKey(access.profileId, access.participantId),
    side: access.side,
    role: access.role === "fondateur" ? "conseil" : access.role,
    founder: access.role === "fondateur",
  };
}

/** Who wrote a question or an answer: a profile, else a guest's participant row (prefixed). */
export function questionAuthorKey(profileId: string | null, participantId: string | null): string {
  return profileId ?? `participant:${participantId ?? ""}`;
}

export const REACH_MESSAGES = {
  agreementFounders: "La convention d’honoraires est conclue entre les deux membres fondateurs du dossier\u00a0: elle ne vous est pas communiquée.",
  noList: "La liste de diligences n’a pas encore été créée par les membres fondateurs du dossier.",
  noRight: "Vos droits dans ce dossier ne le permettent pas.",
} as const;

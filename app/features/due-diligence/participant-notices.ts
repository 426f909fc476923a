// What the people of a file are told of the list: one sentence per event, the same whoever acted,
// for the participants (their own pages) and for the founders (theirs). Pure.
import type { FounderNotice, ParticipantNotice } from "~/features/collaboration/participant-notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { dueDiligenceItemUrl, dueDiligenceUrl, type DdSide } from "./due-diligence-rules";

const seenBy = (visibility: DdSide) => (visibility === "commun" ? ("all" as const) : { side: visibility });

/** A question answered: told to the participants of the side(s) that see it, on the request's page. */
export function answeredNotice(visibility: DdSide, answerer: string, title: string | null, requestId: string | null): ParticipantNotice {
  return {
    kind: "dd_answer",
    title: "Question répondue",
    body: `${answerer} a répondu à une question${title ? ` sur «\u00a0${title}\u00a0»` : ""}.`,
    path: requestId ? `/diligences/${requestId}` : "/diligences",
    seenBy: visibility === "commun" ? "all" : { side: visibility },
  };
}

/** A question asked: told to the participants of the side(s) that see it, on the request's page. */
export function askedNotice(visibility: DdSide, asker: string, title: string, requestId: string): ParticipantNotice {
  return {
    kind: "dd_question",
    title: "Question posée sur une diligence",
    body: `${asker} pose une question sur «\u00a0${title}\u00a0».`,
    path: `/diligences/${requestId}`,
    seenBy: seenBy(visibility),
  };
}

/** A participant's question: the founders who see it get it as a to-do, until it is answered or closed. */
export function askedFounderNotice(fileId: string, questionId: string, visibility: DdSide, asker: string, title: string, requestId: string): FounderNotice {
  return {
    kind: "dd_question",
    title: "Question posée sur une diligence",
    body: `${asker} pose une question sur «\u00a0${title}\u00a0».`,
    link: dueDiligenceItemUrl(fileId, requestId),
    seenBy: seenBy(visibility),
    task: taskKey("dd_question", questionId),
  };
}

/** A participant's answer to a question: told to the founders who see it. */
export function answeredFounderNotice(fileId: string, visibility: DdSide, answerer: string, title: string | null, requestId: string | null): FounderNotice {
  return {
    kind: "dd_answer",
    title: "Question répondue",
    body: `${answerer} a répondu à une question${title ? ` sur «\u00a0${title}\u00a0»` : ""}.`,
    link: requestId ? dueDiligenceItemUrl(fileId, requestId) : dueDiligenceUrl(fileId),
    seenBy: seenBy(visibility),
  };
}

/** A participant answered a request (a document provided, or the request marked « fourni »): told to both founders. */
export function providedFounderNotice(fileId: string, participant: string, title: string, requestId: string, what: "document" | "status"): FounderNotice {
  return {
    kind: "dd_answer",
    title: what === "document" ? "Document déposé pour une diligence" : "Diligence fournie",
    body: what === "document" ? `${participant} a déposé un document pour «\u00a0${title}\u00a0».` : `${participant} a marqué «\u00a0${title}\u00a0» comme fournie.`,
    link: dueDiligenceItemUrl(fileId, requestId),
    // A request marked « fourni » is the buyer's side's to-do instead (review-task.server.ts).
    seenBy: what === "document" ? "all" : { side: "cedant" },
  };
}

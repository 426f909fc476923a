// What the participants of a file are told of the list (the founders' own notices stay in
// due-diligence.server.ts): one sentence per event, the same whoever acted. Pure.
import type { ParticipantNotice } from "~/features/collaboration/participant-notifications.server";
import type { DdSide } from "./due-diligence-rules";

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

// A request marked « fourni » waits for the buyer's side to validate it: a to-do for the founder of
// that side and its participants who may move statuses, until the request leaves « fourni ».
import type { Db } from "~/db/client.server";
import { notifyFounders, notifyParticipants } from "~/features/collaboration/participant-notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { completeTask } from "~/features/notifications/notifications.server";
import { dueDiligenceItemUrl, type DdStatus } from "./due-diligence-rules";

type Mover = { name: string; profileId?: string | null; participantId?: string | null };

/** After a request's status changed (in the transaction that changed it). */
export async function followReview(tx: Db, fileId: string, request: { id: string; title: string; from: DdStatus; to: DdStatus }, by: Mover): Promise<void> {
  const task = taskKey("dd_review", request.id);
  if (request.from === "provided") await completeTask(task, tx);
  if (request.to !== "provided") return;
  const title = "Diligence fournie à valider";
  const body = `${by.name} a marqué «\u00a0${request.title}\u00a0» comme fournie\u00a0: elle attend votre validation.`;
  await notifyFounders(tx, fileId, { kind: "dd_review", title, body, link: dueDiligenceItemUrl(fileId, request.id), seenBy: { side: "acquereur" }, exceptProfileId: by.profileId, task });
  await notifyParticipants(tx, fileId, {
    kind: "dd_review",
    title,
    body,
    path: `/diligences/${request.id}`,
    seenBy: { side: "acquereur" },
    validators: true,
    exceptParticipantId: by.participantId,
    task,
  });
}

/** A request removed asks nothing of anyone any more. */
export async function closeRequestTasks(tx: Db, requestId: string): Promise<void> {
  await completeTask(taskKey("dd_request", requestId), tx);
  await completeTask(taskKey("dd_review", requestId), tx);
}

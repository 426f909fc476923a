// Notifications of the connection flow, created in the use case's own transaction: a request
// received, a request accepted, a connection confirmed (both sides). Client codes and the
// members' names only, never a client's identity.
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { taskKey } from "./event-rules";
import { notificationTexts } from "./notification-rules";
import { completeTask, notify } from "./notifications.server";

type Parties = {
  requester_mandate_id: string;
  target_mandate_id: string;
  requester_code: string;
  target_code: string;
  requester_user: string;
  target_user: string;
  requester_name: string;
  owner_name: string;
};

async function parties(tx: Db, requestId: string): Promise<Parties | undefined> {
  const [row] = await queryRows<Parties>(
    sql`select r.requester_mandate_id, r.target_mandate_id, rm.client_code as requester_code, tm.client_code as target_code,
        rp.user_id as requester_user, tp.user_id as target_user,
        rp.first_name || ' ' || rp.last_name as requester_name, tp.first_name || ' ' || tp.last_name as owner_name
      from mandate_match_requests r
      join mandates rm on rm.id = r.requester_mandate_id join profiles rp on rp.id = rm.profile_id
      join mandates tm on tm.id = r.target_mandate_id join profiles tp on tp.id = tm.profile_id
      where r.id = ${requestId}::uuid`,
    tx,
  );
  return row;
}

/** 'Nouvelle demande de mise en relation', to the owner of the target mandate. */
export async function notifyMatchRequestReceived(tx: Db, requestId: string): Promise<void> {
  const p = await parties(tx, requestId);
  if (!p) return;
  await notify(
    p.target_user,
    "match_request",
    notificationTexts.matchRequest({ requesterName: p.requester_name, targetCode: p.target_code, targetMandateId: p.target_mandate_id }),
    tx,
    { task: taskKey("match_request", requestId) },
  );
}

/** The undertaking to-do of one side of a confirmed pair (its own mandate first). */
export function undertakingTask(ownMandateId: string, otherMandateId: string): string {
  return taskKey("connection_confirmed", `${ownMandateId}:${otherMandateId}`);
}

/** An answer given: the request's to-do is done; a refusal, the requester hears of it. */
export async function notifyRequestAnswered(tx: Db, requestId: string, decision: "accepted" | "rejected"): Promise<void> {
  await completeTask(taskKey("match_request", requestId), tx);
  if (decision !== "rejected") return;
  const p = await parties(tx, requestId);
  if (!p) return;
  await notify(p.requester_user, "request_refused", notificationTexts.requestRefused({ requesterCode: p.requester_code, requesterMandateId: p.requester_mandate_id }), tx);
}

/** An acceptance: the requester hears of it; a confirmation: both sides, with their file. */
export async function notifyRequestAccepted(tx: Db, requestId: string, confirmed: boolean, fileId: string | null): Promise<void> {
  const p = await parties(tx, requestId);
  if (!p) return;
  if (!confirmed) {
    await notify(
      p.requester_user,
      "request_accepted",
      notificationTexts.requestAccepted({ ownerName: p.owner_name, requesterCode: p.requester_code, requesterMandateId: p.requester_mandate_id }),
      tx,
    );
    return;
  }
  await notify(
    p.requester_user,
    "connection_confirmed",
    notificationTexts.connectionConfirmed({ ownCode: p.requester_code, otherCode: p.target_code, mandateId: p.requester_mandate_id, fileId }),
    tx,
    { task: undertakingTask(p.requester_mandate_id, p.target_mandate_id) },
  );
  await notify(
    p.target_user,
    "connection_confirmed",
    notificationTexts.connectionConfirmed({ ownCode: p.target_code, otherCode: p.requester_code, mandateId: p.target_mandate_id, fileId }),
    tx,
    { task: undertakingTask(p.target_mandate_id, p.requester_mandate_id) },
  );
}

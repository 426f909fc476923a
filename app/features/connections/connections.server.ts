// Match requests and confidential connections (spec §2 "Matching panel", §4 "Match request",
// §6, §8). A request goes from one of the actor's mandates to another member's mandate of the
// opposite type; only the owner of the target answers it, only while pending. A connection is
// confirmed when both directions are accepted; then each side, after ticking the confidentiality
// undertaking, sees the other's client identity. Every step is written to the introduction log
// (connection_events) with its actor.
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { connectionEvents, mandateMatchRequests, mandates, profiles, quotaEvents } from "~/db/schema";
import { queryRows } from "~/db/query.server";
import { isMatchable, OPPORTUNITY_QUOTA_REACHED, opportunityQuota, parisToday, quotaWindowStart } from "~/features/mandates/mandate-rules";
import { countQuotaEvents, notFound, type MandateActor } from "~/features/mandates/mandates.server";
import { isUuid } from "~/lib/uuid";
import { openCollaborationFile, recordUndertakingInFile } from "~/features/collaboration/file-opening.server";
import {
  notifyMatchRequestReceived,
  notifyRequestAccepted,
  notifyRequestAnswered,
  undertakingTask,
} from "~/features/notifications/connection-notifications.server";
import { completeTask } from "~/features/notifications/notifications.server";
import {
  canRespond,
  isConfirmed,
  MATCH_REQUEST_MESSAGES,
  UNDERTAKING_TEXT,
  type ConnectionEvent,
  type RequestStatus,
} from "./connection-rules";
import { invalidate } from "~/lib/cache.server";
import { AppError } from "~/lib/errors/app-error";

function conflict(message: string): never {
  throw new AppError("conflict", message);
}

function requestNotFound(): never {
  throw new AppError("not-found", "Demande introuvable");
}

type PairRow = { id: string; requesterMandateId: string; targetMandateId: string; status: RequestStatus };

/**
 * Locks both directions of a pair of mandates, always in the same order (by id), so that two
 * answers racing on the two requests of one pair run one after the other: the second sees the
 * first's acceptance and is the one that confirms the connection.
 */
async function lockPair(tx: Db, a: string, b: string): Promise<PairRow[]> {
  return tx
    .select({
      id: mandateMatchRequests.id,
      requesterMandateId: mandateMatchRequests.requesterMandateId,
      targetMandateId: mandateMatchRequests.targetMandateId,
      status: mandateMatchRequests.status,
    })
    .from(mandateMatchRequests)
    .where(
      or(
        and(eq(mandateMatchRequests.requesterMandateId, a), eq(mandateMatchRequests.targetMandateId, b)),
        and(eq(mandateMatchRequests.requesterMandateId, b), eq(mandateMatchRequests.targetMandateId, a)),
      ),
    )
    .orderBy(mandateMatchRequests.id)
    .for("update");
}

async function logEvent(
  tx: Db,
  matchRequestId: string,
  actorProfileId: string,
  event: ConnectionEvent,
  details: Record<string, unknown> | null = null,
) {
  // clock_timestamp(), not now(): two steps of one transaction (undertaking, reveal) keep their order.
  await tx.insert(connectionEvents).values({ matchRequestId, actorProfileId, event, details, createdAt: sql`clock_timestamp()` });
}

// ---------------------------------------------------------------------------------------------
// Commands

export type CreatedRequest = { requestId: string; targetMandateId: string };

/**
 * 'Demander une mise en relation' (and 'Proposer'): a pending request from one of the actor's
 * active mandates to an active mandate of the opposite type of another validated member.
 * Duplicates are refused (409); an unknown or own target is a 404.
 */
export async function createMatchRequest(
  actor: MandateActor,
  input: { mandateId: string; targetMandateId: string; message: string | null },
): Promise<CreatedRequest> {
  if (!isUuid(input.mandateId) || !isUuid(input.targetMandateId)) notFound();
  const today = parisToday();
  return db.transaction(async (tx) => {
    // Freemium: 3 requests per rolling six months. The profile row is locked so that two
    // requests sent at once at 2/3 cannot both pass the count.
    const [locked] = await tx.select({ membershipType: profiles.membershipType }).from(profiles).where(eq(profiles.id, actor.profileId)).for("update");
    if (!locked) notFound();
    if (opportunityQuota(locked.membershipType, 0).limited) {
      const used = await countQuotaEvents(tx, actor.profileId, "match_request_sent", quotaWindowStart());
      if (!opportunityQuota(locked.membershipType, used).canRequest) throw new AppError("quota-reached", OPPORTUNITY_QUOTA_REACHED);
    }
    const [own] = await tx
      .select({ id: mandates.id, mandateType: mandates.mandateType, status: mandates.status, endDate: mandates.endDate })
      .from(mandates)
      .where(and(eq(mandates.id, input.mandateId), eq(mandates.profileId, actor.profileId)))
      .limit(1);
    if (!own) notFound();
    const [target] = await tx
      .select({
        id: mandates.id,
        profileId: mandates.profileId,
        mandateType: mandates.mandateType,
        status: mandates.status,
        endDate: mandates.endDate,
        ownerStatus: profiles.profileStatus,
      })
      .from(mandates)
      .innerJoin(profiles, eq(profiles.id, mandates.profileId))
      .where(eq(mandates.id, input.targetMandateId))
      .limit(1);
    if (!target || target.profileId === actor.profileId) notFound();
    if (!isMatchable(own.status, own.endDate, today)) conflict(MATCH_REQUEST_MESSAGES.ownNotActive);
    if (target.mandateType === own.mandateType) conflict(MATCH_REQUEST_MESSAGES.sameType);
    if (!isMatchable(target.status, target.endDate, today) || target.ownerStatus !== "validated") {
      conflict(MATCH_REQUEST_MESSAGES.notMatchable);
    }
    invalidate("mandate_match_requests");
    const [row] = await tx
      .insert(mandateMatchRequests)
      .values({
        requesterMandateId: own.id,
        targetMandateId: target.id,
        requesterProfileId: actor.profileId,
        message: input.message,
        status: "pending",
      })
      .onConflictDoNothing()
      .returning({ id: mandateMatchRequests.id });
    if (!row) conflict(MATCH_REQUEST_MESSAGES.duplicate);
    await tx.insert(quotaEvents).values({ profileId: actor.profileId, kind: "match_request_sent", subjectId: row.id });
    await logEvent(tx, row.id, actor.profileId, "requested", input.message ? { message: input.message } : null);
    await notifyMatchRequestReceived(tx, row.id);
    return { requestId: row.id, targetMandateId: target.id };
  });
}

export type Answer = {
  requestId: string;
  status: "accepted" | "rejected";
  /** Both directions are now accepted (this answer confirmed the connection). */
  confirmed: boolean;
  /** The collaboration file opened by this confirmation. */
  fileId: string | null;
  requesterMandateId: string;
  targetMandateId: string;
};

/**
 * Accepter / Rejeter: only the owner of the target mandate, only while pending (409 after).
 * Accepting looks for the accepted request in the reverse direction, under a lock on both rows.
 */
export async function respondToMatchRequest(
  actor: MandateActor,
  requestId: string,
  decision: "accepted" | "rejected",
): Promise<Answer> {
  if (!isUuid(requestId)) requestNotFound();
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select({
        id: mandateMatchRequests.id,
        requesterMandateId: mandateMatchRequests.requesterMandateId,
        targetMandateId: mandateMatchRequests.targetMandateId,
      })
      .from(mandateMatchRequests)
      .innerJoin(mandates, eq(mandates.id, mandateMatchRequests.targetMandateId))
      .where(and(eq(mandateMatchRequests.id, requestId), eq(mandates.profileId, actor.profileId)))
      .limit(1);
    if (!request) requestNotFound();
    const pair = await lockPair(tx, request.requesterMandateId, request.targetMandateId);
    const current = pair.find((r) => r.id === request.id);
    const reverse = pair.find((r) => r.id !== request.id);
    if (!current) requestNotFound();
    if (!canRespond(current.status)) conflict(MATCH_REQUEST_MESSAGES.notPending);
    invalidate("mandate_match_requests");
    await tx
      .update(mandateMatchRequests)
      .set({ status: decision, respondedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(mandateMatchRequests.id, request.id), eq(mandateMatchRequests.status, "pending")));
    await logEvent(tx, request.id, actor.profileId, decision);
    const confirmed = decision === "accepted" && isConfirmed("accepted", reverse?.status);
    // The second acceptance opens the pair's collaboration file, its log copied as its timeline.
    const fileId = confirmed ? await openCollaborationFile(tx, request.requesterMandateId, request.targetMandateId) : null;
    await notifyRequestAnswered(tx, request.id, decision);
    if (decision === "accepted") await notifyRequestAccepted(tx, request.id, confirmed, fileId);
    return {
      requestId: request.id,
      status: decision,
      confirmed,
      fileId,
      requesterMandateId: request.requesterMandateId,
      targetMandateId: request.targetMandateId,
    };
  });
}

/**
 * The confidentiality undertaking of one side of a confirmed connection, stored in the log with
 * its date and text, followed by the reveal of the counterparty's client identity to that side.
 * Idempotent. `requestId` is either request of the pair.
 */
export async function signUndertaking(actor: MandateActor, requestId: string): Promise<{ mandateId: string }> {
  if (!isUuid(requestId)) requestNotFound();
  return db.transaction(async (tx) => {
    const rows = await queryRows<{ requester_mandate_id: string; target_mandate_id: string; requester_owner: string; target_owner: string }>(
      sql`select r.requester_mandate_id, r.target_mandate_id, rm.profile_id as requester_owner, tm.profile_id as target_owner
        from mandate_match_requests r
        join mandates rm on rm.id = r.requester_mandate_id
        join mandates tm on tm.id = r.target_mandate_id
        where r.id = ${requestId}::uuid and (rm.profile_id = ${actor.profileId}::uuid or tm.profile_id = ${actor.profileId}::uuid)`,
      tx,
    );
    const request = rows[0];
    if (!request) requestNotFound();
    const mine = request.requester_owner === actor.profileId ? request.requester_mandate_id : request.target_mandate_id;
    const theirs = mine === request.requester_mandate_id ? request.target_mandate_id : request.requester_mandate_id;
    const pair = await lockPair(tx, mine, theirs);
    const toMine = pair.find((r) => r.targetMandateId === mine);
    const fromMine = pair.find((r) => r.requesterMandateId === mine);
    if (!toMine || !fromMine || !isConfirmed(toMine.status, fromMine.status)) conflict(MATCH_REQUEST_MESSAGES.notConfirmed);
    const [already] = await tx
      .select({ id: connectionEvents.id })
      .from(connectionEvents)
      .where(
        and(
          inArray(
            connectionEvents.matchRequestId,
            pair.map((r) => r.id),
          ),
          eq(connectionEvents.event, "undertaking_signed"),
          eq(connectionEvents.actorProfileId, actor.profileId),
        ),
      )
      .limit(1);
    if (!already) {
      // Kept on the request the actor accepted (the one aimed at their mandate).
      await logEvent(tx, toMine.id, actor.profileId, "undertaking_signed", { text: UNDERTAKING_TEXT });
      await logEvent(tx, toMine.id, actor.profileId, "revealed", { mandateId: theirs });
      await recordUndertakingInFile(tx, mine, theirs, actor.profileId);
    }
    await completeTask(undertakingTask(mine, theirs), tx, { profileId: actor.profileId });
    return { mandateId: mine };
  });
}

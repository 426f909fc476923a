// Match requests and confidential connections (spec §2 "Matching panel", §4 "Match request",
// §6, §8). A request goes from one of the actor's mandates to another member's mandate of the
// opposite type; only the owner of the target answers it, only while pending. A connection is
// confirmed when both directions are accepted; then each side, after ticking the confidentiality
// undertaking, sees the other's client identity. Every step is written to the introduction log
// (connection_events) with its actor.
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { connectionEvents, mandateMatchRequests, mandates, profiles, quotaEvents } from "~/db/schema";
import { queryRows, withReusablePlan } from "~/db/query.server";
import { isMatchable, OPPORTUNITY_QUOTA_REACHED, opportunityQuota, parisToday, quotaWindowStart, type OpportunityQuota } from "~/features/mandates/mandate-rules";
import { countQuotaEvents, notFound, type MandateActor, type OwnMandate } from "~/features/mandates/mandates.server";
import { isUuid } from "~/lib/uuid";
import { openCollaborationFile, recordUndertakingInFile } from "~/features/collaboration/collaboration.server";
import { counterpartColumns, toCounterpart, type CounterpartMandate, type CounterpartRow } from "~/features/matching/counterpart.server";
import { notifyMatchRequestReceived, notifyRequestAccepted, notifyRequestAnswered, undertakingTodo } from "~/features/notifications/connection-notifications.server";
import { completeTodo } from "~/features/notifications/notifications.server";
import { matchScore, type CriteriaVerdicts, type ScoreBreakdown } from "~/features/matching/match-score";
import { countPotentialMatches, listPotentialMatches, matchSourceOf, POTENTIAL_MATCHES_LIMIT, verdictsBetween, type PotentialMatch } from "~/features/matching/matching.server";
import {
  canRespond,
  canSeeClientIdentity,
  eventLabel,
  isConfirmed,
  MATCH_REQUEST_MESSAGES,
  panelLists,
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
    await completeTodo(undertakingTodo(mine, theirs), tx, { profileId: actor.profileId });
    return { mandateId: mine };
  });
}

// ---------------------------------------------------------------------------------------------
// The matching panel

export type PanelRequest = {
  id: string;
  status: RequestStatus;
  message: string | null;
  createdAt: string;
  respondedAt: string | null;
};

export type LogEntry = {
  id: string;
  event: ConnectionEvent;
  label: string;
  at: string;
  actorName: string | null;
  byMe: boolean;
  message: string | null;
};

export type Relation = {
  counterpart: CounterpartMandate;
  score: ScoreBreakdown;
  criteria: CriteriaVerdicts;
  /** Request from the panel's mandate to the counterpart. */
  sent: PanelRequest | null;
  /** Request from the counterpart to the panel's mandate. */
  received: PanelRequest | null;
  confirmed: boolean;
  undertaking: { mine: string | null; theirs: string | null };
  /** The counterpart's professional e-mail, once the connection is confirmed. */
  contactEmail: string | null;
  /** The counterpart's client identity: confirmed and the actor's undertaking signed. */
  client: { name: string; address: string } | null;
  /** The collaboration file of a confirmed connection (« Ouvrir le dossier de rapprochement »). */
  fileId: string | null;
  log: LogEntry[];
};

export type PanelMatch = PotentialMatch & { sentStatus: RequestStatus | null; receivedStatus: RequestStatus | null };

export type MatchingPanel = {
  mandate: OwnMandate;
  matchable: boolean;
  /** Requests the actor may still send this semester (freemium), shown beside the buttons. */
  opportunities: OpportunityQuota;
  counters: { sent: number; pendingReceived: number; activeConnections: number };
  relations: Relation[];
  potential: PanelMatch[];
  /** The potential matches counted (as the card counts them, up to MATCH_COUNT_CAP + 1): `potential` may be its first part. */
  potentialCount: number;
};

type RequestRow = {
  id: string;
  requester_mandate_id: string;
  target_mandate_id: string;
  status: RequestStatus;
  message: string | null;
  created_at: Date | string;
  responded_at: Date | string | null;
};

type EventRow = {
  id: string;
  match_request_id: string;
  event: ConnectionEvent;
  actor_profile_id: string | null;
  details: Record<string, unknown> | string | null;
  created_at: Date | string;
  first_name: string | null;
  last_name: string | null;
};

type PanelRequestRow = RequestRow &
  { [K in keyof CounterpartRow]: CounterpartRow[K] | null } & {
    cp_email: string | null;
    cp_revealed: boolean | null;
    cp_client_name: string | null;
    cp_client_address: string | null;
    file_id: string | null;
    events: (Omit<EventRow, "created_at"> & { created_at: string; ord: number; rank: number })[];
  };

const iso = (v: Date | string) => new Date(v).toISOString();

function toPanelRequest(r: RequestRow): PanelRequest {
  return {
    id: r.id,
    status: r.status,
    message: r.message,
    createdAt: iso(r.created_at),
    respondedAt: r.responded_at ? iso(r.responded_at) : null,
  };
}

function scoreBetween(own: OwnMandate, other: CounterpartMandate): ScoreBreakdown {
  return own.mandateType === "buyer" ? matchScore(own, other) : matchScore(other, own);
}

/**
 * Everything the panel shows for one of the actor's mandates (404 for anyone else's): the
 * requests both ways with the counterpart projections, the connections with their log, and the
 * potential matches. Client identities of counterparts are read only for confirmed connections
 * whose undertaking the actor signed.
 */
export async function getMatchingPanel(
  actor: MandateActor,
  mandateId: string,
  known: {
    /** The actor's mandates when the page already read them (the mandate is taken from them). */
    own?: readonly OwnMandate[];
    /** The actor's opportunity quota when the page already read it. */
    opportunities?: OpportunityQuota;
    /** The mandate's potential matches as its card counted them. */
    potentialCount?: number;
    /** How many of them to list (« Voir les suivants »). */
    limit?: number;
  } = {},
): Promise<MatchingPanel> {
  let own: OwnMandate | undefined;
  if (known.own) {
    own = known.own.find((m) => m.id === mandateId);
    if (!own) notFound();
  }
  const { mandate, matchable, matches } = await listPotentialMatches(actor, mandateId, known.limit, own);
  // One statement: the requests between this mandate and others, each with its counterpart
  // mandate, the counterpart's e-mail (kept for confirmed connections only), the file the
  // connection opened on the actor's side, its events, and the counterpart's client identity —
  // selected only for a confirmed connection (both directions accepted) whose undertaking the
  // actor signed, the one read of another member's client (canSeeClientIdentity checks again).
  // A lookup by the mandate's id: a reusable plan, as planning it cost more than running it.
  const rows = await queryRows<PanelRequestRow>(withReusablePlan(sql`
    select r.id, r.requester_mandate_id, r.target_mandate_id, r.status::text as status, r.message, r.created_at, r.responded_at,
      ${counterpartColumns("m", "p")}, u.email as cp_email,
      reveal.ok as cp_revealed,
      case when reveal.ok then m.client_name end as cp_client_name,
      case when reveal.ok then m.client_address end as cp_client_address,
      (select f.id from collaboration_files f
        where (f.mandate_a_id = ${mandate.id}::uuid and f.member_a_id = ${actor.profileId}::uuid and f.mandate_b_id = m.id)
           or (f.mandate_b_id = ${mandate.id}::uuid and f.member_b_id = ${actor.profileId}::uuid and f.mandate_a_id = m.id)
        limit 1) as file_id,
      coalesce((select json_agg(json_build_object('id', e.id, 'match_request_id', e.match_request_id, 'event', e.event::text,
          'actor_profile_id', e.actor_profile_id, 'details', e.details, 'created_at', e.created_at,
          'first_name', ep.first_name, 'last_name', ep.last_name,
          'ord', (extract(epoch from e.created_at) * 1000000)::bigint,
          'rank', case e.event when 'requested' then 0 when 'accepted' then 1 when 'rejected' then 1 when 'undertaking_signed' then 2 else 3 end))
        from connection_events e left join profiles ep on ep.id = e.actor_profile_id
        where e.match_request_id = r.id), '[]'::json) as events
    from mandate_match_requests r
    left join mandates m on m.id = (case when r.requester_mandate_id = ${mandate.id}::uuid then r.target_mandate_id else r.requester_mandate_id end)
    left join profiles p on p.id = m.profile_id
    left join "user" u on u.id = p.user_id
    left join lateral (select
        exists (select 1 from mandate_match_requests f where f.requester_mandate_id = ${mandate.id}::uuid
          and f.target_mandate_id = m.id and f.status = 'accepted')
        and exists (select 1 from mandate_match_requests b where b.requester_mandate_id = m.id
          and b.target_mandate_id = ${mandate.id}::uuid and b.status = 'accepted')
        and exists (select 1 from mandate_match_requests q join connection_events e on e.match_request_id = q.id
          where ((q.requester_mandate_id = ${mandate.id}::uuid and q.target_mandate_id = m.id)
              or (q.requester_mandate_id = m.id and q.target_mandate_id = ${mandate.id}::uuid))
            and e.event = 'undertaking_signed' and e.actor_profile_id = ${actor.profileId}::uuid) as ok
      ) reveal on m.id is not null
    where r.requester_mandate_id = ${mandate.id}::uuid or r.target_mandate_id = ${mandate.id}::uuid
    order by r.created_at desc, r.id`));
  const requests: RequestRow[] = rows;
  const otherOf = (r: RequestRow) => (r.requester_mandate_id === mandate.id ? r.target_mandate_id : r.requester_mandate_id);
  const counterparts = new Map<string, CounterpartMandate>();
  const contactOf = new Map<
    string,
    { email: string | null; fileId: string | null; client: { name: string; address: string } | null }
  >();
  for (const r of rows) {
    if (r.cp_id === null) continue;
    counterparts.set(r.cp_id, toCounterpart(r as CounterpartRow));
    contactOf.set(r.cp_id, {
      email: r.cp_email,
      fileId: r.file_id,
      client: r.cp_revealed && r.cp_client_name !== null && r.cp_client_address !== null ? { name: r.cp_client_name, address: r.cp_client_address } : null,
    });
  }
  // The events of every request in one order: time, then the order of a connection's steps, then id.
  const events = rows
    .flatMap((r) => r.events)
    .sort((x, y) => x.ord - y.ord || x.rank - y.rank || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));

  const relations = new Map<string, Relation>();
  for (const r of requests) {
    const otherId = otherOf(r);
    const counterpart = counterparts.get(otherId);
    if (!counterpart) continue;
    let rel = relations.get(otherId);
    if (!rel) {
      rel = {
        counterpart,
        score: scoreBetween(mandate, counterpart),
        criteria: verdictsBetween(mandate, counterpart),
        sent: null,
        received: null,
        confirmed: false,
        undertaking: { mine: null, theirs: null },
        contactEmail: null,
        client: null,
        fileId: null,
        log: [],
      };
      relations.set(otherId, rel);
    }
    if (r.requester_mandate_id === mandate.id) rel.sent = toPanelRequest(r);
    else rel.received = toPanelRequest(r);
  }
  const requestToOther = new Map(requests.map((r) => [r.id, otherOf(r)]));
  for (const e of events) {
    const rel = relations.get(requestToOther.get(e.match_request_id) ?? "");
    if (!rel) continue;
    const details = typeof e.details === "string" ? (JSON.parse(e.details) as Record<string, unknown>) : e.details;
    const byMe = e.actor_profile_id === actor.profileId;
    rel.log.push({
      id: e.id,
      event: e.event,
      label: eventLabel(e.event),
      at: iso(e.created_at),
      actorName: e.first_name ? `${e.first_name} ${e.last_name ?? ""}`.trim() : null,
      byMe,
      message: e.event === "requested" && typeof details?.message === "string" ? details.message : null,
    });
    if (e.event === "undertaking_signed") {
      if (byMe) rel.undertaking.mine ??= iso(e.created_at);
      else if (e.actor_profile_id === rel.counterpart.owner.profileId) rel.undertaking.theirs ??= iso(e.created_at);
    }
  }
  for (const rel of relations.values()) rel.confirmed = isConfirmed(rel.sent?.status, rel.received?.status);

  const confirmed = [...relations.values()].filter((r) => r.confirmed);
  if (confirmed.length) {
    // Files are opened by the confirmation; only the actor's side of each was looked up.
    for (const rel of confirmed) {
      const contact = contactOf.get(rel.counterpart.id);
      rel.fileId = contact?.fileId ?? null;
      rel.contactEmail = contact?.email ?? null;
    }
    // The client identity was selected under the same rule; shown only if the rule agrees.
    for (const rel of confirmed) {
      if (!canSeeClientIdentity(rel.confirmed, rel.undertaking.mine !== null)) continue;
      rel.client = contactOf.get(rel.counterpart.id)?.client ?? null;
    }
  }

  const list = [...relations.values()];
  const potential: PanelMatch[] = matches.map((m) => {
    const rel = relations.get(m.id);
    return { ...m, sentStatus: rel?.sent?.status ?? null, receivedStatus: rel?.received?.status ?? null };
  });
  // The whole list is there when it is shorter than asked: its length is the count.
  const limit = known.limit ?? POTENTIAL_MATCHES_LIMIT;
  const potentialCount = !matchable
    ? 0
    : matches.length < limit
      ? matches.length
      : (known.potentialCount ?? (await countPotentialMatches(matchSourceOf(mandate, actor.profileId))));
  return {
    mandate,
    matchable,
    potentialCount,
    opportunities: known.opportunities ?? (await getOpportunityQuota(actor)),
    counters: panelLists(list).counters,
    relations: list,
    potential,
  };
}

/** Match requests sent over the last six months and what the member's tier allows. */
export async function getOpportunityQuota(actor: MandateActor): Promise<OpportunityQuota> {
  const quota = opportunityQuota(actor.membershipType, 0);
  if (!quota.limited) return quota;
  return opportunityQuota(actor.membershipType, await countQuotaEvents(db, actor.profileId, "match_request_sent", quotaWindowStart()));
}

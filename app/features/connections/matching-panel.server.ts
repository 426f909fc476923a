// The matching panel of one of the member's mandates (spec §2 "Matching panel"): the requests
// sent and received with their introduction log, the confirmed relations and the potential
// matches, and the opportunity quota of the member's tier.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows, withReusablePlan } from "~/db/query.server";
import { opportunityQuota, quotaWindowStart, type OpportunityQuota } from "~/features/mandates/mandate-rules";
import { countQuotaEvents, notFound, type MandateActor, type OwnMandate } from "~/features/mandates/mandates.server";
import { counterpartColumns, toCounterpart, type CounterpartMandate, type CounterpartRow } from "~/features/matching/counterpart.server";
import { matchScore, type CriteriaVerdicts, type ScoreBreakdown } from "~/features/matching/match-score";
import {
  countPotentialMatches,
  listPotentialMatches,
  matchSourceOf,
  POTENTIAL_MATCHES_LIMIT,
  verdictsBetween,
  type PotentialMatch,
} from "~/features/matching/matching.server";
import { canSeeClientIdentity, eventLabel, isConfirmed, panelLists, type ConnectionEvent, type RequestStatus } from "./connection-rules";

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

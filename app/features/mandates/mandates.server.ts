// A member's own mandates (spec §2 "Mandates", §4, §6, §8). Every query is scoped by the acting
// member (`profile_id = actor`): another member's mandate id is a 404, never their row.
import { recordAudit } from "~/lib/audit/audit.server";
import { and, count, desc, eq, gte, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { builtOnce } from "~/db/query.server";
import { memoByObject } from "~/lib/memo";
import { isUuid } from "~/lib/uuid";
import { connectionEvents, mandateMatchRequests, mandates, profiles, quotaEvents } from "~/db/schema";
import {
  canToggleStatus,
  MANDATE_MESSAGES,
  mandateQuota,
  quotaWindowStart,
  toggledStatus,
  type MandateStatus,
  type MandateType,
  type QuotaState,
} from "./mandate-rules";
import type { MandateInput } from "./mandates.schema";
import { invalidate } from "~/lib/cache.server";
import { completeTask } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { AppError } from "~/lib/errors/app-error";

/** The acting member, as the mandate features need it. */
export type MandateActor = { profileId: string; membershipType: string | null };

export function mandateActor(profile: { id: string; membershipType: string | null }): MandateActor {
  return { profileId: profile.id, membershipType: profile.membershipType };
}

/** Today in Europe/Paris, in SQL: the same calendar as `parisToday()`. */
export const PARIS_TODAY_SQL = sql`(now() at time zone 'Europe/Paris')::date`;

export function notFound(): never {
  throw new AppError("not-found", "Mandat introuvable");
}

export class QuotaReachedError extends Error {
  constructor() {
    super(MANDATE_MESSAGES.quotaReached);
  }
}

/** The owner's view of a mandate: the only projection that carries the client's identity. */
const ownColumns = {
  id: mandates.id,
  mandateType: mandates.mandateType,
  isExclusive: mandates.isExclusive,
  startDate: mandates.startDate,
  endDate: mandates.endDate,
  clientCode: mandates.clientCode,
  clientName: mandates.clientName,
  clientAddress: mandates.clientAddress,
  description: mandates.description,
  status: mandates.status,
  searchSectors: mandates.searchSectors,
  searchTerritories: mandates.searchTerritories,
  targetAmountMin: mandates.targetAmountMin,
  targetAmountMax: mandates.targetAmountMax,
  contributionMin: mandates.contributionMin,
  contributionMax: mandates.contributionMax,
  maUsage: mandates.maUsage,
  companySector: mandates.companySector,
  companyTerritory: mandates.companyTerritory,
  companyDescription: mandates.companyDescription,
  valuationAmount: mandates.valuationAmount,
  requiredContributionMin: mandates.requiredContributionMin,
  requiredContributionMax: mandates.requiredContributionMax,
  projectTimeline: mandates.projectTimeline,
  targetBuyerTypes: mandates.targetBuyerTypes,
  createdAt: mandates.createdAt,
};

type OwnRow = {
  [K in keyof typeof ownColumns]: (typeof ownColumns)[K]["_"]["notNull"] extends true
    ? (typeof ownColumns)[K]["_"]["data"]
    : (typeof ownColumns)[K]["_"]["data"] | null;
};

export type OwnMandate = Omit<OwnRow, "createdAt"> & {
  createdAt: string;
  /** Requests received on this mandate still waiting for an answer. */
  pendingReceived: number;
};

// `mandates.id` written out: Drizzle renders a column of the selected table unqualified ("id")
// inside a raw subquery, where it would read the request's own id.
const pendingReceivedSql = sql<number>`(select count(*)::int from ${mandateMatchRequests} r
  where r.target_mandate_id = mandates.id and r.status = 'pending')`;

function toOwn(row: OwnRow & { pendingReceived: number | string }): OwnMandate {
  return { ...row, createdAt: row.createdAt.toISOString(), pendingReceived: Number(row.pendingReceived) };
}

/** The member's mandates, newest first (spec §7: SELECT all where profile_id ordered by created_at desc). */
export async function listMyMandates(actor: MandateActor): Promise<OwnMandate[]> {
  const rows = await db
    .select({ ...ownColumns, pendingReceived: pendingReceivedSql })
    .from(mandates)
    .where(eq(mandates.profileId, actor.profileId))
    .orderBy(desc(mandates.createdAt), desc(mandates.id));
  return rows.map(toOwn);
}

/**
 * listMyMandates with more per-mandate counts computed in the same statement (the cards' figures):
 * each extra column is an integer SQL expression over the row of `mandates`. The statement is
 * built once per `counts` object: pass a module constant, its values as `sql.placeholder`s given
 * in `values` (`profileId` is the actor's).
 */
export async function listMyMandatesWithCounts<K extends string>(
  actor: MandateActor,
  counts: Record<K, SQL>,
  values: Record<string, unknown> = {},
): Promise<Array<OwnMandate & Record<K, number>>> {
  const rows = (await myMandatesWithCounts(counts)().execute({ ...values, profileId: actor.profileId })) as unknown[];
  return rows.map((row) => {
    const r = row as OwnRow & { pendingReceived: number | string } & Record<K, number | string>;
    const own = toOwn(r);
    const figures = Object.fromEntries(Object.keys(counts).map((k) => [k, Number(r[k as K])])) as Record<K, number>;
    return { ...own, ...figures };
  });
}

/** The statement of listMyMandatesWithCounts, built once per counts object. */
const myMandatesWithCounts = memoByObject((counts: Record<string, SQL>) => {
  const extra = Object.fromEntries(Object.entries<SQL>(counts).map(([k, v]) => [k, sql<number>`${v}`]));
  return builtOnce((handle) =>
    handle
      .select({ ...ownColumns, pendingReceived: pendingReceivedSql, ...extra })
      .from(mandates)
      .where(eq(mandates.profileId, sql.placeholder("profileId")))
      .orderBy(desc(mandates.createdAt), desc(mandates.id)),
    // Its generic plan is the custom one, without the planning on every call.
    { reusablePlan: true },
  );
});

/** One of the member's mandates; 404 for anyone else's or an unknown id. */
export async function getMyMandate(actor: MandateActor, mandateId: string): Promise<OwnMandate> {
  if (!isUuid(mandateId)) notFound();
  const [row] = await db
    .select({ ...ownColumns, pendingReceived: pendingReceivedSql })
    .from(mandates)
    .where(and(eq(mandates.id, mandateId), eq(mandates.profileId, actor.profileId)))
    .limit(1);
  if (!row) notFound();
  return toOwn(row);
}

/**
 * What a quota counts since `since`: mandates created or match requests sent, from their own
 * record (quota_events), so that a deleted mandate or request still counts.
 */
export async function countQuotaEvents(
  handle: Pick<typeof db, "select">,
  profileId: string,
  kind: "mandate_created" | "match_request_sent",
  since: Date,
): Promise<number> {
  const [row] = await handle
    .select({ n: count() })
    .from(quotaEvents)
    .where(and(eq(quotaEvents.profileId, profileId), eq(quotaEvents.kind, kind), gte(quotaEvents.createdAt, since)));
  return Number(row?.n ?? 0);
}

/**
 * countQuotaEvents as an integer SQL expression, to ride on another statement of the page (a
 * page's statements are counted); the same predicate, on quota_events_profile_idx.
 */
export function quotaEventsCountSql(profileId: string | Placeholder, kind: "mandate_created" | "match_request_sent", since: Date | Placeholder): SQL {
  const from = since instanceof Date ? since.toISOString() : since;
  return sql`(select count(*)::int from ${quotaEvents} q
    where q.profile_id = ${profileId}::uuid and q.kind = ${kind} and q.created_at >= ${from}::timestamptz)`;
}

async function countCreatedSince(handle: Pick<typeof db, "select">, profileId: string, since: Date): Promise<number> {
  return countQuotaEvents(handle, profileId, "mandate_created", since);
}

/** Mandates created over the last six months and what the member's tier allows. */
export async function getMandateQuota(actor: MandateActor, now: Date = new Date()): Promise<QuotaState> {
  const used = await countCreatedSince(db, actor.profileId, quotaWindowStart(now));
  return mandateQuota(actor.membershipType, used);
}

function values(input: MandateInput) {
  return {
    mandateType: input.mandateType,
    isExclusive: input.isExclusive,
    startDate: input.startDate,
    endDate: input.endDate,
    clientCode: input.clientCode,
    clientName: input.clientName,
    clientAddress: input.clientAddress,
    description: input.description,
    searchSectors: input.searchSectors,
    searchTerritories: input.searchTerritories,
    targetAmountMin: input.targetAmountMin,
    targetAmountMax: input.targetAmountMax,
    contributionMin: input.contributionMin,
    contributionMax: input.contributionMax,
    maUsage: input.maUsage,
    companySector: input.companySector,
    companyTerritory: input.companyTerritory,
    companyDescription: input.companyDescription,
    valuationAmount: input.valuationAmount,
    requiredContributionMin: input.requiredContributionMin,
    requiredContributionMax: input.requiredContributionMax,
    projectTimeline: input.projectTimeline,
    targetBuyerTypes: input.targetBuyerTypes,
  };
}

/**
 * Creates a mandate. For a freemium member the quota count and the insert run in one
 * transaction that first locks the member's profile row, so two simultaneous creations at 2/3
 * cannot both pass the count. Throws QuotaReachedError (nothing saved) at the limit.
 */
export async function createMandate(actor: MandateActor, input: MandateInput, now: Date = new Date()): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ membershipType: profiles.membershipType })
      .from(profiles)
      .where(eq(profiles.id, actor.profileId))
      .for("update");
    if (!locked) notFound();
    const quota = mandateQuota(locked.membershipType, 0);
    if (quota.limited) {
      const used = await countCreatedSince(tx, actor.profileId, quotaWindowStart(now));
      if (!mandateQuota(locked.membershipType, used).canCreate) throw new QuotaReachedError();
    }
    invalidate("mandates");
    const [row] = await tx
      .insert(mandates)
      .values({ ...values(input), profileId: actor.profileId, status: "active" })
      .returning({ id: mandates.id });
    await tx.insert(quotaEvents).values({ profileId: actor.profileId, kind: "mandate_created", subjectId: row.id });
    return row;
  });
}

/**
 * Updates one of the member's mandates (editing is exempt from the quota). Changing the end date
 * re-arms the 7-day expiry reminder. The type cannot change once requests link the mandate to
 * others: their pairs would no longer join a buyer and a seller.
 */
export async function updateMandate(actor: MandateActor, mandateId: string, input: MandateInput): Promise<{ id: string }> {
  if (!isUuid(mandateId)) notFound();
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: mandates.id, mandateType: mandates.mandateType, endDate: mandates.endDate })
      .from(mandates)
      .where(and(eq(mandates.id, mandateId), eq(mandates.profileId, actor.profileId)))
      .for("update");
    if (!current) notFound();
    if (current.mandateType !== input.mandateType) {
      const [linked] = await tx
        .select({ n: count() })
        .from(mandateMatchRequests)
        .where(or(eq(mandateMatchRequests.requesterMandateId, mandateId), eq(mandateMatchRequests.targetMandateId, mandateId)));
      if (Number(linked?.n ?? 0) > 0) {
        throw new AppError("conflict", "Le type d’un mandat lié à des demandes de mise en relation ne peut pas être modifié");
      }
    }
    invalidate("mandates");
    const [row] = await tx
      .update(mandates)
      .set({
        ...values(input),
        expiryReminderSentAt: current.endDate === input.endDate ? sql`${mandates.expiryReminderSentAt}` : null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(mandates.id, mandateId), eq(mandates.profileId, actor.profileId)))
      .returning({ id: mandates.id });
    if (!row) notFound();
    // A new end date answers the expiry to-do (the reminder job asks again if it is still close).
    if (current.endDate !== input.endDate) await completeTask(taskKey("mandate_expiring", mandateId), tx);
    return row;
  });
}

/**
 * Mettre en veille / Réactiver: active → on_hold, on hold or expired → active (spec §4). A mandate
 * in negotiation or concluded is not toggled (409).
 */
export async function toggleMandateStatus(
  actor: MandateActor,
  mandateId: string,
): Promise<{ id: string; status: MandateStatus; mandateType: MandateType }> {
  if (!isUuid(mandateId)) notFound();
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: mandates.status })
      .from(mandates)
      .where(and(eq(mandates.id, mandateId), eq(mandates.profileId, actor.profileId)))
      .for("update");
    if (!current) notFound();
    if (!canToggleStatus(current.status)) throw new AppError("conflict", MANDATE_MESSAGES.toggleBeyondSearch);
    invalidate("mandates");
    const [row] = await tx
      .update(mandates)
      .set({ status: toggledStatus(current.status), updatedAt: sql`now()` })
      .where(and(eq(mandates.id, mandateId), eq(mandates.profileId, actor.profileId)))
      .returning({ id: mandates.id, status: mandates.status, mandateType: mandates.mandateType });
    await completeTask(taskKey("mandate_expiring", mandateId), tx);
    return row;
  });
}

/**
 * Deletes one of the member's mandates; its requests and their introduction log go with it (foreign
 * keys cascade). The log is the evidence of who introduced whom, so when there is one it is first
 * copied to the audit log.
 */
export async function deleteMandate(actor: MandateActor, mandateId: string): Promise<void> {
  if (!isUuid(mandateId)) notFound();
  await db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ userId: profiles.userId })
      .from(mandates)
      .innerJoin(profiles, eq(profiles.id, mandates.profileId))
      .where(and(eq(mandates.id, mandateId), eq(mandates.profileId, actor.profileId)))
      .for("update", { of: mandates });
    if (!owner) notFound();
    await completeTask(taskKey("mandate_expiring", mandateId), tx);
    const events = await tx
      .select({
        requestId: connectionEvents.matchRequestId,
        requesterMandateId: mandateMatchRequests.requesterMandateId,
        targetMandateId: mandateMatchRequests.targetMandateId,
        event: connectionEvents.event,
        actorProfileId: connectionEvents.actorProfileId,
        details: connectionEvents.details,
        createdAt: connectionEvents.createdAt,
      })
      .from(connectionEvents)
      .innerJoin(mandateMatchRequests, eq(mandateMatchRequests.id, connectionEvents.matchRequestId))
      .where(or(eq(mandateMatchRequests.requesterMandateId, mandateId), eq(mandateMatchRequests.targetMandateId, mandateId)))
      .orderBy(connectionEvents.createdAt);
    if (events.length > 0) {
      await recordAudit(tx, {
        actorUserId: owner.userId,
        action: "mandate.deleted_with_connection_log",
        targetId: mandateId,
        details: { events: events.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })) },
      });
    }
    invalidate("mandates");
    await tx.delete(mandates).where(and(eq(mandates.id, mandateId), eq(mandates.profileId, actor.profileId)));
  });
}

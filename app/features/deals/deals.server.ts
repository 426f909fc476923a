// Certified deals, the member's side (spec §3 "Certified deal", §4): a premium member adds,
// edits and deletes their own M&A references; every new or edited reference goes back to
// pending; a validated one can no longer be edited, only deleted. Every query is scoped by the
// actor's profile id, so another member's deal is a 404. Admin review lives in the admin area.
import { and, count, desc, eq, ne, sql } from "drizzle-orm";
import { can } from "~/auth/permissions";
import { db, type Db } from "~/db/client.server";
import { builtOnce } from "~/db/query.server";
import { certifiedDeals } from "~/db/schema";
import type { MemberActor } from "~/auth/actor";
import type { DealDisclosure } from "./deal-disclosure";
import { DEAL_LIMITS, DEAL_MESSAGES, type DealInput, type DealStatus } from "./deal.schema";
import { invalidate } from "~/lib/cache.server";
import { AppError } from "~/lib/errors/app-error";

/** A deal as its owner sees it in the editor (no validator id). */
export type OwnDeal = {
  id: string;
  year: number;
  sector: string;
  acquirerCedant: string;
  dealDescription: string | null;
  disclosure: DealDisclosure;
  sizeBand: string | null;
  region: string | null;
  status: DealStatus;
  rejectionReason: string | null;
  createdAt: string;
  validatedAt: string | null;
};

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function notFound(): never {
  throw new AppError("not-found", DEAL_MESSAGES.notFound);
}

function requireDealsEditor(actor: MemberActor) {
  if (!can(actor.membershipType, "certifiedDeals")) throw new AppError("forbidden", DEAL_MESSAGES.premiumOnly);
}

function ownDeal(actor: MemberActor, dealId: string) {
  return and(eq(certifiedDeals.id, dealId), eq(certifiedDeals.profileId, actor.profileId));
}

const ownDeals = builtOnce((handle) =>
  handle
    .select({
      id: certifiedDeals.id,
      year: certifiedDeals.year,
      sector: certifiedDeals.sector,
      acquirerCedant: certifiedDeals.acquirerCedant,
      dealDescription: certifiedDeals.dealDescription,
      disclosure: certifiedDeals.disclosure,
      sizeBand: certifiedDeals.sizeBand,
      region: certifiedDeals.region,
      status: certifiedDeals.status,
      rejectionReason: certifiedDeals.rejectionReason,
      createdAt: certifiedDeals.createdAt,
      validatedAt: certifiedDeals.validatedAt,
    })
    .from(certifiedDeals)
    .where(eq(certifiedDeals.profileId, sql.placeholder("profileId")))
    .orderBy(desc(certifiedDeals.year), desc(certifiedDeals.createdAt)),
);

/** The disclosure columns of a write: named only with the consent certified, stamped now. */
function disclosureColumns(input: DealInput, now: Date) {
  const named = input.disclosure === "named" && input.partiesConsent === "on";
  return {
    disclosure: named ? ("named" as const) : ("anonymised" as const),
    partiesConsentAt: named ? now : null,
    sizeBand: input.sizeBand ?? null,
    region: input.region ?? null,
  };
}

export async function listOwnDeals(actor: MemberActor): Promise<OwnDeal[]> {
  const rows = await ownDeals().execute({ profileId: actor.profileId });
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), validatedAt: r.validatedAt?.toISOString() ?? null }));
}

/**
 * Adds a reference, pending validation by an administrator. `handle`: the caller's transaction
 * when the reference comes with other writes (a concluded collaboration file proposed as a deal).
 */
export async function createOwnDeal(actor: MemberActor, input: DealInput, handle: Db = db): Promise<{ id: string }> {
  requireDealsEditor(actor);
  const [existing] = await handle.select({ n: count() }).from(certifiedDeals).where(eq(certifiedDeals.profileId, actor.profileId));
  if (Number(existing?.n ?? 0) >= DEAL_LIMITS.perMember) {
    throw new AppError("conflict", DEAL_MESSAGES.tooMany(DEAL_LIMITS.perMember));
  }
  invalidate("certified_deals");
  const [row] = await handle
    .insert(certifiedDeals)
    .values({
      profileId: actor.profileId,
      year: input.year,
      sector: input.sector,
      acquirerCedant: input.acquirerCedant,
      dealDescription: input.dealDescription ?? null,
      ...disclosureColumns(input, new Date()),
      status: "pending",
    })
    .returning({ id: certifiedDeals.id });
  return row;
}

/**
 * Edits a pending or rejected reference, which goes back to pending (its rejection reason and
 * any validation stamp are cleared). The status test is in the UPDATE itself, so an admin
 * validating at the same moment cannot be overwritten.
 */
export async function updateOwnDeal(actor: MemberActor, dealId: string, input: DealInput): Promise<void> {
  requireDealsEditor(actor);
  if (!UUID_PATTERN.test(dealId)) notFound();
  invalidate("certified_deals");
  const updated = await db
    .update(certifiedDeals)
    .set({
      year: input.year,
      sector: input.sector,
      acquirerCedant: input.acquirerCedant,
      dealDescription: input.dealDescription ?? null,
      ...disclosureColumns(input, new Date()),
      status: "pending",
      rejectionReason: null,
      validatedAt: null,
      validatedBy: null,
      updatedAt: new Date(),
    })
    .where(and(ownDeal(actor, dealId), ne(certifiedDeals.status, "validated")))
    .returning({ id: certifiedDeals.id });
  if (updated.length === 1) return;
  const [found] = await db.select({ status: certifiedDeals.status }).from(certifiedDeals).where(ownDeal(actor, dealId)).limit(1);
  if (!found) notFound();
  throw new AppError("conflict", DEAL_MESSAGES.validatedLocked);
}

/** Deletes one of the member's references, whatever its status. */
export async function deleteOwnDeal(actor: MemberActor, dealId: string): Promise<void> {
  requireDealsEditor(actor);
  if (!UUID_PATTERN.test(dealId)) notFound();
  invalidate("certified_deals");
  const deleted = await db.delete(certifiedDeals).where(ownDeal(actor, dealId)).returning({ id: certifiedDeals.id });
  if (deleted.length === 0) notFound();
}

// Issue 12, finding 4: the freemium limits of the specification (§6, §9), enforced. A freemium
// member sends at most 3 match requests ("opportunités") per rolling six months and creates at
// most 3 mandates; deleting a mandate or a request never gives a slot back. Premium and founding
// members are not limited.
import { count, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { mandateMatchRequests, mandates, rateLimitCounters } from "~/db/schema";
import { createMatchRequest } from "~/features/connections/connections.server";
import { getMatchingPanel } from "~/features/connections/matching-panel.server";
import { OPPORTUNITY_QUOTA_REACHED } from "~/features/mandates/mandate-rules";
import { createMandate, deleteMandate, mandateActor, QuotaReachedError, type MandateActor } from "~/features/mandates/mandates.server";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { mandateInput, sellerFields } from "./mandates-helpers";
import { expectedMessage, expectedStatus } from "~/lib/errors/http";

const t = useTestDatabase();


let seller: CreatedMember;
let sellerActor: MandateActor;
const targets: string[] = [];

async function failure(p: Promise<unknown>): Promise<{ status: number; message?: string }> {
  try {
    await p;
    return { status: 200 };
  } catch (error) {
    return { status: expectedStatus(error) ?? 500, message: expectedMessage(error, "") || undefined };
  }
}

async function requestsOf(profileId: string) {
  const [row] = await t.db!.select({ n: count() }).from(mandateMatchRequests).where(eq(mandateMatchRequests.requesterProfileId, profileId));
  return Number(row.n);
}

beforeEach(async () => {
  await t.db!.delete(rateLimitCounters);
  if (!seller) {
    seedFactories(412);
    seller = await createMember(t.db!, { profile: { membershipType: "premium" } });
    sellerActor = mandateActor(seller.profile);
    for (let i = 0; i < 6; i++) targets.push((await createMandate(sellerActor, mandateInput({ ...sellerFields, clientCode: `CED-${i}` }))).id);
  }
});

async function memberWithMandate(membershipType: "freemium" | "premium" | "founding_member") {
  const m = await createMember(t.db!, { profile: { membershipType } });
  const actor = mandateActor(m.profile);
  const own = await createMandate(actor, mandateInput({ clientCode: "ACQ-1" }));
  return { m, actor, own: own.id };
}

describe("freemium: 3 match requests per rolling six months", () => {
  it("sends three, refuses the fourth with the French message, and writes nothing for it", async () => {
    const { m, actor, own } = await memberWithMandate("freemium");
    for (let i = 0; i < 3; i++) await createMatchRequest(actor, { mandateId: own, targetMandateId: targets[i], message: null });
    expect((await getMatchingPanel(actor, own)).opportunities).toEqual({ limited: true, used: 3, limit: 3, canRequest: false });
    expect(await failure(createMatchRequest(actor, { mandateId: own, targetMandateId: targets[3], message: null }))).toEqual({
      status: 403,
      message: OPPORTUNITY_QUOTA_REACHED,
    });
    expect(await requestsOf(m.profile.id)).toBe(3);
  });

  it("a request older than six months no longer counts", async () => {
    const { actor, own, m } = await memberWithMandate("freemium");
    for (let i = 0; i < 3; i++) await createMatchRequest(actor, { mandateId: own, targetMandateId: targets[i], message: null });
    // The first of the three was sent seven months ago.
    await t.db!.execute(sql`update quota_events set created_at = now() - interval '7 months'
      where id = (select id from quota_events where profile_id = ${m.profile.id}::uuid and kind = 'match_request_sent' order by created_at limit 1)`);
    expect((await getMatchingPanel(actor, own)).opportunities.used).toBe(2);
    await createMatchRequest(actor, { mandateId: own, targetMandateId: targets[3], message: null });
  });

  it("deleting the requesting mandate (and its requests) gives no slot back", async () => {
    const { actor, own } = await memberWithMandate("freemium");
    for (let i = 0; i < 3; i++) await createMatchRequest(actor, { mandateId: own, targetMandateId: targets[i], message: null });
    await deleteMandate(actor, own);
    // A new mandate (its creation is the second of three), and a new request: still refused.
    const again = await createMandate(actor, mandateInput({ clientCode: "ACQ-2" }));
    expect((await failure(createMatchRequest(actor, { mandateId: again.id, targetMandateId: targets[4], message: null }))).status).toBe(403);
  });

  it.each(["premium", "founding_member"] as const)("%s members are not limited", async (tier) => {
    const { actor, own } = await memberWithMandate(tier);
    for (let i = 0; i < 5; i++) await createMatchRequest(actor, { mandateId: own, targetMandateId: targets[i], message: null });
    expect((await getMatchingPanel(actor, own)).opportunities).toMatchObject({ limited: false, canRequest: true });
  });
});

describe("freemium: 3 mandates created per semester, deleted ones included", () => {
  it("create three, delete one, the fourth creation is refused and nothing is saved", async () => {
    const m = await createMember(t.db!, { profile: { membershipType: "freemium" } });
    const actor = mandateActor(m.profile);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createMandate(actor, mandateInput({ clientCode: `Q-${i}` })));
    await deleteMandate(actor, made[0].id);
    await expect(createMandate(actor, mandateInput({ clientCode: "Q-4" }))).rejects.toBeInstanceOf(QuotaReachedError);
    const [left] = await t.db!.select({ n: count() }).from(mandates).where(eq(mandates.profileId, m.profile.id));
    expect(Number(left.n)).toBe(2);
  });
});

// Matching: the SQL score agrees with the pure rule, the candidate set (opposite type, active,
// not ended, not the member's own, owner still validated), ranking with the four sub-scores,
// opportunities across the member's mandates, and the alerts of owners scoring ≥ 60.
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { mailOutbox, mandates, notifications, profiles } from "~/db/schema";
import { addDaysIso, parisToday } from "~/features/mandates/mandate-rules";
import { createMandate, mandateActor, toggleMandateStatus } from "~/features/mandates/mandates.server";
import { alertMatchingOwners } from "~/features/matching/alerts.server";
import { COUNTERPART_KEYS } from "~/features/matching/counterpart.server";
import { criteriaVerdicts, matchScore, sectorsFit } from "~/features/matching/match-score";
import { candidatesQuery, listOpportunities, listPotentialMatches, maxScoreFor, rankCandidates } from "~/features/matching/matching.server";
import { queryRows } from "~/db/query.server";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import { listMyMandates } from "~/features/mandates/mandates.server";
import { loader } from "~/routes/member/mandates";
import { createMandate as insertMandate, createMember, faker, seedFactories, setEmailFrequency, type CreatedMember, type Mandate } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { useInstanceCache } from "../support/instance-cache";
import { mandateInput, runLoader, signIn, statusOf } from "./mandates-helpers";
import { caches, invalidate } from "~/lib/cache.server";

const t = useTestDatabase();
const today = parisToday();

let me: CreatedMember;
let peer: CreatedMember;
let third: CreatedMember;

const sellerBase = {
  mandateType: "seller" as const,
  searchSectors: null,
  searchTerritories: null,
  targetAmountMin: null,
  targetAmountMax: null,
  contributionMin: null,
  contributionMax: null,
};

beforeEach(async () => {
  const db = t.db!;
  await db.delete(mailOutbox);
  await db.delete(mandates);
  if (!me) {
    seedFactories(71);
    me = await createMember(db, { profile: { membershipType: "premium" } });
    peer = await createMember(db, { profile: { membershipType: "premium" } });
    third = await createMember(db, { profile: { membershipType: "freemium" } });
  }
});

function sqlSourceOf(m: Mandate) {
  return {
    id: m.id,
    profileId: m.profileId,
    mandateType: m.mandateType,
    searchSectors: m.searchSectors,
    searchTerritories: m.searchTerritories,
    targetAmountMin: m.targetAmountMin,
    targetAmountMax: m.targetAmountMax,
    contributionMin: m.contributionMin,
    contributionMax: m.contributionMax,
    companySector: m.companySector,
    companyTerritory: m.companyTerritory,
    valuationAmount: m.valuationAmount,
    requiredContributionMin: m.requiredContributionMin,
    requiredContributionMax: m.requiredContributionMax,
  };
}

describe("the SQL score is the rule of spec §9", () => {
  it("agrees with matchScore on random pairs, missing fields and 'france_entiere' included", async () => {
    seedFactories(4242);
    const pick = <T>(items: readonly T[]) => items[faker.number.int({ min: 0, max: items.length - 1 })];
    const maybe = <T>(v: T): T | null => (faker.datatype.boolean({ probability: 0.8 }) ? v : null);
    const amounts = [0, 100_000, 250_000, 500_000, 1_000_000, 2_000_000];
    const sellers: Mandate[] = [];
    for (let i = 0; i < 40; i++) {
      const lo = pick(amounts);
      sellers.push(
        await insertMandate(t.db!, peer.profile.id, {
          ...sellerBase,
          companySector: maybe(pick(["C", "G", "F"])),
          companyTerritory: maybe(pick(["75", "69", "13"])),
          valuationAmount: maybe(pick(amounts)),
          requiredContributionMin: maybe(lo),
          requiredContributionMax: maybe(lo + pick(amounts)),
        }),
      );
    }
    for (let i = 0; i < 12; i++) {
      const lo = pick(amounts);
      const clo = pick(amounts);
      const buyer = await insertMandate(t.db!, me.profile.id, {
        mandateType: "buyer",
        companySector: null,
        companyTerritory: null,
        valuationAmount: null,
        requiredContributionMin: null,
        requiredContributionMax: null,
        searchSectors: maybe(faker.helpers.arrayElements(["C", "G", "F", "Q"], { min: 1, max: 3 })),
        searchTerritories: maybe(pick([["75"], ["69", "13"], ["france"], ["france_entiere"], ["59"]])),
        targetAmountMin: maybe(lo),
        targetAmountMax: maybe(lo + pick(amounts)),
        contributionMin: maybe(clo),
        contributionMax: maybe(clo + pick(amounts)),
      });
      const ranked = await rankCandidates(sqlSourceOf(buyer), { limit: 100, minScore: 0 });
      // The sector filter on top of the score (decision 046): exactly the sellers it lets through.
      expect(ranked.map((r) => r.id).sort()).toEqual(sellers.filter((s) => sectorsFit(buyer, s)).map((s) => s.id).sort());
      for (const r of ranked) {
        const seller = sellers.find((s) => s.id === r.id)!;
        expect(r.score, `${buyer.id} × ${seller.id}`).toEqual(matchScore(buyer, seller));
        expect(r.criteria, `${buyer.id} × ${seller.id}`).toEqual(criteriaVerdicts(buyer, seller));
      }
      // And from the seller's side.
      const seller = pick(sellers);
      const fromSeller = await rankCandidates(sqlSourceOf(seller), { limit: 100, minScore: 0, excludeProfileId: peer.profile.id });
      const mine = fromSeller.find((r) => r.id === buyer.id);
      if (sectorsFit(buyer, seller)) {
        expect(mine?.score).toEqual(matchScore(buyer, seller));
        expect(mine?.criteria).toEqual(criteriaVerdicts(buyer, seller));
      } else expect(mine).toBeUndefined();
    }
  });
});

describe("the first pass over the newest candidates", () => {
  it("returns exactly the full ranking, whatever the window and the limit", async () => {
    seedFactories(977);
    const pick = <T>(items: readonly T[]) => items[faker.number.int({ min: 0, max: items.length - 1 })];
    // Few values on each side: perfect scores are common, as are ties on the total.
    for (let i = 0; i < 50; i++) {
      await insertMandate(t.db!, peer.profile.id, {
        ...sellerBase,
        companySector: pick(["C", "G", null]),
        companyTerritory: pick(["75", "69", null]),
        valuationAmount: pick([500_000, 5_000_000, null]),
        requiredContributionMin: 100_000,
        requiredContributionMax: pick([200_000, 50_000_000]),
      });
    }
    let firstPassAnswers = 0;
    for (let i = 0; i < 8; i++) {
      const buyer = await insertMandate(t.db!, me.profile.id, {
        mandateType: "buyer",
        companySector: null,
        companyTerritory: null,
        valuationAmount: null,
        requiredContributionMin: null,
        requiredContributionMax: null,
        searchSectors: pick([["C"], ["C", "G"], null]),
        searchTerritories: pick([["75"], ["france"], null]),
        targetAmountMin: 100_000,
        targetAmountMax: pick([1_000_000, null]),
        contributionMin: 150_000,
        contributionMax: pick([300_000, 60_000_000]),
      });
      const source = sqlSourceOf(buyer);
      for (const limit of [1, 3, 10, 60]) {
        const full = await queryRows<{ cp_id: string; total: number | string }>(candidatesQuery(source, { limit }));
        const perfect = await queryRows<{ cp_id: string }>(candidatesQuery(source, { limit, newestWindow: 50 }));
        if (perfect.length === limit) firstPassAnswers++;
        for (const newestWindow of [2, 10, 5000]) {
          // Both passes are one statement (issue 17: a page's statements are counted).
          const { ranked, statements } = await withRequestScope("GET", async () => ({
            ranked: await rankCandidates(source, { limit, newestWindow }),
            statements: currentRequestScope()?.queries ?? 0,
          }));
          expect(ranked.map((r) => r.id), `limit ${limit}, window ${newestWindow}`).toEqual(full.map((r) => r.cp_id));
          expect(statements).toBe(1);
        }
        // Nothing ranks above the best possible score.
        for (const r of full) expect(Number(r.total)).toBeLessThanOrEqual(maxScoreFor(source));
      }
    }
    // Both paths were taken.
    expect(firstPassAnswers).toBeGreaterThan(0);
    expect(firstPassAnswers).toBeLessThan(8 * 4);
  });

  it.each([
    [{ mandateType: "buyer", searchSectors: ["C"], searchTerritories: ["75"], targetAmountMin: 1, targetAmountMax: 2, contributionMin: 1, contributionMax: 2 }, 100],
    [{ mandateType: "buyer", searchSectors: [], searchTerritories: ["75"], targetAmountMin: 1, targetAmountMax: null, contributionMin: 1, contributionMax: 2 }, 45],
    [{ mandateType: "buyer", searchSectors: null, searchTerritories: null, targetAmountMin: null, targetAmountMax: null, contributionMin: null, contributionMax: null }, 0],
    [{ mandateType: "seller", companySector: "C", companyTerritory: null, valuationAmount: 10, requiredContributionMin: 1, requiredContributionMax: 2 }, 80],
    [{ mandateType: "seller", companySector: null, companyTerritory: "75", valuationAmount: null, requiredContributionMin: 1, requiredContributionMax: null }, 20],
  ] as const)("best possible score of %o is %i", (partial, expected) => {
    const blank = { id: "x", profileId: "y", searchSectors: null, searchTerritories: null, targetAmountMin: null, targetAmountMax: null, contributionMin: null, contributionMax: null, companySector: null, companyTerritory: null, valuationAmount: null, requiredContributionMin: null, requiredContributionMax: null };
    expect(maxScoreFor({ ...blank, ...partial } as Parameters<typeof maxScoreFor>[0])).toBe(expected);
  });
});

describe("potential matches", () => {
  it("offers only opposite, active, not-ended mandates of other validated members, best first, with the four sub-scores", async () => {
    const actor = mandateActor(me.profile);
    const { id } = await createMandate(
      actor,
      mandateInput({ searchSectors: ["C"], searchTerritories: ["75"], targetAmountMin: 500_000, targetAmountMax: 1_500_000, contributionMin: 100_000, contributionMax: 300_000 }),
    );
    const seller = (o: Record<string, unknown>) => ({
      ...sellerBase,
      companySector: "C",
      companyTerritory: "75",
      valuationAmount: 1_000_000,
      requiredContributionMin: 200_000,
      requiredContributionMax: 400_000,
      ...o,
    });
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
    const perfect = await insertMandate(t.db!, peer.profile.id, seller({ clientCode: "PERFECT", createdAt: daysAgo(1) }));
    const sectorOnly = await insertMandate(t.db!, peer.profile.id, seller({ clientCode: "SECTOR", companyTerritory: "13", valuationAmount: 5_000_000, requiredContributionMin: 900_000, requiredContributionMax: 950_000 }));
    const endsToday = await insertMandate(t.db!, third.profile.id, seller({ clientCode: "TODAY", startDate: addDaysIso(today, -30), endDate: today, createdAt: daysAgo(30) }));
    await insertMandate(t.db!, peer.profile.id, seller({ clientCode: "NOTHING", companySector: "Q", companyTerritory: "13", valuationAmount: 1, requiredContributionMin: 1, requiredContributionMax: 2 }));
    await insertMandate(t.db!, peer.profile.id, seller({ clientCode: "ENDED", startDate: addDaysIso(today, -30), endDate: addDaysIso(today, -1) }));
    await insertMandate(t.db!, peer.profile.id, seller({ clientCode: "ONHOLD", status: "on_hold" }));
    await insertMandate(t.db!, peer.profile.id, { clientCode: "BUYER", mandateType: "buyer" });
    await insertMandate(t.db!, me.profile.id, seller({ clientCode: "MINE" }));
    const suspended = await createMember(t.db!, { profile: { profileStatus: "suspended" } });
    await insertMandate(t.db!, suspended.profile.id, seller({ clientCode: "SUSPENDED" }));

    const { matches, matchable } = await listPotentialMatches(actor, id);
    expect(matchable).toBe(true);
    // Equal scores: the newest first (TODAY started, hence was created, 30 days ago).
    expect(matches.map((m) => m.clientCode)).toEqual(["PERFECT", "TODAY", "SECTOR"]);
    expect(matches[0].score).toEqual({ sector: 30, territory: 20, valuation: 25, contribution: 25, total: 100 });
    expect(matches[2].score).toEqual({ sector: 30, territory: 0, valuation: 0, contribution: 0, total: 30 });
    expect(matches[0]).toMatchObject({ id: perfect.id, owner: { profileId: peer.profile.id, firstName: peer.profile.firstName } });
    expect(matches.map((m) => m.id)).toContain(endsToday.id);
    expect(matches.map((m) => m.id)).toContain(sectorOnly.id);
    // The counterpart projection carries no client identity.
    for (const m of matches) {
      expect(Object.keys(m).sort()).toEqual([...COUNTERPART_KEYS, "criteria", "score"].sort());
      expect(JSON.stringify(m)).not.toContain(perfect.clientName);
    }
  });

  it("is empty for an on-hold or ended mandate, and a 404 for another member's", async () => {
    const actor = mandateActor(me.profile);
    await insertMandate(t.db!, peer.profile.id, { ...sellerBase, companySector: "C" });
    const { id } = await createMandate(actor, mandateInput());
    await toggleMandateStatus(actor, id);
    expect(await listPotentialMatches(actor, id)).toMatchObject({ matchable: false, matches: [] });
    const theirs = await insertMandate(t.db!, peer.profile.id);
    await expect(listPotentialMatches(actor, theirs.id)).rejects.toSatisfy((e) => statusOf(e) === 404);
  });
});

describe("opportunities", () => {
  it("ranks the best matches across the member's active mandates, each counterpart once", async () => {
    const actor = mandateActor(me.profile);
    const buyer = await createMandate(actor, mandateInput({ clientCode: "MY-B", searchSectors: ["C"], searchTerritories: ["75"] }));
    const seller = await createMandate(actor, mandateInput({ ...sellerBase, clientCode: "MY-S", companySector: "G", companyTerritory: "69" }));
    const onHold = await createMandate(actor, mandateInput({ clientCode: "MY-HOLD", searchSectors: ["F"] }));
    await toggleMandateStatus(actor, onHold.id);
    await insertMandate(t.db!, peer.profile.id, { ...sellerBase, clientCode: "S-75", companySector: "C", companyTerritory: "75", valuationAmount: null, requiredContributionMin: null, requiredContributionMax: null });
    await insertMandate(t.db!, peer.profile.id, { ...sellerBase, clientCode: "S-F", companySector: "F", companyTerritory: "13", valuationAmount: null, requiredContributionMin: null, requiredContributionMax: null });
    await insertMandate(t.db!, third.profile.id, {
      mandateType: "buyer",
      clientCode: "B-G",
      searchSectors: ["G"],
      searchTerritories: ["france"],
      targetAmountMin: null,
      targetAmountMax: null,
      contributionMin: null,
      contributionMax: null,
      companySector: null,
      companyTerritory: null,
      valuationAmount: null,
      requiredContributionMin: null,
      requiredContributionMax: null,
    });
    const own = await listMyMandates(actor);
    // Every mandate's ranking in one statement, whatever their number.
    const { list, statements } = await withRequestScope("GET", async () => ({
      list: await listOpportunities(actor, own),
      statements: currentRequestScope()?.queries ?? 0,
    }));
    expect(statements).toBe(1);
    expect(list.map((o) => [o.own.clientCode, o.match.clientCode, o.match.score.total]).sort()).toEqual([
      ["MY-B", "S-75", 50],
      ["MY-S", "B-G", 50],
    ]);
    expect(list.every((o) => o.own.id === buyer.id || o.own.id === seller.id)).toBe(true);
  });

  it("loads on the Opportunités tab", async () => {
    const b = await signIn(me);
    await createMandate(mandateActor(me.profile), mandateInput({ clientCode: "TAB" }));
    await insertMandate(t.db!, peer.profile.id, { ...sellerBase, clientCode: "TAB-S", companySector: "C", companyTerritory: "75" });
    const out = await runLoader(loader, "/mandates?onglet=opportunites", b);
    expect(out.value?.tab).toBe("opportunites");
    expect(out.value?.opportunities?.map((o) => o.match.clientCode)).toContain("TAB-S");
    const mandatesTab = await runLoader(loader, "/mandates", b);
    expect(mandatesTab.value?.opportunities).toBeNull();
  });
});

describe("rankings kept by the instance (decision 031)", () => {
  const rankings = useInstanceCache("rankings");

  const counted = <T>(run: () => Promise<T>) => withRequestScope("GET", async () => ({ value: await run(), statements: currentRequestScope()?.queries ?? 0 }));
  const codes = (list: { clientCode: string }[]) => list.map((m) => m.clientCode);

  it("answers a ranking seen before without a statement, until a mandate, a profile or a request is written", async () => {
    const actor = mandateActor(me.profile);
    const { id } = await createMandate(actor, mandateInput({ searchSectors: ["C"], searchTerritories: ["75"] }));
    await insertMandate(t.db!, peer.profile.id, { ...sellerBase, clientCode: "K-1", companySector: "C", companyTerritory: "75" });
    const own = (await listMyMandates(actor)).find((m) => m.id === id)!;
    const first = await counted(() => listPotentialMatches(actor, id, undefined, own));
    expect(first.statements).toBe(1);
    expect(codes(first.value.matches)).toEqual(["K-1"]);
    const again = await counted(() => listPotentialMatches(actor, id, undefined, own));
    expect(again.statements).toBe(0);
    expect(again.value).toEqual(first.value);

    // A new mandate (written through this instance: dropped at once, before the commit's notification).
    await insertMandate(t.db!, third.profile.id, { ...sellerBase, clientCode: "K-2", companySector: "C", companyTerritory: "13" });
    expect(codes((await counted(() => listPotentialMatches(actor, id, undefined, own))).value.matches)).toEqual(["K-1", "K-2"]);
    // Its owner suspended: gone from the ranking.
    await t.db!.update(profiles).set({ profileStatus: "suspended" }).where(eq(profiles.id, third.profile.id));
    invalidate("profiles"); // as the admin decision service does
    expect(codes((await counted(() => listPotentialMatches(actor, id, undefined, own))).value.matches)).toEqual(["K-1"]);
    await t.db!.update(profiles).set({ profileStatus: "validated" }).where(eq(profiles.id, third.profile.id));
    invalidate("profiles");
    // Another member's mandate values are another ranking.
    const other = await counted(() => listPotentialMatches(actor, id, 1, own));
    expect(other.statements).toBe(1);
    expect(rankings().hits).toBe(1);
  });

  it("shows a request sent from the opportunities at once, and counts again while the listener is down", async () => {
    const actor = mandateActor(me.profile);
    const mine = await createMandate(actor, mandateInput({ clientCode: "K-B", searchSectors: ["C"], searchTerritories: ["75"] }));
    const theirs = await insertMandate(t.db!, peer.profile.id, { ...sellerBase, clientCode: "K-S", companySector: "C", companyTerritory: "75" });
    const own = await listMyMandates(actor);
    const before = await counted(() => listOpportunities(actor, own));
    expect(before.value.map((o) => [o.match.clientCode, o.sentStatus])).toEqual([["K-S", null]]);
    expect((await counted(() => listOpportunities(actor, own))).statements).toBe(0);
    await queryRows(sql`insert into mandate_match_requests (requester_mandate_id, target_mandate_id, requester_profile_id, status) values (${mine.id}::uuid, ${theirs.id}::uuid, ${me.profile.id}::uuid, 'pending')`);
    invalidate("mandate_match_requests"); // as the connections service does
    const after = await counted(() => listOpportunities(actor, own));
    expect(after.statements).toBe(1);
    expect(after.value.map((o) => [o.match.clientCode, o.sentStatus])).toEqual([["K-S", "pending"]]);
    caches().setListening(false);
    expect((await counted(() => listOpportunities(actor, own))).statements).toBe(1);
    expect((await counted(() => listOpportunities(actor, own))).statements).toBe(1);
  });
});

describe("alerts when a mandate is created or reactivated", () => {
  it("e-mails once each owner of an opposite mandate scoring ≥ 60 who wants alerts, without client identity", async () => {
    const strong = { ...sellerBase, companySector: "C", companyTerritory: "75", valuationAmount: 500_000, requiredContributionMin: null, requiredContributionMax: null };
    await insertMandate(t.db!, peer.profile.id, { ...strong, clientCode: "PEER-1" });
    await insertMandate(t.db!, peer.profile.id, { ...strong, clientCode: "PEER-2" });
    // 50 %: not alerted.
    await insertMandate(t.db!, third.profile.id, { ...strong, clientCode: "WEAK", valuationAmount: 99_000_000 });
    const optedOut = await createMember(t.db!, { profile: { notifyMatchAlerts: false } });
    // Alerts at once for « Immédiatement »; the opted-out owner chose « Jamais », the third owner the default digest.
    await setEmailFrequency(t.db!, [peer], "immediate", ["match_alerts"]);
    await setEmailFrequency(t.db!, [optedOut], "off", ["match_alerts"]);
    await insertMandate(t.db!, optedOut.profile.id, { ...strong, clientCode: "OPTOUT" });

    const actor = mandateActor(me.profile);
    const { id } = await createMandate(actor, mandateInput({ clientName: "ALERT-SECRET-NAME", clientAddress: "ALERT-SECRET-ADDRESS" }));
    expect(await alertMatchingOwners(actor, id)).toBe(1);
    const mails = await t.db!.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: peer.email, kind: "match-alert" });
    expect(mails[0].text).toContain("PEER-1");
    expect(mails[0].text).toContain("PEER-2");
    expect(mails[0].text).toContain("/desabonnement?");
    expect(`${mails[0].subject}${mails[0].text}${mails[0].html}`).not.toMatch(/ALERT-SECRET/);
    // Under the bell, every owner hears of it, the one who turned the e-mails off too.
    const newMatches = async (m: CreatedMember) =>
      (await t.db!.select().from(notifications).where(eq(notifications.userId, m.user.id))).filter((n) => n.kind === "new_match");
    expect(await newMatches(peer)).toHaveLength(1);
    expect(await newMatches(optedOut)).toHaveLength(1);
    expect(await newMatches(third)).toHaveLength(0);

    // Put on hold and reactivated: no second e-mail for the same pair, nor a second unread notification.
    await toggleMandateStatus(actor, id);
    expect(await alertMatchingOwners(actor, id)).toBe(0);
    await toggleMandateStatus(actor, id);
    expect(await alertMatchingOwners(actor, id)).toBe(0);
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(1);
    expect(await newMatches(peer)).toHaveLength(1);
  });

  it("skips members who are not validated any more", async () => {
    const gone = await createMember(t.db!, { profile: { membershipType: "premium" } });
    await insertMandate(t.db!, gone.profile.id, { ...sellerBase, companySector: "C", companyTerritory: "75", valuationAmount: 500_000 });
    await t.db!.update(profiles).set({ profileStatus: "suspended" }).where(eq(profiles.id, gone.profile.id));
    const actor = mandateActor(me.profile);
    const { id } = await createMandate(actor, mandateInput());
    expect(await alertMatchingOwners(actor, id)).toBe(0);
  });
});

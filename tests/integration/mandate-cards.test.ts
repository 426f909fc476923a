// The figures of the 'Mes Mandats' cards (issue 15 §4): potential matches ≥ 60 % (the panel's
// candidates and score) and requests waiting, computed with the list in one statement, and the
// /mandates page within its budget of statements. Runs on PGlite and, with TEST_DATABASE_URL, on
// PostgreSQL.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { mailOutbox, mandateMatchRequests, mandates, profiles } from "~/db/schema";
import { createMatchRequest } from "~/features/connections/connections.server";
import { MATCH_COUNT_CAP } from "~/features/mandates/mandate-rules";
import { listMandateCards } from "~/features/matching/mandate-cards.server";
import { addDaysIso, parisToday } from "~/features/mandates/mandate-rules";
import { createMandate, getMyMandate, listMyMandates, mandateActor, toggleMandateStatus } from "~/features/mandates/mandates.server";
import { alertMatchingOwners } from "~/features/matching/alerts.server";
import { listCut, MATCHES_FIRST, MATCHES_PAGE_SIZE } from "~/features/matching/match-score";
import { countPotentialMatches, listOpportunities, listPotentialMatches, matchSourceOf } from "~/features/matching/matching.server";
import { getOverviewFigures } from "~/features/overview/overview.server";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import { loader } from "~/routes/member/mandates";
import { createMember, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { mandateInput, runLoader, sellerFields, signIn } from "./mandates-helpers";

const t = useTestDatabase();
const today = parisToday();

let me: CreatedMember;
let peer: CreatedMember;
let pending: CreatedMember;

beforeEach(async () => {
  const db = t.db!;
  await db.delete(mailOutbox);
  await db.delete(mandateMatchRequests);
  await db.delete(mandates);
  if (!me) {
    seedFactories(83);
    me = await createMember(db, { profile: { membershipType: "premium" } });
    peer = await createMember(db, { profile: { membershipType: "premium" } });
    pending = await createMember(db, { profile: { membershipType: "premium" } });
    await db.update(profiles).set({ profileStatus: "pending_validation" }).where(eq(profiles.id, pending.profile.id));
  }
});

const seller = (overrides: Parameters<typeof mandateInput>[0] = {}) => mandateInput({ ...sellerFields, ...overrides });

describe("card figures", () => {
  it("counts the potential matches as the panel lists them, and the requests waiting", async () => {
    const mine = mandateActor(me.profile);
    const theirs = mandateActor(peer.profile);
    // My buyer: C, Paris, 100 000 – 900 000 €.
    const buyer = await createMandate(mine, mandateInput({ clientCode: "ACQ" }));
    // Their sellers: 75 % (sector + territory + valuation), 55 % (no territory), 75 % but on hold,
    // 75 % but ended.
    const strong = await createMandate(theirs, seller({ clientCode: "S-75" }));
    await createMandate(theirs, seller({ clientCode: "S-55", companyTerritory: "13" }));
    const held = await createMandate(theirs, seller({ clientCode: "S-HOLD" }));
    await toggleMandateStatus(theirs, held.id);
    const ended = await createMandate(theirs, seller({ clientCode: "S-END" }));
    await t.db!.update(mandates).set({ startDate: addDaysIso(today, -100), endDate: addDaysIso(today, -1) }).where(eq(mandates.id, ended.id));
    // A seller of a member not (or no longer) validated, and one of my own: never counted.
    await t.db!.insert(mandates).values({ ...seller({ clientCode: "S-PENDING" }), isExclusive: true, profileId: pending.profile.id });
    const mySeller = await createMandate(mine, seller({ clientCode: "MY-SELLER" }));
    // A buyer of theirs scoring 75 % against my seller.
    await createMandate(theirs, mandateInput({ clientCode: "B-75" }));
    // My mandate on hold: not offered, so not matched.
    const myHeld = await createMandate(mine, mandateInput({ clientCode: "ACQ-HOLD" }));
    await toggleMandateStatus(mine, myHeld.id);

    // Requests: mine sent from my buyer to their strong seller (pending), theirs to my seller.
    await createMatchRequest(mine, { mandateId: buyer.id, targetMandateId: strong.id, message: null });
    const b75 = (await t.db!.select().from(mandates).where(eq(mandates.clientCode, "B-75")))[0];
    await createMatchRequest(theirs, { mandateId: b75.id, targetMandateId: mySeller.id, message: null });

    const cards = await listMandateCards(mine);
    const byCode = new Map(cards.map((c) => [c.clientCode, c]));
    expect(cards.map((c) => c.clientCode)).toEqual(["ACQ-HOLD", "MY-SELLER", "ACQ"]);
    expect(byCode.get("ACQ")).toMatchObject({ potentialMatches: 2, pendingSent: 1, pendingReceived: 0 });
    expect(byCode.get("MY-SELLER")).toMatchObject({ potentialMatches: 1, pendingSent: 0, pendingReceived: 1 });
    expect(byCode.get("ACQ-HOLD")).toMatchObject({ potentialMatches: 0, pendingSent: 0, pendingReceived: 0 });

    // The list and a single mandate say the same (a raw `${mandates.id}` once read the request's id).
    expect((await listMyMandates(mine)).find((m) => m.clientCode === "MY-SELLER")?.pendingReceived).toBe(1);
    expect((await getMyMandate(mine, mySeller.id)).pendingReceived).toBe(1);

    // The same answer as the panel's list, and as the count the panel reads when it is cut.
    for (const card of cards) {
      const panel = await listPotentialMatches(mine, card.id, 100);
      expect(panel.matches.length).toBe(card.potentialMatches);
      if (panel.matchable) expect(await countPotentialMatches(matchSourceOf(panel.mandate, me.profile.id))).toBe(card.potentialMatches);
    }
    // Another member's cards hold only their own mandates.
    expect((await listMandateCards(theirs)).every((c) => c.clientCode !== "ACQ")).toBe(true);
  });

  it("stops counting past the cap", async () => {
    const mine = mandateActor(me.profile);
    await createMandate(mine, mandateInput({ clientCode: "ACQ" }));
    const rows = Array.from({ length: MATCH_COUNT_CAP + 5 }, (_, i) => ({
      ...seller({ clientCode: `S-${i}` }),
      isExclusive: true,
      profileId: peer.profile.id,
    }));
    await t.db!.insert(mandates).values(rows);
    const [card] = await listMandateCards(mine);
    expect(card.potentialMatches).toBe(MATCH_COUNT_CAP + 1);
  });

  it("serves /mandates with the figures in at most 6 statements, whatever the number of mandates", async () => {
    const mine = mandateActor(me.profile);
    for (let i = 0; i < 5; i++) await createMandate(mine, mandateInput({ clientCode: `ACQ-${i}` }));
    await createMandate(mandateActor(peer.profile), seller({ clientCode: "S-75" }));
    const browser = await signIn(me);
    const { queries, page } = await withRequestScope("GET", async () => {
      const { value } = await runLoader(loader, "/mandates", browser);
      return { queries: currentRequestScope()?.queries ?? 0, page: value! };
    });
    expect(page.mandates).toHaveLength(5);
    expect(page.mandates.every((m) => m.potentialMatches === 1)).toBe(true);
    expect(queries).toBeLessThanOrEqual(6);
  });
});

describe("a professional can trust the matches (issue 27 §6)", () => {
  // A buyer for transport (H) and hotels (I) in Paris, 500 000 – 2 000 000 €, contribution
  // 100 000 – 300 000 €; a security company (N) in Paris fitting all the rest scores 70 %.
  const transportBuyer = (clientCode: string) =>
    mandateInput({ clientCode, searchSectors: ["H", "I"], searchTerritories: ["75"], targetAmountMin: 500_000, targetAmountMax: 2_000_000, contributionMin: 100_000, contributionMax: 300_000 });
  const sellerIn = (sector: string, clientCode: string) =>
    seller({ clientCode, companySector: sector, companyTerritory: "75", valuationAmount: 1_000_000, requiredContributionMin: 200_000, requiredContributionMax: 400_000 });

  it("offers no seller outside the buyer's sectors: not in the cards, the panels, the opportunities, the alerts or the new matches", async () => {
    const mine = mandateActor(me.profile);
    const theirs = mandateActor(peer.profile);
    const since = new Date(Date.now() - 60_000);
    const buyer = await createMandate(mine, transportBuyer("ACQ-TRANSPORT"));
    const security = await createMandate(theirs, sellerIn("N", "CED-SECURITE"));
    const hotel = await createMandate(theirs, sellerIn("I", "CED-HOTEL"));

    const [card] = await listMandateCards(mine);
    expect(card.potentialMatches).toBe(1);
    const panel = await listPotentialMatches(mine, buyer.id);
    expect(panel.matches.map((m) => m.clientCode)).toEqual(["CED-HOTEL"]);
    expect(await countPotentialMatches(matchSourceOf(panel.mandate, me.profile.id))).toBe(1);
    const opportunities = await listOpportunities(mine, await listMyMandates(mine));
    expect(opportunities.map((o) => o.match.clientCode)).toEqual(["CED-HOTEL"]);
    // From the security company's side: my buyer is not offered either.
    expect((await listPotentialMatches(theirs, security.id)).matches).toEqual([]);
    expect((await listPotentialMatches(theirs, hotel.id)).matches.map((m) => m.clientCode)).toEqual(["ACQ-TRANSPORT"]);
    // The overview's new matches and the e-mail alerts follow the same rule.
    expect((await getOverviewFigures({ profileId: me.profile.id }, since)).newMatches).toBe(1);
    await t.db!.delete(mailOutbox);
    // The alerts leave at once for a member who chose « Immédiatement » (else the digest carries them).
    await setEmailFrequency(t.db!, [me], "immediate", ["match_alerts"]);
    expect(await alertMatchingOwners(theirs, security.id)).toBe(0);
    expect(await alertMatchingOwners(theirs, hotel.id)).toBe(1);
  });

  it("says when the panel's list is cut, and « Voir les suivants » lists the next ones: the count and the list agree", async () => {
    const mine = mandateActor(me.profile);
    const buyer = await createMandate(mine, transportBuyer("ACQ-LISTE"));
    const total = MATCHES_FIRST + MATCHES_PAGE_SIZE + 11;
    await t.db!.insert(mandates).values(
      Array.from({ length: total }, (_, i) => ({ ...sellerIn(i % 2 ? "H" : "I", `S-${i}`), isExclusive: true, profileId: peer.profile.id })),
    );
    // Not offered (sector N): in no figure.
    await t.db!.insert(mandates).values({ ...sellerIn("N", "S-SECURITE"), isExclusive: true, profileId: peer.profile.id });
    const browser = await signIn(me);
    const first = (await runLoader(loader, `/mandates?matching=${buyer.id}`, browser)).value!;
    const card = first.mandates.find((m) => m.id === buyer.id)!;
    expect(card.potentialMatches).toBe(total);
    expect(first.panel?.potentialCount).toBe(total);
    expect(first.panel?.potential).toHaveLength(MATCHES_FIRST);
    expect(listCut(first.panel!.potential.length, first.panel!.potentialCount, MATCH_COUNT_CAP)).toEqual({ text: `5 premiers sur ${total}`, more: true });
    const second = (await runLoader(loader, `/mandates?matching=${buyer.id}&plus=1`, browser)).value!;
    expect(second.panel?.potential).toHaveLength(MATCHES_FIRST + MATCHES_PAGE_SIZE);
    expect(second.panel?.potential.slice(0, MATCHES_FIRST).map((m) => m.id)).toEqual(first.panel?.potential.map((m) => m.id));
    const next = (await runLoader(loader, `/mandates?matching=${buyer.id}&plus=2`, browser)).value!;
    expect(next.panel?.potential).toHaveLength(total);
    expect(next.panel?.potentialCount).toBe(total);
    expect(next.panel?.potential.slice(0, MATCHES_FIRST + MATCHES_PAGE_SIZE).map((m) => m.id)).toEqual(second.panel?.potential.map((m) => m.id));
    expect(next.panel?.potential.some((m) => m.clientCode === "S-SECURITE")).toBe(false);
  });
});

// The figures of the 'Mes Mandats' cards (issue 15 §4): potential matches ≥ 60 % (the panel's
// candidates and score) and requests waiting, computed with the list in one statement, and the
// /mandates page within its budget of statements. Runs on PGlite and, with TEST_DATABASE_URL, on
// PostgreSQL.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { mailOutbox, mandateMatchRequests, mandates, profiles } from "~/db/schema";
import { createMatchRequest } from "~/features/connections/connections.server";
import { listMandateCards, MATCH_COUNT_CAP } from "~/features/mandates/mandate-cards.server";
import { addDaysIso, parisToday } from "~/features/mandates/mandate-rules";
import { createMandate, getMyMandate, listMyMandates, mandateActor, toggleMandateStatus } from "~/features/mandates/mandates.server";
import { STRONG_MATCH } from "~/features/matching/match-score";
import { listPotentialMatches } from "~/features/matching/matching.server";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import { loader } from "~/routes/member/mandates";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
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
  it("counts the potential matches at 60 % or more as the panel ranks them, and the requests waiting", async () => {
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
    expect(byCode.get("ACQ")).toMatchObject({ strongMatches: 1, pendingSent: 1, pendingReceived: 0 });
    expect(byCode.get("MY-SELLER")).toMatchObject({ strongMatches: 1, pendingSent: 0, pendingReceived: 1 });
    expect(byCode.get("ACQ-HOLD")).toMatchObject({ strongMatches: 0, pendingSent: 0, pendingReceived: 0 });

    // The list and a single mandate say the same (a raw `${mandates.id}` once read the request's id).
    expect((await listMyMandates(mine)).find((m) => m.clientCode === "MY-SELLER")?.pendingReceived).toBe(1);
    expect((await getMyMandate(mine, mySeller.id)).pendingReceived).toBe(1);

    // The same answer as the panel's ranking.
    for (const card of cards) {
      const panel = await listPotentialMatches(mine, card.id, 100);
      expect(panel.matches.filter((m) => m.score.total >= STRONG_MATCH).length).toBe(card.strongMatches);
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
    expect(card.strongMatches).toBe(MATCH_COUNT_CAP + 1);
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
    expect(page.mandates.every((m) => m.strongMatches === 1)).toBe(true);
    expect(queries).toBeLessThanOrEqual(6);
  });
});

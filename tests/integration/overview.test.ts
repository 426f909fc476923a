// The 'Aperçu' figures (issue 15 §2): new matches ≥ 60 % since the last visit, requests waiting
// for an answer, confirmed connections waiting for the undertaking, mandates expiring within
// 30 days, unread messages, places left; in two statements, on both drivers.
import { beforeAll, describe, expect, it } from "vitest";
import { mandateMatchRequests, messages } from "~/db/schema";
import { addDaysIso, parisToday } from "~/features/mandates/mandate-rules";
import { getOverviewFigures } from "~/features/overview/overview.server";
import { notifyMatchRequestReceived } from "~/features/notifications/connection-notifications.server";
import { currentRequestScope, withRequestScope } from "~/lib/request-scope.server";
import { loader } from "~/routes/member/dashboard/overview";
import { buildMessage, createMandate, createMember, seedFactories, type CreatedMember, type Mandate } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { installCache, uninstallCaches } from "../support/instance-cache";
import { runLoader, signIn } from "./mandates-helpers";

const t = useTestDatabase();
const today = parisToday();
const since = new Date(Date.now() - 24 * 60 * 60 * 1000);
const hoursAgo = (h: number) => new Date(Date.now() - h * 60 * 60 * 1000);

const buyerCriteria = {
  mandateType: "buyer" as const,
  searchSectors: ["62"],
  searchTerritories: ["69"],
  targetAmountMin: 1_000_000,
  targetAmountMax: 2_000_000,
  contributionMin: 100_000,
  contributionMax: 300_000,
};
const noBuyerCriteria = Object.fromEntries(
  ["searchSectors", "searchTerritories", "targetAmountMin", "targetAmountMax", "contributionMin", "contributionMax"].map((k) => [k, null]),
);
const perfectSeller = {
  ...noBuyerCriteria,
  mandateType: "seller" as const,
  companySector: "62",
  companyTerritory: "69",
  valuationAmount: 1_500_000,
  requiredContributionMin: 150_000,
  requiredContributionMax: 250_000,
};

let me: CreatedMember;
let peer: CreatedMember;
let suspended: CreatedMember;
let mine: Mandate;

beforeAll(async () => {
  const db = t.db!;
  seedFactories(1515);
  me = await createMember(db, { profile: { membershipType: "premium" } });
  peer = await createMember(db, { profile: { membershipType: "freemium" } });
  suspended = await createMember(db, { profile: { profileStatus: "suspended" } });
  mine = await createMandate(db, me.profile.id, { ...buyerCriteria, endDate: addDaysIso(today, 10), createdAt: hoursAgo(100) });
});

describe("getOverviewFigures", () => {
  it("a member with nothing going on: zeros, and places left", async () => {
    const lonely = await createMember(t.db!, { profile: { membershipType: "freemium" } });
    const f = await getOverviewFigures({ profileId: lonely.profile.id }, since);
    expect(f).toMatchObject({ newMatches: 0, expiringSoon: 0, unread: 0, activeMandates: 0 });
    expect(f.foundingPlaces).toBeGreaterThan(0);
  });

  it("counts each figure, and only what is the member's", async () => {
    const db = t.db!;
    // New since the last visit and ≥ 60 %: counted once, even when it fits two of my mandates.
    const fresh = await createMandate(db, peer.profile.id, { ...perfectSeller, createdAt: hoursAgo(2) });
    await createMandate(db, me.profile.id, { ...buyerCriteria, createdAt: hoursAgo(100) });
    // Not counted: older than the visit, below 60 %, a suspended owner's, my own, on hold.
    await createMandate(db, peer.profile.id, { ...perfectSeller, createdAt: hoursAgo(48) });
    await createMandate(db, peer.profile.id, { ...perfectSeller, companySector: "10", companyTerritory: "75", createdAt: hoursAgo(1) });
    await createMandate(db, suspended.profile.id, { ...perfectSeller, createdAt: hoursAgo(1) });
    await createMandate(db, me.profile.id, { ...perfectSeller, createdAt: hoursAgo(1) });
    await createMandate(db, peer.profile.id, { ...perfectSeller, status: "on_hold", createdAt: hoursAgo(1) });

    // A request waiting for my answer, and one I answered.
    const other = await createMandate(db, peer.profile.id, { ...perfectSeller, createdAt: hoursAgo(300) });
    const [pending] = await db
      .insert(mandateMatchRequests)
      .values({ requesterMandateId: other.id, targetMandateId: mine.id, requesterProfileId: peer.profile.id, createdAt: hoursAgo(3) })
      .returning();
    // Its to-do, as the use case that creates a request writes it.
    await notifyMatchRequestReceived(db, pending.id);
    const answered = await createMandate(db, peer.profile.id, { ...perfectSeller, createdAt: hoursAgo(300) });
    await db
      .insert(mandateMatchRequests)
      .values({ requesterMandateId: answered.id, targetMandateId: mine.id, requesterProfileId: peer.profile.id, status: "rejected" });

    // Unread and read messages.
    await db.insert(messages).values([
      buildMessage({ recipientId: me.profile.id, isRead: false, createdAt: hoursAgo(5) }),
      buildMessage({ recipientId: me.profile.id, isRead: true }),
      buildMessage({ recipientId: peer.profile.id, isRead: false }),
    ]);

    const f = await getOverviewFigures({ profileId: me.profile.id }, since);
    expect(f.newMatches).toBe(1);
    expect(new Date(f.newMatchesAt!).getTime()).toBe(new Date(fresh.createdAt).getTime());
    expect(f.unread).toBe(1);
    expect(f.expiringSoon).toBe(1);
    expect(f.activeMandates).toBe(3);
    // The peer's view: none of mine.
    const theirs = await getOverviewFigures({ profileId: peer.profile.id }, since);
    expect(theirs).toMatchObject({ unread: 1 });
  });

  it("costs two statements, one when the new matches are kept (decision 031) until a mandate is written", async () => {
    const counted = () =>
      withRequestScope("GET", async () => {
        const figures = await getOverviewFigures({ profileId: me.profile.id }, since);
        return { figures, statements: currentRequestScope()!.queries };
      });
    const first = await counted();
    expect(first.statements).toBe(2);
    installCache("rankings");
    try {
      expect((await counted()).statements).toBe(2);
      const kept = await counted();
      expect(kept.statements).toBe(1);
      expect(kept.figures).toEqual(first.figures);
      // A new counterpart mandate scoring 100 shows at once.
      await createMandate(t.db!, peer.profile.id, { ...perfectSeller, createdAt: hoursAgo(1) });
      const after = await counted();
      expect(after.statements).toBe(2);
      expect(after.figures.newMatches).toBe(first.figures.newMatches + 1);
    } finally {
      uninstallCaches();
    }
  });
});

describe("the overview page", () => {
  it("the whole page (root, frame, dashboard, overview) stays within 6 statements", async () => {
    // Root: session, admin role, profile (memoised for the others); the overview: one.
    const b = await signIn(me);
    const request = new Request("http://localhost:3000/dashboard", { headers: b.headers });
    const args = { request, params: {}, context: { requestId: "test", nonce: "n" } } as never;
    const [root, shell, layout] = await Promise.all([import("~/root"), import("~/routes/member/shell"), import("~/routes/member/dashboard/layout")]);
    const count = await withRequestScope("GET", async () => {
      await Promise.all([root.loader(args), shell.loader(args), layout.loader(args), loader(args)]);
      return currentRequestScope()!.queries;
    });
    expect(count).toBeLessThanOrEqual(6);
  });

  it("renders the items newest first and records the visit in a cookie", async () => {
    const b = await signIn(me);
    const first = await runLoader(loader, "/dashboard", b);
    const body = first.value as unknown as { data: { items: { key: string }[]; completeness: { percent: number } }; init: { headers: Record<string, string> } };
    expect(body.data.items.map((i) => i.key)).toEqual(["match_request", "matches", "unread", "expiring"]);
    expect(body.data.completeness.percent).toBeGreaterThanOrEqual(0);
    const setCookie = body.init.headers["set-cookie"];
    expect(setCookie).toMatch(/^rt_apercu=.+; Max-Age=31536000; Path=\/dashboard; HttpOnly; SameSite=Lax$/);
    // A reload within the visit keeps the same starting point: the new match is still new.
    b.headers.set("cookie", `${b.headers.get("cookie")}; ${setCookie.split(";")[0]}`);
    const again = await runLoader(loader, "/dashboard", b);
    expect((again.value as unknown as typeof body).data.items.map((i) => i.key)).toContain("matches");
  });
});

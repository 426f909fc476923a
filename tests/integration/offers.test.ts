// The offers a member is shown (issue 27 §3): a premium member (no founding badge) is no longer
// pushed to the founding offer on the overview nor on /premium; a freemium member sees it until a
// payment is received; the pages quote the one set of terms (TTC, 3 years, no renewal).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments, rateLimitCounters } from "~/db/schema";
import { startFoundingCheckout } from "~/features/membership/membership.server";
import { getEnv, setEnv } from "~/lib/env.server";
import { loader as overviewLoader } from "~/routes/member/dashboard/overview";
import { loader as premiumLoader } from "~/routes/member/premium";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { bodyOf, runLoader, signIn } from "./mandates-helpers";

const t = useTestDatabase();
let freemium: CreatedMember;
let paidFreemium: CreatedMember;
let premium: CreatedMember;
let founder: CreatedMember;
const env = getEnv();

beforeAll(async () => {
  seedFactories(2701);
  freemium = await createMember(t.db!, { profile: { membershipType: "freemium" } });
  paidFreemium = await createMember(t.db!, { profile: { membershipType: "freemium" } });
  premium = await createMember(t.db!, { profile: { membershipType: "premium" } });
  founder = await createMember(t.db!, { profile: { membershipType: "founding_member" } });
  await t.db!.insert(payments).values({
    profileId: paidFreemium.profile.id,
    provider: "local",
    checkoutSessionId: `cs_offers_${paidFreemium.profile.id}`,
    status: "paid",
    amountCents: 25_000,
    currency: "eur",
    paidAt: new Date(),
  });
});

afterAll(() => setEnv(env));

type PremiumData = { plan: string; offers: string[] };
type OverviewData = { foundingOffer: boolean; founding: boolean; premium: boolean };

async function premiumPage(m: CreatedMember) {
  const { value } = await runLoader(premiumLoader as never, "/premium", await signIn(m));
  return bodyOf<PremiumData>(value);
}

async function overview(m: CreatedMember) {
  await t.db!.delete(rateLimitCounters);
  const { value } = await runLoader(overviewLoader as never, "/dashboard", await signIn(m));
  return bodyOf<OverviewData>(value);
}

describe("offers shown to members", () => {
  it.each([
    ["freemium", () => freemium, "freemium", ["founding"], true],
    ["freemium whose payment awaits activation", () => paidFreemium, "freemium", [], false],
    ["premium (no founding badge to sell him)", () => premium, "premium", [], false],
    ["founding member", () => founder, "founding_member", [], false],
  ] as const)("%s: /premium plan and offers, overview card", async (_label, who, plan, offers, overviewOffer) => {
    expect(await premiumPage(who())).toMatchObject({ plan, offers });
    expect((await overview(who())).foundingOffer).toBe(overviewOffer);
  });

  it("a premium member who still tries the checkout is told his plan includes everything (not that he is a founder)", async () => {
    const user = { id: premium.user.id, email: premium.email } as never;
    await expect(startFoundingCheckout(user)).rejects.toMatchObject({ code: "conflict", message: "Votre plan Premium inclut déjà toutes les fonctionnalités." });
  });
});

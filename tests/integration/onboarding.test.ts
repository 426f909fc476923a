import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { SessionUser } from "~/auth/session.server";
import { mailOutbox, profiles, recommendations, user } from "~/db/schema";
import {
  chooseFreeStart,
  countValidatedPaidMembers,
  getOnboardingState,
  saveDetails,
  saveProfileIdentity,
  saveSponsors,
  signCharter,
} from "~/features/onboarding/onboarding.server";
import { recommendationToken, recommendationUrl } from "~/features/recommendations/recommendation-link.server";
import { confirmRecommendation } from "~/features/recommendations/recommendations.server";
import { buildUser, createMember } from "../support/factories";
import { useTestDatabase } from "../support/db";

const t = useTestDatabase();

async function newUser(): Promise<SessionUser> {
  const values = buildUser({ emailVerified: true });
  await t.db!.insert(user).values(values);
  return { id: values.id, email: values.email, emailVerified: true, twoFactorEnabled: false };
}

const identity = { firstName: "Claire", lastName: "Fontaine", company: "Fontaine Conseil", profession: "conseil_ma" as const, college: "transmission_entreprises" as const };
const details = { experienceDescription: "Quinze ans de conseil en cession de PME industrielles.", recentOperations: "Cession d'une PME du BTP (2025).", linkedinUrl: "https://www.linkedin.com/in/claire" };
const sponsors = [
  { name: "Jean Dupont", email: "jean.dupont@cabinet.fr" },
  { name: "Marie Curie", email: "marie@etude.fr" },
];

async function profileOf(u: SessionUser) {
  const [p] = await t.db!.select().from(profiles).where(eq(profiles.userId, u.id));
  return p;
}

describe("onboarding transitions", () => {
  it("walks every step to payment_completed by the free route", async () => {
    const u = await newUser();
    expect((await getOnboardingState(u)).step).toBe("profile");

    await saveProfileIdentity(u, identity);
    let p = await profileOf(u);
    expect(p.onboardingStatus).toBe("account_created");
    expect(p.profileStatus).toBe("pending_validation");
    expect(p.searchText).toContain("fontaine conseil");
    expect((await getOnboardingState(u)).step).toBe("charter");

    await signCharter(u);
    p = await profileOf(u);
    expect(p.onboardingStatus).toBe("charter_signed");
    expect(p.charterSignedAt).toBeInstanceOf(Date);
    expect(await getOnboardingState(u)).toMatchObject({ step: "details", progress: 20 });

    await saveDetails(u, details);
    p = await profileOf(u);
    expect(p.onboardingStatus).toBe("profile_completed");
    expect(p.linkedinUrl).toBe(details.linkedinUrl);

    await saveSponsors(u, sponsors);
    p = await profileOf(u);
    expect(p.onboardingStatus).toBe("recommendations_pending");
    const recos = await t.db!.select().from(recommendations).where(eq(recommendations.profileId, p.id));
    expect(recos.map((r) => r.sponsorEmail).sort()).toEqual(["jean.dupont@cabinet.fr", "marie@etude.fr"]);
    const mails = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "sponsor-request"));
    expect(mails.map((m) => m.toAddress).sort()).toEqual(["jean.dupont@cabinet.fr", "marie@etude.fr"]);
    expect(mails[0].text).toContain(`/confirm-recommendation?profile=${p.id}`);
    expect(mails[0].text).toContain("token=");

    await chooseFreeStart(u);
    p = await profileOf(u);
    expect(p.onboardingStatus).toBe("payment_completed");
    expect(p.membershipType).toBe("freemium");
    const state = await getOnboardingState(u);
    expect(state).toMatchObject({ step: "waiting", progress: 80 });
    expect(state.sponsors).toHaveLength(2);
  });

  it("refuses steps out of order and never moves backwards", async () => {
    const u = await newUser();
    await expect(signCharter(u)).rejects.toBeDefined();
    await saveProfileIdentity(u, identity);
    await expect(saveDetails(u, details)).rejects.toBeDefined();
    await expect(chooseFreeStart(u)).rejects.toBeDefined();
    await signCharter(u);
    await saveDetails(u, details);
    await saveSponsors(u, sponsors);
    // Going back to correct the details keeps the member at the payment step.
    await saveDetails(u, { ...details, recentOperations: "Corrigé" });
    const p = await profileOf(u);
    expect(p.onboardingStatus).toBe("recommendations_pending");
    expect(p.recentOperations).toBe("Corrigé");
    await chooseFreeStart(u);
    // After payment, earlier steps are closed.
    await expect(saveDetails(u, details)).rejects.toBeDefined();
    await expect(saveSponsors(u, sponsors)).rejects.toBeDefined();
  });

  it("replacing a sponsor before payment drops the old unconfirmed one and invites the new one", async () => {
    const u = await newUser();
    await saveProfileIdentity(u, identity);
    await signCharter(u);
    await saveDetails(u, details);
    await saveSponsors(u, sponsors);
    await saveSponsors(u, [sponsors[0], { name: "Paul Neuf", email: "paul@neuf.fr" }]);
    const p = await profileOf(u);
    const recos = await t.db!.select().from(recommendations).where(eq(recommendations.profileId, p.id));
    expect(recos.map((r) => r.sponsorEmail).sort()).toEqual(["jean.dupont@cabinet.fr", "paul@neuf.fr"]);
    const jeanMails = await t.db!.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, "jean.dupont@cabinet.fr"), eq(mailOutbox.kind, "sponsor-request")));
    expect(jeanMails.filter((m) => m.text.includes(p.id))).toHaveLength(1);
  });

  it("counts validated non-freemium members for the places left", async () => {
    const before = await countValidatedPaidMembers();
    await createMember(t.db!, { profile: { profileStatus: "validated", membershipType: "founding_member" } });
    await createMember(t.db!, { profile: { profileStatus: "validated", membershipType: "freemium" } });
    await createMember(t.db!, { profile: { profileStatus: "pending_validation", membershipType: "premium" } });
    expect(await countValidatedPaidMembers()).toBe(before + 1);
  });
});

describe("sponsor confirmation link", () => {
  async function applicantWithSponsors() {
    const u = await newUser();
    await saveProfileIdentity(u, identity);
    await signCharter(u);
    await saveDetails(u, details);
    await saveSponsors(u, sponsors);
    return profileOf(u);
  }

  it("confirms once with a valid signed link, then reports already confirmed", async () => {
    const p = await applicantWithSponsors();
    const url = new URL(recommendationUrl(p.id, "marie@etude.fr"));
    const params = { profile: url.searchParams.get("profile"), email: url.searchParams.get("email"), token: url.searchParams.get("token") };
    expect(await confirmRecommendation(params)).toBe("confirmed");
    const [r1] = await t.db!.select().from(recommendations).where(and(eq(recommendations.profileId, p.id), eq(recommendations.sponsorEmail, "marie@etude.fr")));
    expect(r1.confirmedAt).toBeInstanceOf(Date);
    expect(await confirmRecommendation(params)).toBe("already-confirmed");
    const [r2] = await t.db!.select().from(recommendations).where(eq(recommendations.id, r1.id));
    expect(r2.confirmedAt!.getTime()).toBe(r1.confirmedAt!.getTime());
  });

  it.each([
    [{ profile: null, email: "marie@etude.fr", token: "x" }, "missing"],
    [{ profile: "00000000-0000-0000-0000-000000000000", email: null, token: "x" }, "missing"],
  ])("missing parameters → %s", async (params, outcome) => {
    expect(await confirmRecommendation(params)).toBe(outcome);
  });

  it("a forged or foreign token is not found and changes nothing", async () => {
    const p = await applicantWithSponsors();
    expect(await confirmRecommendation({ profile: p.id, email: "jean.dupont@cabinet.fr", token: null })).toBe("not-found");
    expect(await confirmRecommendation({ profile: p.id, email: "jean.dupont@cabinet.fr", token: "forged-token-forged-token-forged" })).toBe("not-found");
    // A valid token for another sponsor does not work for this one.
    expect(await confirmRecommendation({ profile: p.id, email: "jean.dupont@cabinet.fr", token: recommendationToken(p.id, "marie@etude.fr") })).toBe("not-found");
    // A validly signed link for an e-mail that is not a sponsor.
    expect(await confirmRecommendation({ profile: p.id, email: "x@y.fr", token: recommendationToken(p.id, "x@y.fr") })).toBe("not-found");
    const rows = await t.db!.select().from(recommendations).where(eq(recommendations.profileId, p.id));
    expect(rows.every((r) => r.confirmedAt === null)).toBe(true);
  });
});

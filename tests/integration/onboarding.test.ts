import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "~/auth/session.server";
import { mailOutbox, profiles, rateLimitCounters, recommendations, user } from "~/db/schema";
import { profileCreationSchema, sponsorsSchema } from "~/features/onboarding/onboarding.schema";
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
import { confirmRecommendation, SPONSOR_LIMIT_MESSAGE, SPONSOR_MAIL_LIMITS } from "~/features/recommendations/recommendations.server";
import { buildUser, createMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { provideVerification } from "../support/verification";
import { createDatabaseStorage } from "~/lib/storage/database-driver.server";
import { setStorage } from "~/lib/storage/storage.server";
import { expectedMessage, expectedStatus } from "~/lib/errors/http";

const t = useTestDatabase();
// Certificates of the verification step are stored in the test database, not on disk.
beforeAll(() => setStorage(createDatabaseStorage()));
afterAll(() => setStorage(undefined));

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

// The sponsors above are shared by the applicants of this file: each test starts with fresh
// sponsor-mail counters (the limits have their own tests below).
beforeEach(async () => {
  await t.db!.delete(rateLimitCounters);
});

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
    // The verification evidence step (issue 14): same 40 % as the sponsors, no status of its own.
    expect(await getOnboardingState(u)).toMatchObject({ step: "verification", progress: 40 });
    await expect(saveSponsors(u, sponsors)).rejects.toBeDefined();
    await provideVerification(u);
    expect(await getOnboardingState(u)).toMatchObject({ step: "recommendations", progress: 40 });

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
    await provideVerification(u);
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
    await provideVerification(u);
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
    await provideVerification(u);
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

describe("sponsor requests are not an e-mail relay (issue 12, finding 1)", () => {
  async function atSponsorsStep() {
    const u = await newUser();
    await saveProfileIdentity(u, identity);
    await signCharter(u);
    await saveDetails(u, details);
    await provideVerification(u);
    return u;
  }
  const sponsorMails = async () => t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "sponsor-request"));

  it("re-saving the same pair sends nothing new; only a really new sponsor is written to", async () => {
    await t.db!.delete(mailOutbox);
    const u = await atSponsorsStep();
    await saveSponsors(u, sponsors);
    await saveSponsors(u, sponsors);
    await saveSponsors(u, [...sponsors].reverse());
    expect(await sponsorMails()).toHaveLength(2);
    await saveSponsors(u, [sponsors[0], { name: "Paul Martin", email: "paul.martin@notaires.fr" }]);
    expect((await sponsorMails()).map((m) => m.toAddress).sort()).toEqual(["jean.dupont@cabinet.fr", "marie@etude.fr", "paul.martin@notaires.fr"]);
  });

  it("caps the e-mails per applicant: ten re-posts with new addresses send a handful, then a French 429", async () => {
    await t.db!.delete(mailOutbox);
    const u = await atSponsorsStep();
    const outcomes: Array<number | "ok"> = [];
    for (let i = 0; i < 10; i++) {
      const pair = [
        { name: "Parrain Un", email: `relais-${i}-a@exemple.fr` },
        { name: "Parrain Deux", email: `relais-${i}-b@exemple.fr` },
      ];
      try {
        await saveSponsors(u, pair);
        outcomes.push("ok");
      } catch (error) {
        expect(expectedMessage(error, "")).toBe(SPONSOR_LIMIT_MESSAGE);
        outcomes.push(expectedStatus(error) ?? 0);
      }
    }
    const sent = await sponsorMails();
    expect(sent.length).toBeLessThanOrEqual(SPONSOR_MAIL_LIMITS.applicantPerDay.limit);
    expect(outcomes.filter((o) => o === 429).length).toBeGreaterThanOrEqual(6);
    // The refused posts changed nothing: the last accepted pair is still there.
    const p = await profileOf(u);
    const recos = await t.db!.select().from(recommendations).where(eq(recommendations.profileId, p.id));
    expect(recos).toHaveLength(2);
  });

  it("caps the e-mails per recipient mailbox, across applicants and address spellings", async () => {
    await t.db!.delete(mailOutbox);
    const target = "victime@exemple.fr";
    const spellings = [target, "VICTIME+1@exemple.fr", "victime+2@exemple.fr", "victime+3@exemple.fr", "victime+4@exemple.fr"];
    let refused = 0;
    for (const [i, email] of spellings.entries()) {
      const u = await atSponsorsStep();
      try {
        await saveSponsors(u, [{ name: "Victime", email }, { name: "Autre Parrain", email: `autre-${i}@exemple.fr` }]);
      } catch {
        refused++;
      }
    }
    expect(refused).toBe(spellings.length - SPONSOR_MAIL_LIMITS.recipientPerDay.limit);
  });

  it("the subject is fixed, the names are only in the body, written without a gendered pronoun", async () => {
    await t.db!.delete(mailOutbox);
    const u = await atSponsorsStep();
    await saveSponsors(u, sponsors);
    const [mail] = await sponsorMails();
    expect(mail.subject).toMatch(/^Demande de recommandation sur /);
    expect(mail.subject).not.toContain("Claire");
    expect(mail.text).toContain("Claire Fontaine (Fontaine Conseil)");
    expect(mail.text).toContain("vous demande de recommander sa candidature");
    expect(mail.text).not.toMatch(/de le recommander|de la recommander/);
  });

  it.each([
    ["firstName", "Votre compte bancaire est bloqué http://evil.example/login", false],
    ["lastName", "Support www.evil.example", false],
    ["company", "Support http://evil.example/login", false],
    ["company", "Appelez le 06 12 34 56 78", false],
    ["company", "contact@evil.example", false],
    ["company", "evil.example/login", false],
    ["firstName", "x".repeat(61), false],
    ["firstName", "Marie-Hélène", true],
    ["lastName", "d'Arcy O'Neill", true],
    ["company", "Cabinet Dupont & Associés S.A.S.", true],
    ["company", "Fiducial Expertise (Lyon 2)", true],
    ["company", "Étude Maître Lefèvre, notaires", true],
  ])("identity %s = %j accepted: %s", (field, value, ok) => {
    const r = profileCreationSchema.safeParse({ ...identity, [field]: value });
    expect(r.success).toBe(ok);
    if (!r.success) expect(r.error.issues[0].message).toMatch(/^(Le prénom|Le nom|La société) /);
  });
});

describe("sponsors that are the applicant (issue 12, finding 5)", () => {
  const schema = sponsorsSchema("eve@cabinet-martin.fr");
  const form = (e1: string, e2: string) => ({ sponsor1Name: "Paul Un", sponsor1Email: e1, sponsor2Name: "Anne Deux", sponsor2Email: e2 });
  it.each([
    ["eve+s1@cabinet-martin.fr", "paul@etude.fr", "Vous ne pouvez pas vous recommander vous-même"],
    ["paul@etude.fr", "EVE+S2@cabinet-martin.fr", "Vous ne pouvez pas vous recommander vous-même"],
    ["paul@etude.fr", "PAUL+2@etude.fr", "Les deux parrains doivent être des personnes différentes"],
    ["p.aul@gmail.com", "paul+x@googlemail.com", "Les deux parrains doivent être des personnes différentes"],
  ])("%s / %s → %s", (e1, e2, message) => {
    const r = schema.safeParse(form(e1, e2));
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0].message).toBe(message);
  });

  it("two real colleagues pass", () => {
    expect(schema.safeParse(form("paul@cabinet-martin.fr", "anne@etude.fr")).success).toBe(true);
  });

  it("sponsor names are names", () => {
    const r = schema.safeParse({ ...form("paul@etude.fr", "anne@etude.fr"), sponsor1Name: "Cliquez sur http://evil.example" });
    expect(r.success).toBe(false);
  });
});

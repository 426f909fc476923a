// Verification with evidence (issue 14 §1) on the real engine: the onboarding step, the private
// certificate route, the admin checklist and its audit rows, validation with unticked steps,
// the public projection and the insurance reminders.
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "~/auth/session.server";
import { auditLog, mailOutbox, profiles, storedObjects, user, verificationChecks, verificationEvidence } from "~/db/schema";
import { DOCUMENT_MESSAGES } from "~/features/collaboration/documents-rules";
import { setVerificationCheck, getVerificationChecklist } from "~/features/admin/verification-admin.server";
import { validateProfile } from "~/features/admin/profiles-admin.server";
import { parisToday } from "~/features/mandates/mandate-rules";
import { getOnboardingState, saveDetails, saveProfileIdentity, saveVerification, signCharter } from "~/features/onboarding/onboarding.server";
import { getPublicProfile, PUBLIC_PROFILE_KEYS } from "~/features/profiles/public-profile.server";
import { verificationSchema } from "~/features/trust/verification.schema";
import { getOwnEvidence, openInsuranceCertificate, sendInsuranceReminders } from "~/features/trust/verification.server";
import { createDatabaseStorage } from "~/lib/storage/database-driver.server";
import { readObjectStream, setStorage } from "~/lib/storage/storage.server";
import { pdfBomb } from "~/lib/untrusted/pdf-test-files";
import { buildUser, buildVerificationEvidence, createApplicant, createMember, setEmailFrequency } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { certificatePdf, verificationFields, verificationInput } from "../support/verification";

const t = useTestDatabase();
beforeAll(() => setStorage(createDatabaseStorage()));
afterAll(() => setStorage(undefined));

async function applicantAtVerification(profession: "conseil_ma" | "avocat_affaires" = "avocat_affaires"): Promise<SessionUser> {
  const values = buildUser({ emailVerified: true });
  await t.db!.insert(user).values(values);
  const u = { id: values.id, email: values.email, emailVerified: true, twoFactorEnabled: false };
  await saveProfileIdentity(u, { firstName: "Inès", lastName: "Garnier", company: "Garnier Avocats", profession, college: "transmission_entreprises" });
  await signCharter(u);
  await saveDetails(u, { experienceDescription: "Vingt ans de droit des sociétés.", recentOperations: "Cession d'une PME (2025).", linkedinUrl: undefined });
  return u;
}

async function profileIdOf(u: SessionUser) {
  const [p] = await t.db!.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, u.id));
  return p.id;
}

const admin = () => createMember(t.db!, { admin: true });

describe("the onboarding step", () => {
  it("checks the SIREN key and the lawyer's bar and year with the form's schema", () => {
    const schema = verificationSchema("avocat_affaires", "2026-11-25");
    const ok = schema.safeParse(verificationFields("avocat_affaires", { insuranceEndsOn: "2027-06-30" }));
    expect(ok.success && ok.data.siren).toEqual({ typed: "732 829 320 00074", digits: "73282932000074" });
    const badKey = schema.safeParse(verificationFields("avocat_affaires", { siren: "732 829 321", insuranceEndsOn: "2027-06-30" }));
    expect(badKey.success).toBe(false);
    const noYear = schema.safeParse(verificationFields("avocat_affaires", { registrationYear: "", insuranceEndsOn: "2027-06-30" }));
    expect(noYear.error?.issues.map((i) => i.path.join("."))).toContain("registrationYear");
    const expired = schema.safeParse(verificationFields("avocat_affaires", { insuranceEndsOn: "2026-11-24" }));
    expect(expired.success).toBe(false);
  });

  it("stores digits, keeps the typed form, refuses a non-PDF certificate and opens the sponsors step", async () => {
    const u = await applicantAtVerification();
    expect(await getOnboardingState(u)).toMatchObject({ step: "verification", progress: 40 });
    const input = verificationInput("avocat_affaires");
    await expect(saveVerification(u, input, null)).rejects.toMatchObject({ code: "invalid" });
    await expect(saveVerification(u, input, { name: "attestation.pdf", bytes: new TextEncoder().encode("pas un PDF du tout") })).rejects.toMatchObject({ code: "unsupported-type" });
    expect(await t.db!.select().from(verificationEvidence)).toHaveLength(0);

    await saveVerification(u, input, { name: "attestation.pdf", bytes: await certificatePdf() });
    const [row] = await t.db!.select().from(verificationEvidence).where(eq(verificationEvidence.profileId, await profileIdOf(u)));
    expect(row).toMatchObject({ sirenTyped: "732 829 320 00074", sirenDigits: "73282932000074", registrationKind: "bar", registrationValue: "Barreau de Lyon", registrationYear: 2008 });
    expect(row.insuranceStorageKey).toMatch(/^documents\/verification\/[0-9a-f-]{36}\/[0-9a-f]{32}\.pdf$/);
    expect(await getOnboardingState(u)).toMatchObject({ step: "recommendations", progress: 40 });

    // Corrected later without a new file: the certificate stays.
    await saveVerification(u, verificationInput("avocat_affaires", { siren: "552 100 554" }), null);
    const own = await getOwnEvidence(await profileIdOf(u));
    expect(own).toMatchObject({ sirenTyped: "552 100 554", insuranceFileName: "attestation.pdf", insuranceChecked: false });
  });
});

describe("the certificate upload (issue 26)", () => {
  it("refuses a PDF bomb in French without storing anything, and is rate-limited like other applicant actions", async () => {
    const u = await applicantAtVerification();
    const input = verificationInput("avocat_affaires");
    const bomb = pdfBomb(100 * 1024 * 1024, { in: "object-stream" });
    await expect(saveVerification(u, input, { name: "attestation.pdf", bytes: bomb })).rejects.toMatchObject({
      message: DOCUMENT_MESSAGES.inflatedTooLarge,
      code: "unprocessable",
    });
    expect(DOCUMENT_MESSAGES.inflatedTooLarge).toBe("Ce PDF ne peut pas être traité\u00a0: son contenu décompressé dépasse la limite");
    expect(await t.db!.select().from(verificationEvidence).where(eq(verificationEvidence.profileId, await profileIdOf(u)))).toHaveLength(0);
    expect(await t.db!.select({ key: storedObjects.key }).from(storedObjects).where(like(storedObjects.key, `documents/verification/${await profileIdOf(u)}/%`))).toEqual([]);
    // Ten certificates an hour (the bomb was the first); the eleventh is refused before it is read.
    for (let i = 0; i < 9; i++) {
      await expect(saveVerification(u, input, { name: "attestation.pdf", bytes: new TextEncoder().encode("pas un PDF") })).rejects.toMatchObject({ code: "unsupported-type" });
    }
    await expect(saveVerification(u, input, { name: "attestation.pdf", bytes: await certificatePdf() })).rejects.toMatchObject({
      message: "Trop d’attestations envoyées en peu de temps. Veuillez réessayer plus tard.",
      code: "rate-limited",
    });
  });
});

describe("the private certificate", () => {
  it("is served to its owner and to admins, and is a 404 for another member", async () => {
    const u = await applicantAtVerification();
    await saveVerification(u, verificationInput("avocat_affaires"), { name: "attestation.pdf", bytes: await certificatePdf() });
    const profileId = await profileIdOf(u);
    const own = await openInsuranceCertificate({ profileId, isAdmin: false }, profileId);
    expect(own.contentType).toBe("application/pdf");
    const ownBytes = await readObjectStream(own.object);
    expect(ownBytes.subarray(0, 5).toString()).toBe("%PDF-");
    const other = await createMember(t.db!);
    await expect(openInsuranceCertificate({ profileId: other.profile.id, isAdmin: false }, profileId)).rejects.toMatchObject({ code: "not-found" });
    await expect(openInsuranceCertificate({ profileId: null, isAdmin: false }, profileId)).rejects.toMatchObject({ code: "not-found" });
    await expect(openInsuranceCertificate({ profileId: null, isAdmin: true }, "not-a-uuid")).rejects.toMatchObject({ code: "not-found" });
    expect(await readObjectStream((await openInsuranceCertificate({ profileId: null, isAdmin: true }, profileId)).object)).toEqual(ownBytes);
  });
});

describe("the admin checklist", () => {
  it("ticks and unticks each step with an audit row, once", async () => {
    const a = await admin();
    const applicant = await createApplicant(t.db!, { verification: "provided" });
    const id = applicant.profile.id;
    let checklist = await getVerificationChecklist(id);
    expect(checklist!.steps.map((s) => s.label)).toEqual([
      "Charte d’engagement signée",
      "Deux parrainages confirmés",
      "Identité et inscription professionnelle",
      "SIREN ou SIRET de la structure",
      "Assurance responsabilité civile professionnelle",
    ]);
    // The charter signed and the two sponsors confirmed are facts the platform records: ticked by the system.
    expect(checklist!.unchecked).toEqual(["registration", "siren", "insurance"]);
    expect(checklist!.steps.filter((s) => s.checkedBy === "system").map((s) => s.step)).toEqual(["charter", "sponsors"]);
    expect(checklist!.certificate?.url).toBe(`/justificatifs/${id}/assurance`);
    expect(checklist!.steps.find((s) => s.step === "insurance")!.evidence.join(" ")).toContain("Contrat n° RCP-");

    await setVerificationCheck(a.user, id, "siren", true);
    await setVerificationCheck(a.user, id, "siren", true);
    await setVerificationCheck(a.user, id, "charter", true);
    await setVerificationCheck(a.user, id, "charter", false);
    checklist = await getVerificationChecklist(id);
    // Unticking the admin's tick leaves the system's.
    expect(checklist!.unchecked).toEqual(["registration", "insurance"]);
    expect(checklist!.steps.find((s) => s.step === "charter")!.checkedBy).toBe("system");
    expect(checklist!.steps.find((s) => s.step === "siren")!.checkedByEmail).toBe(a.user.email);
    const audit = await t.db!.select().from(auditLog).where(and(eq(auditLog.targetId, id), like(auditLog.action, "verification.%")));
    expect(audit.map((r) => [r.action, (r.details as { step: string }).step]).sort()).toEqual([
      ["verification.check", "charter"],
      ["verification.check", "siren"],
      ["verification.uncheck", "charter"],
    ]);
    expect(audit.every((r) => r.actorUserId === a.user.id)).toBe(true);
  });

  it("validating with an unticked step needs a written reason, kept in the audit log", async () => {
    const a = await admin();
    const applicant = await createApplicant(t.db!, { verification: "provided" });
    const id = applicant.profile.id;
    for (const step of ["charter", "sponsors", "registration", "siren"] as const) await setVerificationCheck(a.user, id, step, true);
    await expect(validateProfile(a.user, id)).rejects.toMatchObject({ status: 409 });
    await expect(validateProfile(a.user, id, { reason: "   " })).rejects.toMatchObject({ status: 409 });
    const [still] = await t.db!.select({ s: profiles.profileStatus }).from(profiles).where(eq(profiles.id, id));
    expect(still.s).toBe("pending_validation");

    await validateProfile(a.user, id, { reason: "Attestation reçue par courrier, en cours de numérisation" });
    const [row] = await t.db!.select().from(auditLog).where(and(eq(auditLog.targetId, id), eq(auditLog.action, "profile.validate")));
    expect(row.details).toMatchObject({
      reason: "Attestation reçue par courrier, en cours de numérisation",
      uncheckedSteps: ["Assurance responsabilité civile professionnelle"],
    });
    const [p] = await t.db!.select().from(profiles).where(eq(profiles.id, id));
    expect(p.profileStatus).toBe("validated");
    expect(p.verificationSummary?.steps.map((s) => s.step)).toEqual(["charter", "sponsors", "registration", "siren"]);
    expect(p.insuranceValidUntil).toBeNull();
  });

  it("counts the system's ticks at validation and stores them without an author; one confirmed sponsor is not enough", async () => {
    const a = await admin();
    const applicant = await createApplicant(t.db!, { verification: "provided" });
    const id = applicant.profile.id;
    for (const step of ["registration", "siren", "insurance"] as const) await setVerificationCheck(a.user, id, step, true);
    expect((await getVerificationChecklist(id))!.unchecked).toEqual([]);
    await validateProfile(a.user, id);
    const stored = await t.db!.select().from(verificationChecks).where(eq(verificationChecks.profileId, id));
    expect(stored.filter((c) => c.checkedBy === null).map((c) => c.step).sort()).toEqual(["charter", "sponsors"]);
    const [p] = await t.db!.select().from(profiles).where(eq(profiles.id, id));
    expect(p.verificationSummary?.steps).toHaveLength(5);

    const single = await createApplicant(t.db!, { verification: "provided", confirmedRecommendations: 1 });
    const checklist = await getVerificationChecklist(single.profile.id);
    expect(checklist!.unchecked).toEqual(["sponsors", "registration", "siren", "insurance"]);
    expect(checklist!.steps.find((s) => s.step === "sponsors")!.evidence).toEqual(["1 parrainage confirmé sur 2"]);
  });

  it("validates without a reason when the five steps are ticked, and stores the mark's summary", async () => {
    const a = await admin();
    const applicant = await createApplicant(t.db!);
    await validateProfile(a.user, applicant.profile.id);
    const [p] = await t.db!.select().from(profiles).where(eq(profiles.id, applicant.profile.id));
    expect(p.verificationSummary?.steps).toHaveLength(5);
    const [e] = await t.db!.select().from(verificationEvidence).where(eq(verificationEvidence.profileId, p.id));
    expect(p.insuranceValidUntil).toBe(e.insuranceEndsOn);
  });
});

describe("the public projection", () => {
  it("carries the mark (what was checked and when) but no evidence, and drops it once the insurance expired", async () => {
    const a = await admin();
    const applicant = await createApplicant(t.db!);
    await validateProfile(a.user, applicant.profile.id);
    const [e] = await t.db!.select().from(verificationEvidence).where(eq(verificationEvidence.profileId, applicant.profile.id));
    const pub = await getPublicProfile(applicant.profile.id);
    expect(pub!.verification!.lines.map((l) => l.label)).toContain("Assurance responsabilité civile professionnelle en cours");
    expect(Object.keys(pub!).sort()).toEqual([...PUBLIC_PROFILE_KEYS].sort());
    const json = JSON.stringify(pub);
    for (const secret of [e.policyNumber, e.insurer, e.sirenDigits, e.sirenTyped, e.registrationValue, e.insuranceFileName, e.insuranceStorageKey]) {
      expect(json).not.toContain(secret);
    }
    // Past the end date: no mark at all (issue 27: the mark needs a valid insurance).
    await t.db!.update(profiles).set({ insuranceValidUntil: "2020-01-01" }).where(eq(profiles.id, applicant.profile.id));
    const later = await getPublicProfile(applicant.profile.id);
    expect(later!.verification).toBeNull();
    // A member validated before issue 14 (no summary) shows no mark.
    const older = await createMember(t.db!);
    expect((await getPublicProfile(older.profile.id))!.verification).toBeNull();
  });
});

describe("insurance reminders", () => {
  it("sends one e-mail 30 days and one 7 days before the end date, whatever the number of runs", async () => {
    const member = await createMember(t.db!);
    const other = await createMember(t.db!);
    // The e-mails go out at once for « Immédiatement » under « Compte et mandats » (otherwise the digest).
    await setEmailFrequency(t.db!, [member, other], "immediate", ["account"]);
    const today = parisToday();
    const inDays = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    await t.db!.insert(verificationEvidence).values([
      buildVerificationEvidence(member.profile, { insuranceEndsOn: inDays(30) }),
      buildVerificationEvidence(other.profile, { insuranceEndsOn: inDays(45) }),
    ]);
    // Only these two members' reminders (other tests' members have later end dates anyway).
    const reminders = async () =>
      (await t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "insurance-reminder"))).filter((m) =>
        [member.profile.id, other.profile.id].some((id) => m.dedupeKey?.includes(id)),
      );
    const keys = async () => (await reminders()).map((m) => m.dedupeKey!.replace(member.profile.id, "member").replace(other.profile.id, "other")).sort();

    await sendInsuranceReminders(today);
    await sendInsuranceReminders(today);
    await sendInsuranceReminders(inDays(1));
    let sent = await reminders();
    expect(sent).toHaveLength(1);
    expect(sent[0].toAddress).toBe(member.email);
    expect(sent[0].subject).toContain("Votre attestation d’assurance expire le");
    expect(await keys()).toEqual([`insurance-reminder:member:${inDays(30)}:30`]);

    // The other member's 30-day reminder comes on its own day (15 days from now).
    await sendInsuranceReminders(inDays(15));
    await sendInsuranceReminders(inDays(16));
    // The 7-day one, once.
    await sendInsuranceReminders(inDays(23));
    await sendInsuranceReminders(inDays(25));
    // Past the end date: nothing more.
    await sendInsuranceReminders(inDays(31));
    expect(await keys()).toEqual([
      `insurance-reminder:member:${inDays(30)}:30`,
      `insurance-reminder:member:${inDays(30)}:7`,
      `insurance-reminder:other:${inDays(45)}:30`,
    ]);
    sent = await reminders();
    // The certificate's details never reach the e-mail.
    const [e] = await t.db!.select().from(verificationEvidence).where(eq(verificationEvidence.profileId, member.profile.id));
    expect(sent.every((m) => !m.html.includes(e.policyNumber) && !m.text.includes(e.policyNumber))).toBe(true);
  });
});

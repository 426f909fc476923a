// The insurance lifecycle after validation (issue 14 §1): past its end date the member and the
// admins read "Assurance à renouveler" and the public mark drops the insurance line; the member
// sends a new certificate from /parametres/assurance (checked like every document, pending the
// team's check, recorded in the journal); the admin ticks the insurance step again (audited) and
// the public mark carries the new end date.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, profiles, rateLimitCounters, user, verificationChecks, verificationEvidence } from "~/db/schema";
import { listProfilesForAdmin } from "~/features/admin/profiles-admin.server";
import { getVerificationChecklist, setVerificationCheck } from "~/features/admin/verification-admin.server";
import { addDaysIso, parisToday } from "~/features/mandates/mandate-rules";
import { getPublicProfile } from "~/features/profiles/public-profile.server";
import { getInsuranceView } from "~/features/trust/insurance-renewal.server";
import { writeVerificationSummary } from "~/features/trust/verification.server";
import { getEnv, setEnv } from "~/lib/env.server";
import { getStorage, setStorage } from "~/lib/storage/storage.server";
import { action as renewalAction, loader as renewalLoader } from "~/routes/member/insurance-renewal";
import { createMember, makeAdmin, seedFactories, type CreatedMember } from "../support/factories";
import { checkAuditEvents } from "../support/audit";
import { useTestDatabase } from "../support/db";
import { certificatePdf, inAYear, verificationFields } from "../support/verification";
import { bodyOf, signIn, statusOf, type Browser } from "./mandates-helpers";

const t = useTestDatabase();
checkAuditEvents(t);
let dataDir: string;
let member: CreatedMember;
let newcomer: CreatedMember;
let admin: CreatedMember;
let browser: Browser;
let newcomerBrowser: Browser;

const today = parisToday();
const lastMonth = addDaysIso(today, -30);

/** A validated member whose five steps were ticked, with a certificate ending on `endsOn`. */
async function validatedWithInsurance(m: CreatedMember, endsOn: string) {
  const db = t.db!;
  const key = `documents/verification/${m.profile.id}/seed.pdf`;
  await getStorage().putObject(key, Buffer.from(await certificatePdf()), "application/pdf");
  await db.insert(verificationEvidence).values({
    profileId: m.profile.id,
    sirenTyped: "732 829 320",
    sirenDigits: "732829320",
    registrationKind: "other",
    registrationValue: "Membre de la CNCFA",
    insurer: "Ancien Assureur",
    policyNumber: "OLD-1",
    insuranceEndsOn: endsOn,
    insuranceStorageKey: key,
    insuranceFileName: "ancienne.pdf",
    insuranceContentType: "application/pdf",
    insuranceSizeBytes: 100,
    insuranceSha256: "0".repeat(64),
  });
  for (const step of ["charter", "sponsors", "registration", "siren", "insurance"]) {
    await db.insert(verificationChecks).values({ profileId: m.profile.id, step, checkedBy: admin.user.id });
  }
  await db.transaction((tx) => writeVerificationSummary(tx, m.profile.id));
}

async function profileRow(id: string) {
  const [p] = await t.db!.select().from(profiles).where(eq(profiles.id, id));
  return p;
}

function renewalRequest(b: Browser, fields: Record<string, string>, file: { name: string; bytes: Uint8Array } | null) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("certificate", new File([new Uint8Array(file.bytes)], file.name, { type: "application/pdf" }));
  return new Request("http://localhost:3000/parametres/assurance", { method: "POST", headers: b.headers, body: form });
}

async function renew(b: Browser, fields: Record<string, string>, file: { name: string; bytes: Uint8Array } | null) {
  try {
    return await renewalAction({ request: renewalRequest(b, fields, file), params: {}, context: { requestId: "test" } } as never);
  } catch (thrown) {
    return thrown;
  }
}

const FIELDS = () => ({ insurer: "Nouvel Assureur", policyNumber: "RCP-2027-7", insuranceEndsOn: inAYear() });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "rt-insurance-"));
  setEnv({ ...getEnv(), DATA_DIR: dataDir });
  setStorage(undefined);
  seedFactories(1401);
  member = await createMember(t.db!, { profile: { firstName: "Hélène", lastName: "Roux" } });
  newcomer = await createMember(t.db!);
  admin = await createMember(t.db!);
  await makeAdmin(t.db!, admin.user.id);
  await t.db!.update(user).set({ twoFactorEnabled: true }).where(eq(user.id, admin.user.id));
  await validatedWithInsurance(member, lastMonth);
  browser = await signIn(member);
  newcomerBrowser = await signIn(newcomer);
});

afterAll(() => {
  setStorage(undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await t.db!.delete(rateLimitCounters);
});

describe("insurance lifecycle", () => {
  it("past the end date: 'Assurance à renouveler' for the member and the admins, no mark in public", async () => {
    const view = await getInsuranceView(await profileRow(member.profile.id));
    expect(view.toRenew).toBe(true);
    expect(view.mark).toBeNull();
    expect(view.state).toEqual({ kind: "insurance_expired" });
    const pub = await getPublicProfile(member.profile.id);
    expect(pub?.verification).toBeNull();
    const list = await listProfilesForAdmin({ q: member.profile.lastName, statut: undefined, page: 1 } as never);
    expect(list.rows.find((r) => r.id === member.profile.id)?.insurance).toBe("to_renew");
    expect((await getVerificationChecklist(member.profile.id))?.insuranceStatus).toBe("expired");
  });

  it("refuses bad input without touching the certificate on file", async () => {
    expect(statusOf(await renew(browser, FIELDS(), null))).toBe(400);
    expect(statusOf(await renew(browser, { ...FIELDS(), insuranceEndsOn: lastMonth }, { name: "a.pdf", bytes: await certificatePdf() }))).toBe(400);
    expect(statusOf(await renew(browser, { ...FIELDS(), insurer: "" }, { name: "a.pdf", bytes: await certificatePdf() }))).toBe(400);
    expect(statusOf(await renew(browser, FIELDS(), { name: "faux.pdf", bytes: new TextEncoder().encode("pas un PDF") }))).toBe(415);
    const plain = await renewalAction({
      request: new Request("http://localhost:3000/parametres/assurance", { method: "POST", headers: browser.headers, body: new URLSearchParams({ insurer: "x" }) }),
      params: {},
      context: { requestId: "test" },
    } as never);
    expect(statusOf(plain)).toBe(400);
    const [e] = await t.db!.select().from(verificationEvidence).where(eq(verificationEvidence.profileId, member.profile.id));
    expect(e.insurer).toBe("Ancien Assureur");
  });

  it("a member without evidence is offered the whole evidence form, files it, and the team checks it (issue 27)", async () => {
    const before = await renewalLoader({ request: new Request("http://localhost:3000/parametres/assurance", { headers: newcomerBrowser.headers }), params: {}, context: {} } as never);
    expect(before.view.evidence).toBeNull();
    expect(before.view.state).toMatchObject({ kind: "incomplete" });
    // The certificate alone is not enough: SIREN and registration are asked too.
    expect(statusOf(await renew(newcomerBrowser, FIELDS(), { name: "a.pdf", bytes: await certificatePdf() }))).toBe(400);
    const outcome = await renew(newcomerBrowser, verificationFields(newcomer.profile.profession), { name: "attestation.pdf", bytes: await certificatePdf() });
    expect(statusOf(outcome)).toBe(302);
    const after = await renewalLoader({ request: new Request("http://localhost:3000/parametres/assurance", { headers: newcomerBrowser.headers }), params: {}, context: {} } as never);
    expect(after.view.evidence).toMatchObject({ insurer: "MMA", insuranceChecked: false });
    const journal = await t.db!.select().from(auditLog).where(and(eq(auditLog.action, "verification.evidence_filed"), eq(auditLog.targetId, newcomer.profile.id)));
    expect(journal).toHaveLength(1);
    expect((await getVerificationChecklist(newcomer.profile.id))?.steps.find((s) => s.step === "insurance")?.provided).toBe(true);
  });

  it("the new certificate waits for the team's check, then the admin's tick (audited) restores the public line", async () => {
    const outcome = await renew(browser, FIELDS(), { name: "attestation 2027.pdf", bytes: await certificatePdf("Nouvelle attestation") });
    expect(statusOf(outcome)).toBe(302);
    const [e] = await t.db!.select().from(verificationEvidence).where(eq(verificationEvidence.profileId, member.profile.id));
    expect(e).toMatchObject({ insurer: "Nouvel Assureur", policyNumber: "RCP-2027-7", insuranceEndsOn: inAYear(), insuranceFileName: "attestation 2027.pdf" });
    const journal = await t.db!.select().from(auditLog).where(and(eq(auditLog.action, "verification.insurance_renewed"), eq(auditLog.targetId, member.profile.id)));
    expect(journal).toHaveLength(1);
    expect(JSON.stringify(journal[0].details)).not.toContain("attestation 2027");

    const pending = await getInsuranceView(await profileRow(member.profile.id));
    expect(pending).toMatchObject({ toRenew: false, pendingCheck: true });
    const list = await listProfilesForAdmin({ q: member.profile.lastName, statut: undefined, page: 1 } as never);
    expect(list.rows.find((r) => r.id === member.profile.id)?.insurance).toBe("to_check");

    await setVerificationCheck(admin.user, member.profile.id, "insurance", true);
    const ticks = await t.db!.select().from(auditLog).where(and(eq(auditLog.action, "verification.check"), eq(auditLog.targetId, member.profile.id)));
    expect(ticks).toHaveLength(1);
    expect((await profileRow(member.profile.id)).insuranceValidUntil).toBe(inAYear());
    const checked = await getInsuranceView(await profileRow(member.profile.id));
    expect(checked).toMatchObject({ toRenew: false, pendingCheck: false });
    const pub = await getPublicProfile(member.profile.id);
    expect(pub?.verification?.lines.map((l) => l.label)).toContain("Assurance responsabilité civile professionnelle en cours");
    const after = await listProfilesForAdmin({ q: member.profile.lastName, statut: undefined, page: 1 } as never);
    expect(after.rows.find((r) => r.id === member.profile.id)?.insurance).toBeNull();
    expect(bodyOf<unknown>(outcome)).toBeInstanceOf(Response);
  });
});

describe("two members: the renewal is read for the member who filed it (issue 27)", () => {
  let peer: CreatedMember;
  let renewer: CreatedMember;
  let renewerBrowser: Browser;

  beforeAll(async () => {
    peer = await createMember(t.db!, { profile: { lastName: "Pair" } });
    renewer = await createMember(t.db!, { profile: { lastName: "Renouvelle" } });
    await validatedWithInsurance(peer, inAYear());
    await validatedWithInsurance(renewer, addDaysIso(today, 20));
    renewerBrowser = await signIn(renewer);
  });

  it("both verified before; after the renewal her own card reads 'à vérifier' like the admin list, and her public mark waits for the team", async () => {
    expect((await getPublicProfile(renewer.profile.id))?.verification).not.toBeNull();
    expect((await getInsuranceView(await profileRow(renewer.profile.id))).evidence?.insuranceChecked).toBe(true);

    expect(statusOf(await renew(renewerBrowser, FIELDS(), { name: "renouvellement.pdf", bytes: await certificatePdf() }))).toBe(302);

    const own = await getInsuranceView(await profileRow(renewer.profile.id));
    expect(own.evidence?.insuranceChecked).toBe(false);
    expect(own.pendingCheck).toBe(true);
    const list = await listProfilesForAdmin({ q: "Renouvelle", statut: undefined, page: 1 } as never);
    expect(list.rows.find((r) => r.id === renewer.profile.id)?.insurance).toBe("to_check");
    // The summary was rewritten with the renewal: no insurance step, so no public mark.
    const row = await profileRow(renewer.profile.id);
    expect(row.verificationSummary?.steps.map((s) => s.step)).not.toContain("insurance");
    expect(row.insuranceValidUntil).toBeNull();
    expect((await getPublicProfile(renewer.profile.id))?.verification).toBeNull();
    expect(own.state).toEqual({ kind: "incomplete", missing: ["insurance"] });

    // The other member is untouched.
    expect((await getInsuranceView(await profileRow(peer.profile.id))).evidence?.insuranceChecked).toBe(true);
    expect((await getPublicProfile(peer.profile.id))?.verification?.lines).toHaveLength(5);

    // The team checks the new certificate: the mark is back with the new end date.
    await setVerificationCheck(admin.user, renewer.profile.id, "insurance", true);
    expect((await profileRow(renewer.profile.id)).insuranceValidUntil).toBe(inAYear());
    expect((await getInsuranceView(await profileRow(renewer.profile.id))).evidence?.insuranceChecked).toBe(true);
    expect((await getPublicProfile(renewer.profile.id))?.verification?.lines).toHaveLength(5);
  });

  it("an expiry removes the mark the day after the end date, on every page that shows it", async () => {
    const row = await profileRow(peer.profile.id);
    const endsOn = row.insuranceValidUntil!;
    const { verificationMark } = await import("~/features/trust/verification-rules");
    expect(verificationMark(row.verificationSummary, endsOn, endsOn)).not.toBeNull();
    expect(verificationMark(row.verificationSummary, endsOn, addDaysIso(endsOn, 1))).toBeNull();
    // The stored end date is what the pages read: past it, the public profile shows no mark.
    await t.db!.update(profiles).set({ insuranceValidUntil: lastMonth }).where(eq(profiles.id, peer.profile.id));
    expect((await getPublicProfile(peer.profile.id))?.verification).toBeNull();
    expect((await getVerificationChecklist(peer.profile.id))?.mark).toEqual({ kind: "verified" });
  });
});

// Canary: a client name and address carrying unique markers must appear in no response and no
// e-mail to anyone but the mandate's owner, until the connection is confirmed (and, here, the
// counterparty has signed the confidentiality undertaking); then they appear for the
// counterparty, and still for no one else. And in no log line at all, for the whole scenario
// (logs are for operators, never for the owner), failed actions and database errors included;
// tests/system/canary-logs.test.ts repeats it against the real server at LOG_LEVEL=trace.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { mailOutbox, notifications, user, verificationEvidence } from "~/db/schema";
import { validateProfile } from "~/features/admin/profiles-admin.server";
import { getVerificationChecklist } from "~/features/admin/verification-admin.server";
import { searchDirectory } from "~/features/directory/directory.server";
import { parseDirectoryQuery } from "~/features/directory/directory.schema";
import { saveDetails, saveProfileIdentity, saveVerification, signCharter } from "~/features/onboarding/onboarding.server";
import { getPublicProfile } from "~/features/profiles/public-profile.server";
import { createDatabaseStorage } from "~/lib/storage/database-driver.server";
import { setStorage } from "~/lib/storage/storage.server";
import { loader as consultantLoader } from "~/routes/public/consultant";
import { queryRows } from "~/db/query.server";
import { postFileMessage } from "~/features/collaboration/collaboration.server";
import { openCollaborationFile } from "~/features/collaboration/file-opening.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { mediationActor, openMediation } from "~/features/mediation/mediation.server";
import { submitInsuranceRenewal } from "~/features/trust/insurance-renewal.server";
import { loader as mediationLoader } from "~/routes/member/dashboard/file/mediation";
import { loader as archiveLoader } from "~/routes/member/dashboard/file/archive";
import { loader as undertakingsLoader } from "~/routes/member/dashboard/file/undertakings";
import { collaborationFiles } from "~/db/schema";
import JSZip from "jszip";
import { loader as mediationAttachmentLoader } from "~/routes/member/mediation-attachment";
import { loader as certificateLoader } from "~/routes/member/insurance-certificate";
import { invoices, payments } from "~/db/schema";
import { saveBillingDetails } from "~/features/billing/billing.server";
import { issueInvoiceForPayment } from "~/features/billing/invoices.server";
import { loader as billingLoader } from "~/routes/member/billing";
import { loader as invoicePdfLoader } from "~/routes/member/invoice-pdf";
import { certificatePdf, inAYear } from "../support/verification";
import ExcelJS from "exceljs";
import { askQuestion, createListFromTemplate } from "~/features/due-diligence/due-diligence.server";
import { getDueDiligenceList } from "~/features/due-diligence/due-diligence-read.server";
import { loader as ddListLoader } from "~/routes/member/dashboard/file/due-diligence";
import { loader as ddItemLoader } from "~/routes/member/dashboard/file/due-diligence-item";
import { loader as ddExportLoader } from "~/routes/member/dashboard/file/due-diligence-export";
import { verificationInput } from "../support/verification";
import type * as LoggerModule from "~/lib/logger.server";
import { MANDATE_MESSAGES } from "~/features/mandates/mandate-rules";
import { createMandate, mandateActor } from "~/features/mandates/mandates.server";
import { loader as overviewLoader } from "~/routes/member/dashboard/overview";
import { loader as statsLoader } from "~/routes/member/dashboard/stats";
import { loader as notificationsLoader } from "~/routes/member/dashboard/notifications";
import { loader as messagesLoader } from "~/routes/member/dashboard/messages";
import { loader as conversationLoader } from "~/routes/member/dashboard/conversation";
import { action, loader } from "~/routes/member/mandates";
import { buildUser, createApplicant, createMember, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { type Browser, bodyOf, mandateInput, runAction, runLoader, signIn, statusOf } from "./mandates-helpers";

// Every line the app logs during this file, at the most verbose level, through the app's own
// logger configuration (serializers, redaction): only the destination and the level differ.
const logLines = vi.hoisted(() => [] as string[]);
vi.mock("~/lib/logger.server", async (importOriginal) => {
  const real = await importOriginal<typeof LoggerModule>();
  return { ...real, logger: real.createLogger({ level: "trace", destination: { write: (line: string) => void logLines.push(line) } }) };
});

const t = useTestDatabase();

const NAME = `CANARY-NAME-${randomBytes(6).toString("hex")}`;
const ADDRESS = `CANARY-ADDR-${randomBytes(6).toString("hex")}`;

let owner: CreatedMember;
let partner: CreatedMember;
let stranger: CreatedMember;
let ownerB: Browser;
let partnerB: Browser;
let strangerB: Browser;
let secret: string; // the owner's mandate (seller)
let partnerMandate: string; // buyer
let strangerMandate: string; // buyer

beforeAll(async () => {
  seedFactories(91);
  const db = t.db!;
  owner = await createMember(db, { profile: { membershipType: "premium" } });
  partner = await createMember(db, { profile: { membershipType: "premium" } });
  stranger = await createMember(db, { profile: { membershipType: "freemium" } });
  // Every e-mail at once, so that the probe reads them all (not a digest's titles).
  await setEmailFrequency(db, [owner, partner, stranger], "immediate");
  const seller = {
    mandateType: "seller" as const,
    searchSectors: null,
    searchTerritories: null,
    targetAmountMin: null,
    targetAmountMax: null,
    companySector: "C",
    companyTerritory: "75",
    valuationAmount: 600_000,
    description: "Entreprise industrielle",
  };
  secret = (await createMandate(mandateActor(owner.profile), mandateInput({ ...seller, clientCode: "CAN-S", clientName: NAME, clientAddress: ADDRESS }))).id;
  partnerMandate = (await createMandate(mandateActor(partner.profile), mandateInput({ clientCode: "CAN-B1" }))).id;
  strangerMandate = (await createMandate(mandateActor(stranger.profile), mandateInput({ clientCode: "CAN-B2" }))).id;
  ownerB = await signIn(owner);
  partnerB = await signIn(partner);
  strangerB = await signIn(stranger);
});

/** Everything a member can load about mandates, serialised. */
async function everythingSeenBy(b: Browser, own: string): Promise<string> {
  const paths = [
    "/mandates",
    "/mandates?onglet=opportunites",
    "/mandates?nouveau=1",
    `/mandates?modifier=${own}`,
    `/mandates?matching=${own}`,
    `/mandates?matching=${own}&demande=${secret}`,
    `/mandates?onglet=opportunites&mandat=${own}&demande=${secret}`,
    `/mandates?details=${secret}`,
    `/mandates?modifier=${secret}`,
    `/mandates?matching=${secret}`,
  ];
  const seen: unknown[] = [];
  for (const path of paths) seen.push(await runLoader(loader, path, b));
  seen.push(await runLoader(statsLoader, "/dashboard/stats", b));
  seen.push(await runLoader(overviewLoader, "/dashboard", b));
  seen.push(await runLoader(notificationsLoader, "/dashboard/notifications", b));
  // « Messages » (issue 31 §3): the list, and every conversation on it (a file's thread included).
  const conversations = await runLoader(messagesLoader, "/dashboard/messages", b);
  seen.push(conversations);
  for (const item of conversations.value?.items ?? []) {
    seen.push(await runLoader(conversationLoader, `/dashboard/messages/${item.key}`, b, { conversationId: item.key }));
  }
  return JSON.stringify(seen, (_k, v: unknown) => (v instanceof Error ? v.message : v));
}

async function mailsNotTo(email: string): Promise<string> {
  const rows = await t.db!.select().from(mailOutbox);
  return JSON.stringify(rows.filter((r) => r.toAddress !== email));
}

async function expectSecretHiddenFrom(b: Browser, own: string) {
  const seen = await everythingSeenBy(b, own);
  expect(seen).not.toContain(NAME);
  expect(seen).not.toContain(ADDRESS);
}

async function expectNoMailLeak() {
  const mails = await mailsNotTo(owner.email);
  expect(mails).not.toContain(NAME);
  expect(mails).not.toContain(ADDRESS);
  // Notifications (issue 15 §3) carry client codes only, the owner's own included.
  const notes = JSON.stringify(await t.db!.select().from(notifications));
  expect(notes).not.toContain(NAME);
  expect(notes).not.toContain(ADDRESS);
}

describe("canary: the client's identity stays with its owner until the connection is confirmed", () => {
  it("the owner sees it (the probe works)", async () => {
    const seen = await everythingSeenBy(ownerB, secret);
    expect(seen).toContain(NAME);
    expect(seen).toContain(ADDRESS);
  });

  it("nobody else sees it while the connection is being made, then only the counterparty", async () => {
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await expectSecretHiddenFrom(strangerB, strangerMandate);

    // The partner and the stranger both ask for a connection.
    for (const [b, own] of [
      [partnerB, partnerMandate],
      [strangerB, strangerMandate],
    ] as const) {
      const out = await runAction(action, "/mandates", b, { intent: "request", mandateId: own, targetMandateId: secret, message: "Bonjour" });
      expect(out.thrown).toBeUndefined();
    }
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await expectNoMailLeak();

    // The owner accepts the partner's request and proposes back; the stranger's stays pending.
    const ownerPanel = (await runLoader(loader, `/mandates?matching=${secret}`, ownerB)).value!.panel!;
    const fromPartner = ownerPanel.relations.find((r) => r.counterpart.id === partnerMandate)!.received!;
    await runAction(action, "/mandates", ownerB, { intent: "accept", requestId: fromPartner.id });
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await runAction(action, "/mandates", ownerB, { intent: "propose", mandateId: secret, targetMandateId: partnerMandate });
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await expectSecretHiddenFrom(strangerB, strangerMandate);
    await expectNoMailLeak();

    // The partner accepts the proposal: the connection is confirmed (e-mails exchanged)…
    const partnerPanel = (await runLoader(loader, `/mandates?matching=${partnerMandate}`, partnerB)).value!.panel!;
    const proposal = partnerPanel.relations.find((r) => r.counterpart.id === secret)!.received!;
    await runAction(action, "/mandates", partnerB, { intent: "accept", requestId: proposal.id });
    const confirmed = (await runLoader(loader, `/mandates?matching=${partnerMandate}`, partnerB)).value!.panel!;
    expect(confirmed.relations.find((r) => r.counterpart.id === secret)?.confirmed).toBe(true);
    // …but the identity waits for the partner's confidentiality undertaking, in « Messages » too:
    // the file's thread is a conversation of both (the probe: the message shows there).
    const [file] = await queryRows<{ id: string }>(sql`select id from collaboration_files where mandate_a_id = ${secret}::uuid or mandate_b_id = ${secret}::uuid`);
    await postFileMessage(fileActor(partner.profile), file.id, "Bonjour, où en est votre client\u00a0?");
    expect(await everythingSeenBy(ownerB, secret)).toContain("où en est votre client");
    await expectSecretHiddenFrom(partnerB, partnerMandate);
    await expectNoMailLeak();

    await runAction(action, "/mandates", partnerB, { intent: "sign-undertaking", requestId: proposal.id, accept: "on" });
    const after = await everythingSeenBy(partnerB, partnerMandate);
    expect(after).toContain(NAME);
    expect(after).toContain(ADDRESS);
    const revealed = (await runLoader(loader, `/mandates?matching=${partnerMandate}`, partnerB)).value!.panel!;
    expect(revealed.relations.find((r) => r.counterpart.id === secret)?.client).toEqual({ name: NAME, address: ADDRESS });

    // Still nothing for the stranger, nor in any e-mail.
    await expectSecretHiddenFrom(strangerB, strangerMandate);
    await expectNoMailLeak();
    expect((await t.db!.select().from(mailOutbox)).length).toBeGreaterThanOrEqual(4);
    // The probe of the notifications works: the partner's list shows the confirmation.
    expect(JSON.stringify(await runLoader(notificationsLoader, "/dashboard/notifications", partnerB))).toContain("Mise en relation confirmée");
  });
});

describe("canary: failed actions carrying the identity", () => {
  // A database that refuses a row (what a constraint, a lock timeout or an outage does): the
  // failing statement's values are the client's identity.
  const FAIL = "CANARY-FAIL";
  const mandateForm = (overrides: Record<string, string> = {}) => ({
    intent: "create",
    mandateType: "seller",
    isExclusive: "on",
    startDate: mandateInput().startDate,
    endDate: mandateInput().endDate,
    clientCode: "CAN-F",
    clientName: NAME,
    clientAddress: ADDRESS,
    companySector: "C",
    companyTerritory: "75",
    valuationAmount: "600 000",
    ...overrides,
  });

  it("answers 4xx/5xx in French and logs no part of the identity", async () => {
    await t.db!.execute(
      sql.raw(`create or replace function canary_refuse() returns trigger language plpgsql as $$
        begin
          if new.client_name like '%${FAIL}%' then raise exception 'simulated storage failure'; end if;
          return new;
        end $$`),
    );
    await t.db!.execute(sql.raw(`create trigger canary_refuse before insert or update on mandates for each row execute function canary_refuse()`));
    try {
      const cases: Array<[string, Browser, Record<string, string>, number]> = [
        // Invalid input next to the identity (end before start, no exclusivity, bad amount).
        ["invalid dates", ownerB, mandateForm({ endDate: "2000-01-01" }), 400],
        ["no exclusivity", ownerB, mandateForm({ isExclusive: "" }), 400],
        ["negative amount", ownerB, mandateForm({ valuationAmount: "-1" }), 400],
        ["identity too long", ownerB, mandateForm({ clientName: `${NAME} ${"x".repeat(300)}` }), 400],
        // The database refuses the row.
        ["storage failure on create", ownerB, mandateForm({ clientName: `${NAME} ${FAIL}` }), 500],
        ["storage failure on update", ownerB, mandateForm({ intent: "update", mandateId: secret, clientName: `${NAME} ${FAIL}` }), 500],
        // Someone else's mandate.
        ["another member's mandate", strangerB, mandateForm({ intent: "update", mandateId: secret }), 404],
      ];
      for (const [label, b, fields, status] of cases) {
        const out = await runAction(action, "/mandates", b, fields);
        expect({ label, status: statusOf(out.thrown ?? out.value) }).toEqual({ label, status });
        const result = status === 404 ? undefined : bodyOf<{ result: { error?: Record<string, string[] | null> } }>(out.value).result;
        if (status === 400) expect(Object.keys(result?.error ?? {}).length, label).toBeGreaterThan(0);
        if (status === 500) expect(result?.error?.[""]?.[0], label).toContain(MANDATE_MESSAGES.saveFailed);
      }
    } finally {
      await t.db!.execute(sql.raw(`drop trigger if exists canary_refuse on mandates`));
    }
    // Nothing was stored, the secret mandate is unchanged.
    const seen = await everythingSeenBy(ownerB, secret);
    expect(seen).not.toContain(FAIL);
  });

  it("no log line of the whole scenario carries the identity", () => {
    const all = logLines.join("");
    // The probe: the failures were logged.
    expect(all).toContain("mandate save failed");
    expect(all).toContain("simulated storage failure");
    expect(all).not.toContain(NAME);
    expect(all).not.toContain(ADDRESS);
  });
});

describe("canary: the insurance certificate stays private (issue 14)", () => {
  const INSURER = `CANARY-INSURER-${randomBytes(6).toString("hex")}`;
  const POLICY = `CANARY-POLICY-${randomBytes(6).toString("hex")}`;
  const FILE = `CANARY-FILE-${randomBytes(6).toString("hex")}`;

  it("no public page, directory row or log line carries the certificate's name, insurer or policy number", async () => {
    setStorage(createDatabaseStorage());
    try {
      const db = t.db!;
      const admin = await createMember(db, { admin: true });
      const member = await createApplicant(db, { verification: "checked", profile: { membershipType: "premium" } });
      await db
        .update(verificationEvidence)
        .set({ insurer: INSURER, policyNumber: POLICY, insuranceFileName: `${FILE}.pdf` })
        .where(eq(verificationEvidence.profileId, member.profile.id));
      await validateProfile(admin.user, member.profile.id);
      // The admin's checklist shows them (the probe works).
      expect(JSON.stringify(await getVerificationChecklist(member.profile.id))).toContain(POLICY);

      // A refused upload named with the marker (not a PDF), and a refused form next to it.
      const values = buildUser({ emailVerified: true });
      await db.insert(user).values(values);
      const applicant = { id: values.id, email: values.email, emailVerified: true, twoFactorEnabled: false };
      await saveProfileIdentity(applicant, { firstName: "Anne", lastName: "Canari", company: "Canari Conseil", profession: "conseil_ma", college: "transmission_entreprises" });
      await signCharter(applicant);
      await saveDetails(applicant, { experienceDescription: "Douze ans.", recentOperations: "Une cession.", linkedinUrl: undefined });
      await expect(
        saveVerification(applicant, verificationInput("conseil_ma", { insurer: INSURER, policyNumber: POLICY }), { name: `${FILE}.pdf`, bytes: new TextEncoder().encode(POLICY) }),
      ).rejects.toMatchObject({ code: "unsupported-type" });

      const pub = await getPublicProfile(member.profile.id);
      expect(pub?.verification?.lines.length).toBe(5);
      const slug = pub!.slug;
      const anonymous = { headers: new Headers() };
      const page = await consultantLoader({ request: new Request(`http://localhost:3000/consultant/${slug}`, { headers: anonymous.headers }), params: { slug }, context: { requestId: "test" } } as never);
      const directory = await searchDirectory(parseDirectoryQuery(new URLSearchParams({ q: member.profile.lastName })));
      const seen = JSON.stringify([pub, page, directory]);
      for (const marker of [INSURER, POLICY, FILE]) expect(seen).not.toContain(marker);
      const all = logLines.join("");
      for (const marker of [INSURER, POLICY, FILE]) expect(all).not.toContain(marker);
    } finally {
      setStorage(undefined);
    }
  });
});

// A PDF read as a person reads it: pdftotext (poppler-utils) extracts its text, where a byte
// search would miss a name in a compressed or re-encoded content stream.
function pdfText(bytes: Uint8Array): string {
  const run = spawnSync("pdftotext", ["-enc", "UTF-8", "-", "-"], { input: Buffer.from(bytes), encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.replace(/\s+/g, " ");
}

describe("canary: the sealed undertakings PDF and the closing archive carry no client identity not revealed (issue 32)", () => {
  const CLIENT = `CANARY-ARCHIVE-CLIENT-${randomBytes(6).toString("hex")}`;

  it("neither member, before signing the undertaking, finds the other's client in them", async () => {
    setStorage(createDatabaseStorage());
    try {
      const db = t.db!;
      const a = await createMember(db, { profile: { membershipType: "premium" } });
      const b = await createMember(db, { profile: { membershipType: "premium" } });
      const mineId = (await createMandate(mandateActor(a.profile), mandateInput({ clientCode: "ARC-A" }))).id;
      const theirsId = (
        await createMandate(
          mandateActor(b.profile),
          mandateInput({ mandateType: "seller", searchSectors: null, searchTerritories: null, targetAmountMin: null, targetAmountMax: null, companySector: "C", companyTerritory: "69", valuationAmount: 900_000, description: "Industrie", clientCode: "ARC-B", clientName: CLIENT, clientAddress: "2 rue du Canari" }),
        )
      ).id;
      const fileId = await db.transaction((tx) => openCollaborationFile(tx, mineId, theirsId));
      await db.update(collaborationFiles).set({ stage: "concluded" }).where(eq(collaborationFiles.id, fileId));
      const aBrowser = await signIn(a);
      const call = async (loader: typeof archiveLoader | typeof undertakingsLoader, pathName: string) =>
        (await loader({ request: new Request(`http://localhost:3000/dashboard/dossiers/${fileId}/${pathName}`, { headers: aBrowser.headers }), params: { fileId }, context: { requestId: "test" } } as never)) as Response;
      const pdf = await call(undertakingsLoader, "engagements");
      expect(pdf.status).toBe(200);
      const pdfBytes = new Uint8Array(await pdf.arrayBuffer());
      expect(Buffer.from(pdfBytes).toString("latin1")).not.toContain(CLIENT);
      const text = pdfText(pdfBytes);
      expect(text).toContain("Engagements de confidentialité");
      expect(text).not.toContain(CLIENT);
      const archive = await call(archiveLoader, "archive");
      expect(archive.status).toBe(200);
      const zip = await JSZip.loadAsync(new Uint8Array(await archive.arrayBuffer()));
      const names = Object.keys(zip.files);
      expect(names).toContain("historique/historique.json");
      for (const name of names) {
        const bytes = await zip.file(name)!.async("uint8array");
        expect(Buffer.from(bytes).toString("latin1"), name).not.toContain(CLIENT);
        if (name.endsWith(".pdf")) expect(pdfText(bytes), name).not.toContain(CLIENT);
      }
      expect(logLines.join("")).not.toContain(CLIENT);
    } finally {
      setStorage(undefined);
    }
  });
});

describe("canary: mediation attachments and a renewed insurance certificate stay private (issue 14)", () => {
  const ATTACHMENT = `CANARY-PIECE-${randomBytes(6).toString("hex")}`;
  const CLIENT = `CANARY-MEDIATION-CLIENT-${randomBytes(6).toString("hex")}`;
  const INSURER = `CANARY-RENEWED-INSURER-${randomBytes(6).toString("hex")}`;
  const POLICY = `CANARYRENEWEDPOLICY${randomBytes(6).toString("hex")}`;
  const CERTIFICATE = `CANARY-RENEWED-FILE-${randomBytes(6).toString("hex")}`;

  it("a mediation attachment is for its author and the team only; the e-mails carry neither it nor the client", async () => {
    setStorage(createDatabaseStorage());
    try {
      const db = t.db!;
      const a = await createMember(db, { profile: { membershipType: "premium" } });
      const b = await createMember(db, { profile: { membershipType: "premium", notifyMessages: true } });
      await setEmailFrequency(db, [a, b], "immediate");
      const mineId = (await createMandate(mandateActor(a.profile), mandateInput({ clientCode: "MED-A" }))).id;
      const theirsId = (
        await createMandate(
          mandateActor(b.profile),
          mandateInput({ mandateType: "seller", searchSectors: null, searchTerritories: null, targetAmountMin: null, targetAmountMax: null, companySector: "C", companyTerritory: "69", valuationAmount: 900_000, description: "Industrie", clientCode: "MED-B", clientName: CLIENT, clientAddress: "1 rue du Canari" }),
        )
      ).id;
      const fileId = await db.transaction((tx) => openCollaborationFile(tx, mineId, theirsId));
      await openMediation(mediationActor(a.user, a.profile), fileId, { subject: "Un différend", facts: "Des faits datés, suffisamment détaillés." }, [
        { name: `${ATTACHMENT}.pdf`, bytes: await certificatePdf(ATTACHMENT) },
      ]);
      const [row] = await queryRows<{ id: string }>(sql`select a.id from mediation_attachments a join mediations m on m.id = a.mediation_id where m.file_id = ${fileId}::uuid`, db);
      const bBrowser = await signIn(b);
      const aBrowser = await signIn(a);
      const page = async (br: Browser) => JSON.stringify(await mediationLoader({ request: new Request(`http://localhost:3000/dashboard/dossiers/${fileId}/mediation`, { headers: br.headers }), params: { fileId }, context: { requestId: "test" } } as never));
      const piece = async (headers: Headers) => {
        try {
          return await mediationAttachmentLoader({ request: new Request(`http://localhost:3000/mediations/pieces/${row.id}`, { headers }), params: { attachmentId: row.id }, context: { requestId: "test" } } as never);
        } catch (thrown) {
          return thrown;
        }
      };
      // The probe works: the author sees it listed and opens it.
      expect(await page(aBrowser)).toContain(ATTACHMENT);
      expect(statusOf(await piece(aBrowser.headers))).toBe(200);
      // The other member of the file, a stranger, a visitor: nothing.
      expect(await page(bBrowser)).not.toContain(ATTACHMENT);
      expect(statusOf(await piece(bBrowser.headers))).toBe(404);
      expect(statusOf(await piece(strangerB.headers))).toBe(404);
      expect(statusOf(await piece(new Headers()))).toBe(302);
      const mails = JSON.stringify(await db.select().from(mailOutbox));
      for (const marker of [ATTACHMENT, CLIENT]) expect(mails).not.toContain(marker);
      for (const marker of [ATTACHMENT, CLIENT]) expect(logLines.join("")).not.toContain(marker);
    } finally {
      setStorage(undefined);
    }
  });

  it("a renewed certificate's name, insurer and policy number reach no other member, no public page and no log line", async () => {
    setStorage(createDatabaseStorage());
    try {
      const db = t.db!;
      const admin = await createMember(db, { admin: true });
      const member = await createApplicant(db, { verification: "checked", profile: { membershipType: "premium" } });
      await validateProfile(admin.user, member.profile.id);
      await submitInsuranceRenewal({ userId: member.user.id, profileId: member.profile.id }, { insurer: INSURER, policyNumber: POLICY, insuranceEndsOn: inAYear() }, { name: `${CERTIFICATE}.pdf`, bytes: await certificatePdf(CERTIFICATE) });
      expect(JSON.stringify(await getVerificationChecklist(member.profile.id))).toContain(POLICY);
      const pub = await getPublicProfile(member.profile.id);
      const slug = pub!.slug;
      const publicPage = await consultantLoader({ request: new Request(`http://localhost:3000/consultant/${slug}`), params: { slug }, context: { requestId: "test" } } as never);
      const directory = await searchDirectory(parseDirectoryQuery(new URLSearchParams({ q: member.profile.lastName })));
      const seen = JSON.stringify([pub, publicPage, directory]);
      for (const marker of [INSURER, POLICY, CERTIFICATE]) expect(seen).not.toContain(marker);
      const certificate = await certificateLoader({ request: new Request(`http://localhost:3000/justificatifs/${member.profile.id}/assurance`, { headers: strangerB.headers }), params: { profileId: member.profile.id }, context: { requestId: "test" } } as never);
      expect(certificate.status).toBe(404);
      for (const marker of [INSURER, POLICY, CERTIFICATE]) expect(logLines.join("")).not.toContain(marker);
    } finally {
      setStorage(undefined);
    }
  });
});

describe("canary: billing details and invoices stay with their member (issue 27 §4)", () => {
  it("the billing address reaches the member's own page and invoice only: no other member, no public page, no log line", async () => {
    const db = t.db!;
    const BILLING = `CANARY-BILL-${randomBytes(6).toString("hex")}`;
    const member = await createMember(db, { profile: { membershipType: "founding_member" } });
    const memberB = await signIn(member);
    await saveBillingDetails({ profileId: member.profile.id }, { company: `${BILLING} SARL`, address: `${BILLING} rue des Lilas, 75011 Paris`, siren: null });
    const [payment] = await db
      .insert(payments)
      .values({ profileId: member.profile.id, provider: "local", checkoutSessionId: `local_${BILLING}`, status: "paid", amountCents: 25_000, paidAt: new Date() })
      .returning({ id: payments.id });
    const issued = await db.transaction((tx) => issueInvoiceForPayment(tx, payment.id));
    const [row] = await db.select().from(invoices).where(eq(invoices.id, issued!.id));
    expect(row!.buyerAddress).toContain(BILLING);
    // The probe works: the member sees it.
    const own = await runLoader(billingLoader as never, "/parametres/facturation", memberB);
    expect(JSON.stringify(own.value)).toContain(BILLING);
    const download = (b: Browser) =>
      invoicePdfLoader({ request: new Request(`http://localhost:3000/parametres/facturation/${issued!.id}`, { headers: b.headers }), params: { invoiceId: issued!.id }, context: { requestId: "test" } } as never);
    expect((await download(memberB)).status).toBe(200);
    // Nobody else: the stranger's billing page, the invoice's URL, the public profile and directory.
    const theirs = await runLoader(billingLoader as never, "/parametres/facturation", strangerB);
    const refused = await download(strangerB);
    expect(refused.status).toBe(404);
    const pub = await getPublicProfile(member.profile.id);
    const directory = await searchDirectory(parseDirectoryQuery(new URLSearchParams({ q: member.profile.lastName })));
    const seen = JSON.stringify([theirs, await refused.text(), pub, directory]);
    expect(seen).not.toContain(BILLING);
    expect(logLines.join("")).not.toContain(BILLING);
  });
});

describe("canary: the due-diligence list (issue 32 §3) carries no client and keeps one side's questions to that side", () => {
  const CLIENT = `CANARY-DD-CLIENT-${randomBytes(6).toString("hex")}`;
  const ADDR = `CANARY-DD-ADDR-${randomBytes(6).toString("hex")}`;
  const SIDE_ONLY = `CANARY-DD-SELLER-NOTE-${randomBytes(6).toString("hex")}`;

  it("the buyer's adviser, a stranger, the exports, notifications, e-mails and logs never show the client or the seller's side-only question", async () => {
    const db = t.db!;
    const seller = await createMember(db, { profile: { membershipType: "premium", notifyMessages: true } });
    const buyer = await createMember(db, { profile: { membershipType: "premium", notifyMessages: true } });
    await setEmailFrequency(db, [seller, buyer], "immediate");
    const sellerMandate = (
      await createMandate(
        mandateActor(seller.profile),
        mandateInput({ mandateType: "seller", searchSectors: null, searchTerritories: null, targetAmountMin: null, targetAmountMax: null, companySector: "C", companyTerritory: "69", valuationAmount: 900_000, description: "Industrie", clientCode: "DD-S", clientName: CLIENT, clientAddress: ADDR }),
      )
    ).id;
    const buyerMandate = (await createMandate(mandateActor(buyer.profile), mandateInput({ clientCode: "DD-B" }))).id;
    const fileId = await db.transaction((tx) => openCollaborationFile(tx, buyerMandate, sellerMandate));
    const s = fileActor(seller.profile);
    const bActor = fileActor(buyer.profile);
    await createListFromTemplate(bActor, fileId, "titres");
    const itemId = (await getDueDiligenceList(s, fileId)).items[0]!.id;
    await askQuestion(s, fileId, itemId, { documentId: null, visibility: "cedant", body: SIDE_ONLY });
    await askQuestion(bActor, fileId, itemId, { documentId: null, visibility: "commun", body: "Question commune" });
    const sellerB = await signIn(seller);
    const buyerB = await signIn(buyer);
    const seenBy = async (br: Browser): Promise<string> => {
      const args = (path: string, params: Record<string, string>) => ({ request: new Request(`http://localhost:3000${path}`, { headers: br.headers }), params, context: { requestId: "test" } }) as never;
      const out: unknown[] = [];
      for (const run of [
        () => ddListLoader(args(`/dashboard/dossiers/${fileId}/diligences`, { fileId })),
        () => ddItemLoader(args(`/dashboard/dossiers/${fileId}/diligences/${itemId}`, { fileId, requestId: itemId })),
      ]) {
        try {
          out.push(await run());
        } catch (thrown) {
          out.push(statusOf(thrown));
        }
      }
      const xlsx = (await ddExportLoader(args(`/dashboard/dossiers/${fileId}/diligences/export?format=xlsx`, { fileId }))) as Response;
      if (xlsx.status === 200) {
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
        book.eachSheet((sheet) => sheet.eachRow((row) => out.push(row.values)));
      } else out.push(xlsx.status);
      // The PDF is drawn from the same export rows as the workbook (its streams are compressed).
      out.push((await ddExportLoader(args(`/dashboard/dossiers/${fileId}/diligences/export?format=pdf`, { fileId })) as Response).status);
      return JSON.stringify(out);
    };
    // The probe: the seller's side sees its own note.
    const sellerSees = await seenBy(sellerB);
    expect(sellerSees).toContain(SIDE_ONLY);
    const buyerSees = await seenBy(buyerB);
    expect(buyerSees).toContain("Question commune");
    expect(buyerSees).toContain("Questions ouvertes");
    const strangerSees = await seenBy(strangerB);
    expect(strangerSees).not.toContain("Question commune");
    for (const marker of [CLIENT, ADDR]) {
      expect(sellerSees).not.toContain(marker);
      expect(buyerSees).not.toContain(marker);
    }
    expect(buyerSees).not.toContain(SIDE_ONLY);
    expect(strangerSees).not.toContain(SIDE_ONLY);
    const notes = JSON.stringify(await db.select().from(notifications));
    const mails = JSON.stringify(await db.select().from(mailOutbox));
    for (const marker of [CLIENT, ADDR, SIDE_ONLY]) {
      expect(notes).not.toContain(marker);
      expect(mails).not.toContain(marker);
      expect(logLines.join("")).not.toContain(marker);
    }
  });
});

describe("canary: a guest of a file sees no client before their undertaking (issue 32)", () => {
  it("the invitation, the guest's pages and e-mails carry no client until the guest signs; then the file shows it", async () => {
    const { inviteParticipant } = await import("~/features/collaboration/participant-invitations.server");
    const { action: invitationAction, loader: invitationLoader } = await import("~/routes/public/invitation");
    const { action: participantsAction } = await import("~/routes/member/dashboard/file/participants");
    const { action: sharedFileAction, loader: sharedFileLoader } = await import("~/routes/shared/file");
    const { loader: sharedFilesLoader } = await import("~/routes/shared/files");
    const seller = { mandateType: "seller" as const, searchSectors: null, searchTerritories: null, targetAmountMin: null, targetAmountMax: null, companySector: "C", companyTerritory: "75", valuationAmount: 600_000, description: "Entreprise industrielle" };
    const mine = (await createMandate(mandateActor(owner.profile), mandateInput({ ...seller, clientCode: "CAN-S9", clientName: NAME, clientAddress: ADDRESS }))).id;
    const theirs = (await createMandate(mandateActor(partner.profile), mandateInput({ clientCode: "CAN-B9" }))).id;
    const fileId = await t.db!.transaction((tx) => openCollaborationFile(tx, mine, theirs));
    const email = "canari.invite@example.org";
    const logsBefore = logLines.length;
    const { token } = await inviteParticipant(owner.user.id, fileId, { email, role: "avocat", side: "acquereur", rights: { voir: true, telecharger: true, deposer: false } });
    const post = (b: Browser | null, path: string, fields: Record<string, string>) =>
      new Request(`http://localhost:3000${path}`, { method: "POST", headers: new Headers(b?.headers ?? { "x-rt-client-ip": "203.0.113.8" }), body: new URLSearchParams(fields) });
    const run = async (fn: (args: never) => Promise<unknown>, request: Request, params: Record<string, string>) => {
      try {
        return await fn({ request, params, context: { requestId: "canary" } } as never);
      } catch (thrown) {
        return thrown;
      }
    };
    const seen: unknown[] = [await run(invitationLoader, new Request(`http://localhost:3000/invitation/${token}`), { token })];
    const password = "canari-invite-2026";
    seen.push(await run(invitationAction, post(null, `/invitation/${token}`, { intent: "sign-up", firstName: "Invité", lastName: "Canari", password, confirmPassword: password }), { token }));
    await t.db!.update(user).set({ emailVerified: true }).where(eq(user.email, email));
    const guestB = await signIn({ email, password } as CreatedMember);
    seen.push(await run(invitationAction, post(guestB, `/invitation/${token}`, { intent: "accept" }), { token }));
    const [row] = await queryRows<{ id: string }>(sql`select id from collaboration_participants where file_id = ${fileId}::uuid`);
    seen.push(await run(sharedFileLoader, new Request(`http://localhost:3000/dossiers-partages/${fileId}`, { headers: guestB.headers }), { fileId }));
    await run(participantsAction, post(partnerB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId: row.id }), { fileId });
    seen.push(await run(sharedFileLoader, new Request(`http://localhost:3000/dossiers-partages/${fileId}`, { headers: guestB.headers }), { fileId }));
    seen.push(await run(sharedFilesLoader, new Request("http://localhost:3000/dossiers-partages", { headers: guestB.headers }), {}));
    // The due-diligence list, a request and the archive, approved but before the undertaking: refused, nothing of the file.
    const { loader: sharedDdLoader } = await import("~/routes/shared/due-diligence");
    const { loader: sharedDdItemLoader } = await import("~/routes/shared/due-diligence-item");
    const { loader: sharedArchiveLoader } = await import("~/routes/shared/archive");
    const early = [
      await run(sharedDdLoader, new Request(`http://localhost:3000/dossiers-partages/${fileId}/diligences`, { headers: guestB.headers }), { fileId }),
      await run(sharedDdItemLoader, new Request(`http://localhost:3000/dossiers-partages/${fileId}/diligences/${row.id}`, { headers: guestB.headers }), { fileId, requestId: row.id }),
      await run(sharedArchiveLoader, new Request(`http://localhost:3000/dossiers-partages/${fileId}/archive`, { headers: guestB.headers }), { fileId }),
    ];
    expect(early.map((e) => (e instanceof Response ? e.status : (e as { init?: { status?: number } }).init?.status))).toEqual([403, 403, 403]);
    seen.push(...early);
    const before = JSON.stringify(seen, (_k, v: unknown) => (v instanceof Error ? v.message : v instanceof Response ? `${v.status} ${v.headers.get("location") ?? ""}` : v));
    expect(before).not.toContain(NAME);
    expect(before).not.toContain(ADDRESS);
    const mails = JSON.stringify(await t.db!.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)));
    expect(mails).not.toContain(NAME);
    expect(mails).not.toContain(ADDRESS);

    // The probe works: once signed, the guest sees the seller's client.
    await run(sharedFileAction, post(guestB, `/dossiers-partages/${fileId}`, { intent: "undertaking" }), { fileId });
    const after = JSON.stringify(await run(sharedFileLoader, new Request(`http://localhost:3000/dossiers-partages/${fileId}`, { headers: guestB.headers }), { fileId }));
    expect(after).toContain(NAME);
    expect(logLines.slice(logsBefore).join("\n")).not.toContain(NAME);
  });
});

describe("canary: the PDFs a guest reaches show no client before their undertaking, read with pdftotext (issue 32)", () => {

  it("the undertakings PDF never carries the client; the guest's document and archive carry it only once the guest has signed", async () => {
    const { PDFDocument, StandardFonts } = await import("pdf-lib");
    const { shareDocument } = await import("~/features/collaboration/documents.server");
    const { inviteParticipant } = await import("~/features/collaboration/participant-invitations.server");
    const { action: invitationAction } = await import("~/routes/public/invitation");
    const { action: participantsAction } = await import("~/routes/member/dashboard/file/participants");
    const { action: sharedFileAction } = await import("~/routes/shared/file");
    const { loader: sharedDocumentLoader } = await import("~/routes/shared/document");
    const { loader: sharedArchiveLoader } = await import("~/routes/shared/archive");
    setStorage(createDatabaseStorage());
    try {
      const seller = { mandateType: "seller" as const, searchSectors: null, searchTerritories: null, targetAmountMin: null, targetAmountMax: null, companySector: "C", companyTerritory: "75", valuationAmount: 650_000, description: "Entreprise industrielle" };
      const mine = (await createMandate(mandateActor(owner.profile), mandateInput({ ...seller, clientCode: "PDF-S1", clientName: NAME, clientAddress: ADDRESS }))).id;
      const theirs = (await createMandate(mandateActor(partner.profile), mandateInput({ clientCode: "PDF-B1" }))).id;
      const fileId = await t.db!.transaction((tx) => openCollaborationFile(tx, mine, theirs));
      const logsBefore = logLines.length;

      // A document of the seller's founder naming the client: what a guest may read after signing only.
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      doc.addPage([595, 842]).drawText(`Bilan 2025 de ${NAME}`, { x: 50, y: 780, size: 12, font });
      const { documentId } = await shareDocument(fileActor(owner.profile), fileId, { name: "bilan-2025.pdf", bytes: await doc.save() });

      const email = "canari.pdf@example.org";
      const { token } = await inviteParticipant(owner.user.id, fileId, { email, role: "banque", side: "acquereur", rights: { voir: true, telecharger: true, deposer: false } });
      const post = (b: Browser | null, path: string, fields: Record<string, string>) =>
        new Request(`http://localhost:3000${path}`, { method: "POST", headers: new Headers(b?.headers ?? { "x-rt-client-ip": "203.0.113.9" }), body: new URLSearchParams(fields) });
      const run = async (fn: (args: never) => Promise<unknown>, request: Request, params: Record<string, string>) => {
        try {
          return await fn({ request, params, context: { requestId: "canary" } } as never);
        } catch (thrown) {
          return thrown;
        }
      };
      const password = "canari-pdf-2026";
      await run(invitationAction, post(null, `/invitation/${token}`, { intent: "sign-up", firstName: "Banque", lastName: "Canari", password, confirmPassword: password }), { token });
      await t.db!.update(user).set({ emailVerified: true }).where(eq(user.email, email));
      const guestB = await signIn({ email, password } as CreatedMember);
      await run(invitationAction, post(guestB, `/invitation/${token}`, { intent: "accept" }), { token });
      const [row] = await queryRows<{ id: string }>(sql`select id from collaboration_participants where file_id = ${fileId}::uuid`);
      await run(participantsAction, post(partnerB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId: row.id }), { fileId });

      const undertakings = async () => {
        const res = (await run(undertakingsLoader, new Request(`http://localhost:3000/dashboard/dossiers/${fileId}/engagements`, { headers: partnerB.headers }), { fileId })) as Response;
        expect(res.status).toBe(200);
        return pdfText(new Uint8Array(await res.arrayBuffer()));
      };
      const documentOf = () => run(sharedDocumentLoader, new Request(`http://localhost:3000/dossiers-partages/${fileId}/documents/${documentId}?mode=download`, { headers: guestB.headers }), { fileId, documentId });
      const archiveOf = () => run(sharedArchiveLoader, new Request(`http://localhost:3000/dossiers-partages/${fileId}/archive`, { headers: guestB.headers }), { fileId });
      const statusOfOutcome = (o: unknown) => (o instanceof Response ? o.status : ((o as { init?: { status?: number } }).init?.status ?? 200));

      // Approved, before the undertaking: the undertakings PDF is readable and names no client;
      // the document and the archive are refused, so no PDF of the file reaches the guest.
      const beforeText = await undertakings();
      expect(beforeText).toContain("Engagements de confidentialité");
      expect(beforeText).not.toContain("Banque Canari");
      expect(beforeText).not.toContain(NAME);
      expect(beforeText).not.toContain(ADDRESS);
      expect(statusOfOutcome(await documentOf())).toBe(403);
      const [{ stage }] = await t.db!.select({ stage: collaborationFiles.stage }).from(collaborationFiles).where(eq(collaborationFiles.id, fileId));
      await t.db!.update(collaborationFiles).set({ stage: "concluded" }).where(eq(collaborationFiles.id, fileId));
      const early = await archiveOf();
      expect(statusOfOutcome(early)).toBe(403);
      expect(early instanceof Response ? await early.text() : JSON.stringify(early)).not.toContain(NAME);
      await t.db!.update(collaborationFiles).set({ stage }).where(eq(collaborationFiles.id, fileId));

      // Signed: the guest's undertaking is in the PDF, still without the client; the probe works —
      // pdftotext finds the client in the watermarked document and in the archive's copy.
      expect(statusOfOutcome(await run(sharedFileAction, post(guestB, `/dossiers-partages/${fileId}`, { intent: "undertaking" }), { fileId }))).toBe(302);
      const afterText = await undertakings();
      expect(afterText).toContain("Banque Canari (intervenant du dossier)");
      expect(afterText).not.toContain(NAME);
      expect(afterText).not.toContain(ADDRESS);
      const opened = (await documentOf()) as Response;
      expect(opened.status).toBe(200);
      expect(pdfText(new Uint8Array(await opened.arrayBuffer()))).toContain(NAME);
      await t.db!.update(collaborationFiles).set({ stage: "concluded" }).where(eq(collaborationFiles.id, fileId));
      const archive = (await archiveOf()) as Response;
      expect(archive.status).toBe(200);
      const zip = await JSZip.loadAsync(new Uint8Array(await archive.arrayBuffer()));
      const pdfs = Object.keys(zip.files).filter((name) => name.endsWith(".pdf"));
      const texts = Object.fromEntries(await Promise.all(pdfs.map(async (name) => [name, pdfText(await zip.file(name)!.async("uint8array"))] as const)));
      expect(Object.entries(texts).filter(([, text]) => text.includes(NAME)).map(([name]) => name)).toEqual(["documents/bilan-2025/v1-bilan-2025.pdf"]);
      expect(logLines.slice(logsBefore).join("\n")).not.toContain(NAME);
    } finally {
      setStorage(undefined);
    }
  });
});

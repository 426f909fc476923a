// The fee-sharing agreement and the evidence export of a collaboration file (issue 13, items 5
// and 6): versions (a new one cancels the unsigned previous one), both signatures with their
// audit trail, the sealed PDF with its certificate page and its hash, forged posts (another file,
// another member, signing twice, an outdated version, a wrong password, rate limited), two-factor
// codes (once each), survival of an account deletion, and the export (two members only, dated,
// hashed, the client's name only as the reveal allows).
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { decodePDFRawStream, PDFDocument, PDFRawStream } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { collaborationEvents, collaborationFiles, feeAgreements, feeAgreementSignatures, mailOutbox, verificationEvidence } from "~/db/schema";
import { eraseAccount } from "~/features/account/account-deletion.server";
import { buildDataExport } from "~/routes/member/settings-export.server";
import { confirmTwoFactorEnrolment, getTwoFactorState, startTwoFactorEnrolment } from "~/features/account/two-factor.server";
import { AGREEMENT_MESSAGES, agreementPdfUrl, agreementPreviewUrl, agreementUrl, evidenceUrl } from "~/features/collaboration/agreement-rules";
import type { AgreementInput } from "~/features/collaboration/agreement.schema";
import { getAgreementPage } from "~/features/collaboration/agreements.server";
import { createAgreement } from "~/features/collaboration/agreement-versions.server";
import { signAgreement } from "~/features/collaboration/agreement-signing.server";
import { openAgreementPdf } from "~/features/collaboration/agreement-seal.server";
import { abandonFile, moveStage } from "~/features/collaboration/collaboration.server";
import { getFileHeader, getFileView } from "~/features/collaboration/file-view.server";
import { listMyFiles } from "~/features/collaboration/file-list.server";
import { openCollaborationFile, recordUndertakingInFile } from "~/features/collaboration/file-opening.server";
import { exportEvidence } from "~/features/collaboration/evidence.server";
import { fileActor, type FileActor } from "~/features/collaboration/file-access.server";
import { getStorage, readObjectStream } from "~/lib/storage/storage.server";
import { loader as agreementPdfLoader } from "~/routes/member/dashboard/file/agreement-pdf";
import { action as agreementPreviewAction } from "~/routes/member/dashboard/file/agreement-preview";
import { action as agreementAction, loader as agreementLoader } from "~/routes/member/dashboard/file/agreement";
import { loader as evidenceLoader } from "~/routes/member/dashboard/file/evidence";
import { loader as undertakingsLoader } from "~/routes/member/dashboard/file/undertakings";
import { loader as archiveLoader } from "~/routes/member/dashboard/file/archive";
import { askQuestion, createListFromTemplate } from "~/features/due-diligence/due-diligence.server";
import { getDueDiligenceList } from "~/features/due-diligence/due-diligence-read.server";
import JSZip from "jszip";
import { getEnv, setEnv } from "~/lib/env.server";
import { collaborationDocuments } from "~/db/schema";
import { buildVerificationEvidence, createMandate as createFactoryMandate, createMember, makeAdmin, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { secretFromOtpauthUri, unusedTotpCode } from "../support/totp";
import { call, openFileBetween, type Outcome, outcomeStatus as status, useFileTestEnvironment, checkTimelineEvents } from "./file-helpers";
import { bodyOf, locationOf, signIn, statusOf, toastOf, type Browser } from "./mandates-helpers";

const t = useTestDatabase();
checkTimelineEvents(t);
const CLIENT_CANARY = "Canari Confidentiel SAS";
const UA = "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0";

useFileTestEnvironment(t, "agreements", { BETTER_AUTH_SECRET: "test-secret-for-agreement-tests-0123456789abcdef" });

let alice: CreatedMember;
let bob: CreatedMember;
let carol: CreatedMember;
let admin: CreatedMember;
let a: FileActor;
let b: FileActor;
let c: FileActor;
let aliceBrowser: Browser;
let bobBrowser: Browser;
let carolBrowser: Browser;
let adminBrowser: Browser;

beforeAll(async () => {
  seedFactories(514);
  const db = t.db!;
  alice = await createMember(db, {
    profile: { firstName: "Alice", lastName: "Lemaire", company: "Cabinet Lemaire", membershipType: "premium", profession: "conseil_cession_commerce", notifyMatchRequests: true },
  });
  bob = await createMember(db, {
    profile: { firstName: "Jeanne", lastName: "Martin", company: "Martin Avocats", membershipType: "premium", profession: "avocat_affaires", notifyMatchRequests: true },
  });
  carol = await createMember(db, { profile: { membershipType: "premium" } });
  admin = await createMember(db, { profile: { membershipType: "premium" } });
  await setEmailFrequency(db, [alice, bob], "immediate");
  await makeAdmin(db, admin.user.id);
  a = fileActor(alice.profile);
  b = fileActor(bob.profile);
  c = fileActor(carol.profile);
  aliceBrowser = await signIn(alice);
  bobBrowser = await signIn(bob);
  carolBrowser = await signIn(carol);
  adminBrowser = await signIn(admin);
  for (const br of [aliceBrowser, bobBrowser, carolBrowser, adminBrowser]) br.headers.set("user-agent", UA);
});

/** A fresh file between Alice (buyer) and Bob (seller, whose client is the canary). */
async function newFile(first: CreatedMember = alice, second: CreatedMember = bob): Promise<{ fileId: string; buyer: string; seller: string }> {
  return openFileBetween(t.db!, first, second, { buyer: "Acheteur Alice SAS", seller: CLIENT_CANARY });
}

const TERMS: AgreementInput = {
  operationType: "fonds_de_commerce",
  sellerAdviser: "them",
  amountBand: null,
  myShare: 60,
  theirShare: 40,
  payer: "me",
  dueTerm: "deed",
  clauses: "Diligences : recherche et audit.",
  myCompany: "Cabinet Lemaire",
  myLegalForm: "SAS",
  mySiren: "412 356 784",
  myAddress: "12 rue de la Paix, 75002 Paris",
  myCapacity: "Présidente",
  theirCompany: "Martin Avocats",
  theirLegalForm: "SELARL",
  theirSiren: "832 154 769",
  theirAddress: "3 quai des Orfèvres, 69002 Lyon",
  theirCapacity: "Gérante",
};

const FIRM_FIELDS = {
  myCompany: TERMS.myCompany,
  myLegalForm: TERMS.myLegalForm,
  mySiren: TERMS.mySiren,
  myAddress: TERMS.myAddress,
  myCapacity: TERMS.myCapacity,
  theirCompany: TERMS.theirCompany,
  theirLegalForm: TERMS.theirLegalForm,
  theirSiren: TERMS.theirSiren,
  theirAddress: TERMS.theirAddress,
  theirCapacity: TERMS.theirCapacity,
};
const context = { ipAddress: "203.0.113.9", userAgent: UA };

// --- calling the routes like React Router does ----------------------------------------------

const post = (browser: Browser, fileId: string, fields: Record<string, string>) =>
  call(agreementAction, new Request(`http://localhost:3000${agreementUrl(fileId)}`, { method: "POST", headers: browser.headers, body: new URLSearchParams(fields) }), {
    fileId,
  });

const errorOf = (o: Outcome) => bodyOf<{ error?: string }>(o.value).error;

const createFields = { intent: "create", operationType: "fonds_de_commerce", sellerAdviser: "them", myShare: "60", theirShare: "40", payer: "me", dueTerm: "deed", clauses: "", ...FIRM_FIELDS };

async function current(fileId: string, actor: FileActor = a) {
  const page = await getAgreementPage(actor, fileId);
  if (!page.current) throw new Error("no current agreement");
  return page.current;
}

const signFields = (agreement: { id: string; documentSha256: string }, password: string) => ({
  intent: "sign",
  agreementId: agreement.id,
  documentSha256: agreement.documentSha256,
  consent: "on",
  password,
});

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function eventsOf(fileId: string, kind: string) {
  return t.db!.select().from(collaborationEvents).where(and(eq(collaborationEvents.fileId, fileId), eq(collaborationEvents.kind, kind)));
}

// WinAnsi (Windows-1252) differs from Latin-1 in 0x80–0x9F.
const WIN_ANSI_HIGH: Record<number, string> = { 0x80: "€", 0x85: "…", 0x91: "‘", 0x92: "’", 0x93: "“", 0x94: "”", 0x96: "–", 0x97: "—", 0x9c: "œ", 0x8c: "Œ" };

/**
 * The text drawn on the pages of a PDF (content streams decoded, hex strings read as WinAnsi), its
 * wrapped lines joined by one space.
 */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  let out = "";
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const content = Buffer.from(decodePDFRawStream(object).decode()).toString("latin1");
    for (const m of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) out += `${[...Buffer.from(m[1], "hex")].map((ch) => WIN_ANSI_HIGH[ch] ?? String.fromCharCode(ch)).join("")}\n`;
  }
  return out.replace(/\s+/g, " ");
}

/** The text poppler's pdftotext reads (null where it is not installed): a second, independent reader. */
function popplerText(bytes: Uint8Array): string | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rt-pdftotext-"));
  try {
    const file = path.join(dir, "in.pdf");
    writeFileSync(file, bytes);
    return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Alice proposes, both sign through the route: the sealed agreement. */
async function signedAgreement(fileId: string) {
  expect(status(await post(aliceBrowser, fileId, createFields))).toBe(302);
  const pending = await current(fileId);
  expect(status(await post(aliceBrowser, fileId, signFields(pending, alice.password)))).toBe(302);
  expect(status(await post(bobBrowser, fileId, signFields(pending, bob.password)))).toBe(302);
  return { pending, signed: await current(fileId) };
}

// ---------------------------------------------------------------------------------------------

describe("proposing", () => {
  it("creates version 1 from the form: a stored PDF whose SHA-256 is recorded, a timeline event, an e-mail without the client", async () => {
    const { fileId } = await newFile();
    const out = await post(aliceBrowser, fileId, createFields);
    expect(status(out)).toBe(302);
    expect(locationOf(out.value)).toBe(agreementUrl(fileId));
    expect(await toastOf(out.value)).toMatchObject({ type: "success", title: AGREEMENT_MESSAGES.created, description: "Version 1" });
    const [row] = await t.db!.select().from(feeAgreements).where(eq(feeAgreements.fileId, fileId));
    expect(row).toMatchObject({ version: 1, status: "pending", createdBy: alice.profile.id, signedKey: null });
    expect(row.documentKey).toMatch(new RegExp(`^documents/${fileId}/agreement-v-[0-9a-f]{24}\\.pdf$`));
    const stored = await getStorage().getObject(row.documentKey);
    expect(sha(stored!.bytes)).toBe(row.documentSha256);
    const pdf = await PDFDocument.load(stored!.bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
    const text = await pdfText(stored!.bytes);
    expect(text).toContain("Convention de partage d’honoraires");
    // Side "a" of a file is the mandate with the smaller id: either order.
    expect(text).toMatch(/Alice Lemaire : 60 % ; Jeanne Martin : 40 %|Jeanne Martin : 40 % ; Alice Lemaire : 60 %/);
    expect(text).toContain("Alice Lemaire perçoit les honoraires auprès de son mandant et reverse à Jeanne Martin sa part, soit 40 %");
    expect(text).toContain("loi Hoguet");
    // Bob is a lawyer: the warning of RIN art. 11.3 is in the agreement.
    expect(text).toContain("art. 11.3");
    expect(text).not.toContain(CLIENT_CANARY);
    // Each party identified as a contract needs it; the fees, the law, the mediation first.
    expect(text).toContain("Cabinet Lemaire, SAS, SIREN 412 356 784, dont le siège ou le cabinet est situé 12 rue de la Paix, 75002 Paris, représentée par Alice Lemaire");
    expect(text).toContain("en qualité de Présidente, conseil de l’acquéreur");
    expect(text).toContain("Martin Avocats, SELARL, SIREN 832 154 769");
    expect(text).toContain("en qualité de Gérante, conseil du cédant");
    expect(text).toContain("honoraires de résultat que Alice Lemaire perçoit de son mandant");
    expect(text).toContain("hors taxes");
    expect(text).toContain("Seuls les honoraires effectivement encaissés sont partagés");
    expect(text).toContain("soumise au droit français");
    expect(text).toMatch(/recourent d’abord, avant toute action en justice, à la médiation proposée par la plateforme.*juridiction compétente/);
    const [event] = await eventsOf(fileId, "agreement_created");
    expect(event).toMatchObject({ actorProfileId: alice.profile.id, details: { version: 1, sha256: row.documentSha256 } });
    const mails = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "collaboration-agreement"));
    expect(mails).toHaveLength(1);
    expect(mails[0].toAddress).toBe(bob.email);
    expect(`${mails[0].subject}${mails[0].text}${mails[0].html}`).not.toContain(CLIENT_CANARY);
    // The page: the lawyer's warning, the version awaiting Bob's signature.
    const page = await getAgreementPage(b, fileId);
    expect(page.warnings.map((w) => w.code)).toEqual(["lawyer-referral"]);
    expect(page.current).toMatchObject({ version: 1, status: "pending", myShare: 40, theirShare: 60, iPay: false, signedByMe: false, createdByMe: false, createdByName: "Alice Lemaire" });
    expect(page.current?.myPartyLine).toMatch(/^Martin Avocats, SELARL, SIREN 832 154 769, .* en qualité de Gérante, conseil du cédant/);
    // Bob's form starts from these terms, his own firm as Alice typed it, for him to correct.
    expect(page.defaults).toMatchObject({ myCompany: "Martin Avocats", mySiren: "832 154 769", myCapacity: "Gérante", theirCompany: "Cabinet Lemaire", theirCapacity: "Présidente" });
  });

  it("a new version cancels the unsigned previous one (its signature with it)", async () => {
    const { fileId } = await newFile();
    const first = await createAgreement(a, fileId, TERMS);
    await signAgreement(a, fileId, { agreementId: first.agreementId, documentSha256: (await current(fileId)).documentSha256, password: alice.password }, context);
    const second = await createAgreement(b, fileId, { ...TERMS, myShare: 50, theirShare: 50 });
    expect(second.version).toBe(2);
    const rows = await t.db!.select().from(feeAgreements).where(eq(feeAgreements.fileId, fileId));
    expect(rows.find((r) => r.version === 1)).toMatchObject({ status: "cancelled", cancelledAt: expect.any(Date) });
    expect(rows.find((r) => r.version === 2)).toMatchObject({ status: "pending", createdBy: bob.profile.id });
    const page = await getAgreementPage(a, fileId);
    expect(page.current).toMatchObject({ version: 2, signedByMe: false, signatures: [] });
    expect(page.history.map((v) => [v.version, v.status])).toEqual([[1, "cancelled"]]);
    expect((await eventsOf(fileId, "agreement_cancelled")).map((e) => e.details)).toEqual([{ version: 1 }]);
  });

  it("previews the draft PDF, marked « Projet », for the file's members only, storing and recording nothing", async () => {
    const { fileId } = await newFile();
    const preview = (browser: Browser, fields: Record<string, string>) =>
      call(
        agreementPreviewAction,
        new Request(`http://localhost:3000${agreementPreviewUrl(fileId)}`, { method: "POST", headers: browser.headers, body: new URLSearchParams(fields) }),
        { fileId },
      );
    const res = (await preview(aliceBrowser, { ...createFields, operationType: "titres", dueTerm: "deed_plus_30" })).value as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="projet-convention-honoraires\.pdf"/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toMatch(/^Projet — Convention de partage d’honoraires — version 1$/);
    const text = await pdfText(bytes);
    expect(text).toContain("Projet — document non signé, sans valeur contractuelle");
    expect(text).toContain("PROJET");
    expect(text).toContain("Projet non signé — Convention de partage d’honoraires — version 1 — page 1 sur");
    expect(text).toContain("la cession de titres (parts sociales ou actions) d’une société");
    expect(text).not.toContain("Hoguet");
    // Nothing proposed, stored or recorded; the counterpart is not told.
    expect(await t.db!.select().from(feeAgreements).where(eq(feeAgreements.fileId, fileId))).toHaveLength(0);
    expect(await eventsOf(fileId, "agreement_created")).toHaveLength(0);
    expect(await t.db!.select().from(mailOutbox)).toHaveLength(0);
    // Another member, an admin: 404; an invalid form: its errors, as text.
    for (const br of [carolBrowser, adminBrowser]) expect(((await preview(br, createFields)).value as Response).status).toBe(404);
    for (const [change, message] of [
      [{ theirShare: "50" }, AGREEMENT_MESSAGES.sum],
      [{ theirSiren: "123" }, "9 chiffres"],
    ] as const) {
      const invalid = (await preview(aliceBrowser, { ...createFields, ...change })).value as Response;
      expect(invalid.status).toBe(400);
      expect(await invalid.text()).toContain(message);
    }
  });

  it("refuses invalid forms in French and stores nothing", async () => {
    const { fileId } = await newFile();
    for (const change of [{ theirShare: "50" }, { myShare: "0", theirShare: "100" }, { dueTerm: "deed_plus_30" }, { clauses: "x".repeat(2001) }, { theirSiren: "412 356 785" }, { myCapacity: " " }, { myLegalForm: "" }]) {
      const out = await post(aliceBrowser, fileId, { ...createFields, ...change });
      expect(status(out), JSON.stringify(change)).toBe(400);
    }
    expect(await t.db!.select().from(feeAgreements).where(eq(feeAgreements.fileId, fileId))).toHaveLength(0);
  });

  it("refuses a new version on a closed file (409) and on another member's file (404)", async () => {
    const { fileId } = await newFile();
    expect(status(await post(carolBrowser, fileId, createFields))).toBe(404);
    expect(status(await post(adminBrowser, fileId, createFields))).toBe(404);
    await abandonFile(a, fileId, { reason: "price", text: null });
    const out = await post(aliceBrowser, fileId, createFields);
    expect(status(out)).toBe(409);
    expect(errorOf(out)).toBe(AGREEMENT_MESSAGES.closedCreate);
    expect(await t.db!.select().from(feeAgreements).where(eq(feeAgreements.fileId, fileId))).toHaveLength(0);
  });
});

describe("what the form proposes, read from the two mandates", () => {
  it("a 4 M€ company whose two members are of the company college: a share deal, the roles and the band, never a goodwill sale", async () => {
    const db = t.db!;
    await db.execute(`update profiles set college = 'transmission_entreprises' where id in ('${alice.profile.id}', '${bob.profile.id}')`);
    const buyer = await createFactoryMandate(db, alice.profile.id, { mandateType: "buyer", clientName: "Acheteur", targetAmountMin: 2_000_000, targetAmountMax: 6_000_000 });
    const seller = await createFactoryMandate(db, bob.profile.id, { mandateType: "seller", clientName: CLIENT_CANARY, valuationAmount: 4_000_000 });
    const fileId = await db.transaction((tx) => openCollaborationFile(tx, buyer.id, seller.id));
    await db.insert(verificationEvidence).values([
      buildVerificationEvidence(alice.profile, { sirenTyped: "412 356 784", sirenDigits: "412356784" }),
      buildVerificationEvidence(bob.profile, { sirenTyped: "832 154 769", sirenDigits: "832154769" }),
    ]);
    const aliceSide = await getAgreementPage(a, fileId);
    expect(aliceSide.defaults).toMatchObject({ operationType: "titres", sellerAdviser: "them", amountBand: "3m_10m", myShare: "50", theirShare: "50" });
    expect(aliceSide.suggested).toEqual({ operationType: true, sellerAdviser: true, amountBand: true });
    // What the profiles hold: her own SIREN from her verification evidence, never the counterpart's.
    expect(aliceSide.defaults).toMatchObject({ myCompany: "Cabinet Lemaire", mySiren: "412 356 784", theirCompany: "Martin Avocats", theirSiren: "" });
    expect((await getAgreementPage(b, fileId)).defaults).toMatchObject({ operationType: "titres", sellerAdviser: "me", amountBand: "3m_10m" });
    // Bob's college is goodwill: the seller's college decides.
    await db.execute(`update profiles set college = 'transmission_commerces' where id = '${bob.profile.id}'`);
    expect((await getAgreementPage(a, fileId)).defaults.operationType).toBe("fonds_de_commerce");
    // Once a version exists, the form starts from its terms (the member confirms or changes them).
    await createAgreement(a, fileId, { ...TERMS, operationType: "titres", dueTerm: "deed_plus_30", amountBand: "3m_10m", myShare: 70, theirShare: 30 });
    const after = await getAgreementPage(b, fileId);
    expect(after.defaults).toMatchObject({ operationType: "titres", sellerAdviser: "me", amountBand: "3m_10m", myShare: "30", theirShare: "70", payer: "them", dueTerm: "deed_plus_30" });
    expect(after.current).toMatchObject({ sellerIsMe: true, amountBandLabel: "De 3\u00a0M€ à 10\u00a0M€" });
    const text = await pdfText(await readObjectStream((await openAgreementPdf(b, fileId, after.current!.id, "original")).object));
    expect(text).toMatch(/représentée par Jeanne Martin \(Avocat[^;]*, conseil du cédant/);
    expect(text).toMatch(/représentée par Alice Lemaire \([^;]*, conseil de l’acquéreur/);
    expect(text).toContain("Montant indicatif de l’opération : de 3 M€ à 10 M€.");
  });

  it("a share deal's PDF never mentions the Hoguet law; a goodwill sale's quotes it with the carte T and the written mandate", async () => {
    const share = await newFile();
    expect(status(await post(aliceBrowser, share.fileId, { ...createFields, operationType: "titres", dueTerm: "deed_plus_30", amountBand: "3m_10m" }))).toBe(302);
    const goodwill = await newFile();
    expect(status(await post(aliceBrowser, goodwill.fileId, createFields))).toBe(302);
    const bytesOf = async (fileId: string) => readObjectStream((await openAgreementPdf(a, fileId, (await current(fileId)).id, "original")).object);
    const shareBytes = await bytesOf(share.fileId);
    const goodwillBytes = await bytesOf(goodwill.fileId);
    for (const read of [pdfText, async (bytes: Uint8Array) => popplerText(bytes)]) {
      const shareText = await read(shareBytes);
      const goodwillText = await read(goodwillBytes);
      if (shareText === null || goodwillText === null) continue;
      expect(shareText).not.toMatch(/Hoguet|carte T|70-9/i);
      expect(shareText).toContain("la cession de titres (parts sociales ou actions) d’une société");
      expect(shareText).toContain("Dans les 30 jours suivant la signature de l’acte de cession des titres");
      expect(goodwillText).toContain("loi Hoguet");
      expect(goodwillText).toContain("(carte T)");
      expect(goodwillText).toContain("mandat écrit");
      expect(goodwillText).toContain("À la signature de l’acte de cession du fonds de commerce");
      // The lawyer's warning stays whatever the operation.
      for (const text of [shareText, goodwillText]) expect(text).toContain("art. 11.3");
    }
  });

  it("with both mandates deleted, nothing is assumed: no operation type, no roles", async () => {
    const { fileId, buyer, seller } = await newFile();
    await t.db!.execute(`delete from mandates where id in ('${buyer}', '${seller}')`);
    const page = await getAgreementPage(a, fileId);
    expect(page.defaults).toMatchObject({ operationType: "", sellerAdviser: "", amountBand: "" });
    expect(page.suggested).toEqual({ operationType: false, sellerAdviser: false, amountBand: false });
  });
});

describe("signing", () => {
  it("both signatures seal it: original pages + certificate page, hash of the bytes, downloadable by either member", async () => {
    const { fileId } = await newFile();
    const { pending, signed } = await signedAgreement(fileId);
    expect(signed).toMatchObject({ id: pending.id, status: "signed", documentSha256: pending.documentSha256 });
    expect(signed.signatures.map((s) => s.name)).toEqual(["Alice Lemaire", "Jeanne Martin"]);
    const sigs = await t.db!.select().from(feeAgreementSignatures).where(eq(feeAgreementSignatures.agreementId, pending.id));
    for (const s of sigs) {
      expect(s).toMatchObject({ documentSha256: pending.documentSha256, ipAddress: "203.0.113.9", userAgent: UA, method: "password", signedAt: expect.any(Date) });
    }
    const original = { bytes: await readObjectStream((await openAgreementPdf(a, fileId, pending.id, "original")).object) };
    const sealed = { bytes: await readObjectStream((await openAgreementPdf(b, fileId, pending.id, "signed")).object) };
    expect(sha(original.bytes)).toBe(pending.documentSha256);
    expect(sha(sealed.bytes)).toBe(signed.signedSha256);
    const originalPages = (await PDFDocument.load(original.bytes)).getPageCount();
    expect((await PDFDocument.load(sealed.bytes)).getPageCount()).toBe(originalPages + 1);
    const text = await pdfText(sealed.bytes);
    expect(text).toContain("Certificat de signature électronique");
    expect(text).toContain("Signataire 1 : Alice Lemaire");
    expect(text).toContain("Signataire 2 : Jeanne Martin");
    expect(text).toContain("Adresse IP : 203.0.113.9");
    expect(text).toContain(pending.documentSha256);
    // Through the route: the bytes whose hash is announced.
    const res = (await call(agreementPdfLoader, new Request(`http://localhost:3000${agreementPdfUrl(fileId, pending.id, "signed")}`, { headers: aliceBrowser.headers }), { fileId, agreementId: pending.id })).value as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("x-content-sha256")).toBe(signed.signedSha256);
    expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(signed.signedSha256);
    // Timeline and e-mails.
    expect((await eventsOf(fileId, "agreement_signed")).map((e) => e.actorProfileId)).toEqual([alice.profile.id, bob.profile.id]);
    expect((await eventsOf(fileId, "agreement_completed"))[0].details).toMatchObject({ version: 1, sha256: signed.signedSha256 });
    const mails = await t.db!.select().from(mailOutbox).where(sql`${mailOutbox.kind} like 'collaboration-agreement%'`);
    expect(mails.map((m) => [m.toAddress, m.kind])).toEqual([
      [bob.email, "collaboration-agreement"],
      [bob.email, "collaboration-agreement"],
      [alice.email, "collaboration-agreement-signed"],
    ]);
    // Final: no new version.
    const again = await post(bobBrowser, fileId, createFields);
    expect(status(again)).toBe(409);
    expect(errorOf(again)).toBe(AGREEMENT_MESSAGES.signedFinal);
  });

  it("refuses forged signatures and changes nothing", async () => {
    const { fileId } = await newFile();
    const other = await newFile();
    await createAgreement(a, fileId, TERMS);
    const pending = await current(fileId);
    await createAgreement(a, other.fileId, TERMS);
    const elsewhere = await current(other.fileId);
    // Another member, an admin: 404.
    expect(status(await post(carolBrowser, fileId, signFields(pending, carol.password)))).toBe(404);
    expect(status(await post(adminBrowser, fileId, signFields(pending, admin.password)))).toBe(404);
    // Another file's version, posted to this file: not found.
    expect(status(await post(aliceBrowser, fileId, signFields(elsewhere, alice.password)))).toBe(404);
    // Bytes other than the version's.
    const wrongSha = await post(aliceBrowser, fileId, signFields({ ...pending, documentSha256: "0".repeat(64) }, alice.password));
    expect(status(wrongSha)).toBe(409);
    expect(errorOf(wrongSha)).toBe(AGREEMENT_MESSAGES.outdated);
    // No consent.
    const { consent: _, ...noConsent } = signFields(pending, alice.password);
    expect(status(await post(aliceBrowser, fileId, noConsent))).toBe(400);
    // Wrong password.
    const wrong = await post(aliceBrowser, fileId, signFields(pending, "mauvais-mot-de-passe"));
    expect(status(wrong)).toBe(400);
    expect(errorOf(wrong)).toBe(AGREEMENT_MESSAGES.wrongPassword);
    expect(await t.db!.select().from(feeAgreementSignatures).where(eq(feeAgreementSignatures.agreementId, pending.id))).toHaveLength(0);
    // Signing twice.
    expect(status(await post(aliceBrowser, fileId, signFields(pending, alice.password)))).toBe(302);
    const twice = await post(aliceBrowser, fileId, signFields(pending, alice.password));
    expect(status(twice)).toBe(409);
    expect(errorOf(twice)).toBe(AGREEMENT_MESSAGES.alreadySigned);
    // An outdated version: Bob proposes version 2; Bob signing version 1 is refused.
    await createAgreement(b, fileId, TERMS);
    const outdated = await post(bobBrowser, fileId, signFields(pending, bob.password));
    expect(status(outdated)).toBe(409);
    expect(errorOf(outdated)).toBe(AGREEMENT_MESSAGES.outdated);
    const sigs = await t.db!.select().from(feeAgreementSignatures).where(eq(feeAgreementSignatures.agreementId, pending.id));
    expect(sigs.map((s) => s.profileId)).toEqual([alice.profile.id]);
    expect((await t.db!.select().from(feeAgreements).where(eq(feeAgreements.id, pending.id)))[0].status).toBe("cancelled");
  });

  it("wrong passwords are rate limited per account (429), then even the right one waits", async () => {
    const { fileId } = await newFile();
    await createAgreement(a, fileId, TERMS);
    const pending = await current(fileId);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push(status(await post(bobBrowser, fileId, signFields(pending, `faux-${i}`))));
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    const blocked = await post(bobBrowser, fileId, signFields(pending, bob.password));
    expect(status(blocked)).toBe(429);
    expect(errorOf(blocked)).toBe(AGREEMENT_MESSAGES.tooManyAttempts);
    expect(await t.db!.select().from(feeAgreementSignatures).where(eq(feeAgreementSignatures.agreementId, pending.id))).toHaveLength(0);
  });

  it("a concluded file's pending version can still be signed; an abandoned file's cannot", async () => {
    const { fileId } = await newFile();
    await createAgreement(a, fileId, TERMS);
    const pending = await current(fileId);
    await t.db!.execute(`update collaboration_files set stage = 'concluded', concluded_at = now() where id = '${fileId}'`);
    expect(status(await post(aliceBrowser, fileId, signFields(pending, alice.password)))).toBe(302);
    await t.db!.execute(`update collaboration_files set stage = 'abandoned', abandon_reason = 'price', abandoned_at = now() where id = '${fileId}'`);
    const refused = await post(bobBrowser, fileId, signFields(pending, bob.password));
    expect(status(refused)).toBe(409);
    expect(errorOf(refused)).toBe(AGREEMENT_MESSAGES.closedSign);
  });

  it("with two-factor authentication, a code of the app signs, once", async () => {
    const dave = await createMember(t.db!, { profile: { firstName: "David", lastName: "Roux", membershipType: "premium" } });
    const daveBrowser = await signIn(dave);
    const actor = { id: dave.user.id, email: dave.email, twoFactorEnabled: false };
    const req = () => new Request("http://localhost:3000/parametres", { method: "POST", headers: daveBrowser.headers });
    expect((await startTwoFactorEnrolment(req(), actor, dave.password)).ok).toBe(true);
    const state = await getTwoFactorState(actor);
    if (state.status !== "pending") throw new Error("expected a pending enrolment");
    const secret = secretFromOtpauthUri(state.uri);
    const enrolCode = await unusedTotpCode(secret);
    expect((await confirmTwoFactorEnrolment(req(), actor, enrolCode)).ok).toBe(true);

    const { fileId } = await newFile(alice, dave);
    const d = fileActor(dave.profile);
    await createAgreement(a, fileId, TERMS);
    const pending = await current(fileId);
    expect((await getAgreementPage(d, fileId)).twoFactor).toBe(true);
    const signWith = (input: { password?: string; code?: string }) =>
      signAgreement(d, fileId, { agreementId: pending.id, documentSha256: pending.documentSha256, ...input }, context).then(
        () => 200,
        (e: unknown) => statusOf(e),
      );
    // The password alone does not do; the enrolment's code was already used once.
    expect(await signWith({ password: dave.password })).toBe(400);
    expect(await signWith({ code: enrolCode })).toBe(400);
    expect(await signWith({ code: "000000" === enrolCode ? "111111" : "000000" })).toBe(400);
    expect(await signWith({ code: await unusedTotpCode(secret) })).toBe(200);
    const [sig] = await t.db!.select().from(feeAgreementSignatures).where(eq(feeAgreementSignatures.profileId, dave.profile.id));
    expect(sig.method).toBe("totp");
  });
});

describe("records that outlive their members", () => {
  it("the signed agreement survives the deletion of the other member's account", async () => {
    const erin = await createMember(t.db!, { profile: { firstName: "Erin", lastName: "Durand", membershipType: "premium" } });
    const { fileId } = await newFile(alice, erin);
    const e = fileActor(erin.profile);
    await createAgreement(a, fileId, TERMS);
    const pending = await current(fileId);
    await signAgreement(a, fileId, { agreementId: pending.id, documentSha256: pending.documentSha256, password: alice.password }, context);
    await signAgreement(e, fileId, { agreementId: pending.id, documentSha256: pending.documentSha256, password: erin.password }, context);
    const signed = await current(fileId);
    await eraseAccount({ id: erin.user.id, email: erin.email });
    const after = await getAgreementPage(a, fileId);
    expect(after.current).toMatchObject({ status: "signed", signedSha256: signed.signedSha256 });
    expect(after.current?.signatures.map((s) => s.name)).toEqual(["Alice Lemaire", "Erin Durand"]);
    const pdf = await openAgreementPdf(a, fileId, pending.id, "signed");
    expect(sha(await readObjectStream(pdf.object))).toBe(signed.signedSha256);
  });

  it("a file whose two members are gone is deleted, with its stored agreement", async () => {
    const finn = await createMember(t.db!, { profile: { firstName: "Finn", lastName: "Roux", membershipType: "premium" } });
    const gaby = await createMember(t.db!, { profile: { firstName: "Gaby", lastName: "Petit", membershipType: "premium" } });
    const { fileId } = await newFile(finn, gaby);
    await createAgreement(fileActor(finn.profile), fileId, TERMS);
    const [agreement] = await t.db!.select().from(feeAgreements).where(eq(feeAgreements.fileId, fileId));
    expect(await getStorage().getObject(agreement.documentKey)).not.toBeNull();

    // One member left: the other keeps the file.
    expect(await eraseAccount({ id: finn.user.id, email: finn.email })).toMatchObject({ deletedFiles: 0 });
    expect(await t.db!.select().from(collaborationFiles).where(eq(collaborationFiles.id, fileId))).toHaveLength(1);
    // Both gone: nobody holds the record any more.
    expect(await eraseAccount({ id: gaby.user.id, email: gaby.email })).toMatchObject({ deletedFiles: 1 });
    expect(await t.db!.select().from(collaborationFiles).where(eq(collaborationFiles.id, fileId))).toHaveLength(0);
    expect(await t.db!.select().from(feeAgreements).where(eq(feeAgreements.fileId, fileId))).toHaveLength(0);
    expect(await getStorage().getObject(agreement.documentKey)).toBeNull();
  });

  it("the data export carries each file as its member sees it, never the counterpart's client", async () => {
    const { fileId } = await newFile();
    await createAgreement(a, fileId, TERMS);
    const pending = await current(fileId);
    await signAgreement(a, fileId, { agreementId: pending.id, documentSha256: pending.documentSha256, password: alice.password }, context);
    const exported = await buildDataExport({ id: alice.user.id, email: alice.email });
    const file = exported.collaboration_files.find((f) => f.id === fileId);
    expect(file).toMatchObject({ stage: "introduction", counterpart: { name: "Jeanne Martin", company: "Martin Avocats" } });
    expect(file?.fee_agreements).toHaveLength(1);
    expect(file?.fee_agreements[0]).toMatchObject({ version: 1, status: "pending", document_sha256: pending.documentSha256 });
    // Her own signature with its trail; the timeline as the file shows it.
    expect(file?.fee_agreements[0].signatures).toEqual([expect.objectContaining({ by_me: true, ip_address: "203.0.113.9", user_agent: UA })]);
    expect(file?.timeline.map((e) => e.kind)).toEqual(expect.arrayContaining(["agreement_created", "agreement_signed"]));
    expect(JSON.stringify(exported)).not.toContain(CLIENT_CANARY);
    // The counterpart's export has the same file, with Alice's signature as its certificate shows
    // it: her IP address and browser are the proof she agreed (decision 036).
    const theirs = (await buildDataExport({ id: bob.user.id, email: bob.email })).collaboration_files.find((f) => f.id === fileId);
    expect(theirs?.fee_agreements[0].signatures).toEqual([expect.objectContaining({ by_me: false, ip_address: "203.0.113.9", user_agent: UA })]);
  });
});

describe("the file's human reference", () => {
  const numberOf = (reference: string) => {
    const m = /^DR-(\d{4})-(\d{4,})$/.exec(reference);
    if (!m) throw new Error(`not a reference: ${reference}`);
    return { year: Number(m[1]), n: Number(m[2]) };
  };
  const referenceOf = async (fileId: string) =>
    (await t.db!.select({ reference: collaborationFiles.reference }).from(collaborationFiles).where(eq(collaborationFiles.id, fileId)))[0].reference;

  it("numbers files per year without gaps: reopening a pair or a rolled-back opening takes no number", async () => {
    const first = await newFile();
    const one = numberOf(await referenceOf(first.fileId));
    expect(one.year).toBe(Number(new Intl.DateTimeFormat("fr-FR", { year: "numeric", timeZone: "Europe/Paris" }).format(new Date())));
    // The same pair again: the same file, no number spent.
    expect(await t.db!.transaction((tx) => openCollaborationFile(tx, first.buyer, first.seller))).toBe(first.fileId);
    // An opening whose transaction fails gives its number back.
    const buyer = await createFactoryMandate(t.db!, alice.profile.id, { mandateType: "buyer" });
    const seller = await createFactoryMandate(t.db!, bob.profile.id, { mandateType: "seller" });
    await expect(
      t.db!.transaction(async (tx) => {
        await openCollaborationFile(tx, buyer.id, seller.id);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const second = await newFile();
    const third = await newFile();
    expect([numberOf(await referenceOf(second.fileId)).n, numberOf(await referenceOf(third.fileId)).n]).toEqual([one.n + 1, one.n + 2]);
  });

  it("is shown instead of the raw id: the file's header and list, its e-mails, the agreement, its certificate and the export", async () => {
    const { fileId } = await newFile();
    const reference = await referenceOf(fileId);
    expect((await getFileHeader(a, fileId)).reference).toBe(reference);
    expect((await listMyFiles(a)).items.find((f) => f.id === fileId)?.reference).toBe(reference);
    const { signed } = await signedAgreement(fileId);
    const [mail] = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.kind, "collaboration-agreement"));
    expect(mail.subject).toContain(reference);
    expect(mail.text).toContain(`Dossier ${reference}`);
    const sealed = await pdfText(await readObjectStream((await openAgreementPdf(a, fileId, signed.id, "signed")).object));
    expect(sealed).toContain(`dossier de rapprochement ${reference} — version 1`);
    expect(sealed).toContain(`Dossier de rapprochement ${reference}`);
    expect(sealed).not.toContain(fileId);
    const exported = await pdfText((await exportEvidence(a, fileId)).bytes);
    expect(exported).toContain(`Dossier ${reference} — exporté le`);
    expect(exported).not.toContain(fileId);
  });
});

describe("confidentiality undertakings, sealed PDF (decision 050)", () => {
  const fetchVia = (browser: Browser, fileId: string) =>
    call(undertakingsLoader, new Request(`http://localhost:3000/dashboard/dossiers/${fileId}/engagements`, { headers: browser.headers }), { fileId });

  it("lists the undertakings signed in the file, sealed by the platform; 404 for anyone else", async () => {
    const { fileId, buyer, seller } = await newFile();
    const before = await pdfText(new Uint8Array(await ((await fetchVia(aliceBrowser, fileId)).value as Response).arrayBuffer()));
    expect(before).toContain("Aucun engagement n’a encore été signé");
    await t.db!.transaction((tx) => recordUndertakingInFile(tx, buyer, seller, alice.profile.id));
    const res = (await fetchVia(bobBrowser, fileId)).value as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get("x-content-sha256")).toBe(sha(bytes));
    const text = await pdfText(bytes);
    expect(text).toContain("Alice Lemaire — signé le");
    expect(text).toContain("Je m’engage à n’utiliser l’identité");
    expect(text).not.toContain(CLIENT_CANARY);
    // The seal: a CMS detached signature (PAdES) over the whole file, by the generated test certificate.
    const raw = Buffer.from(bytes).toString("latin1");
    expect(raw).toContain("/SubFilter /ETSI.CAdES.detached");
    expect(raw).toMatch(/\/ByteRange \[0 \d+ \d+ \d+\]/);
    expect(text).toContain("CERTIFICAT DE TEST");
    for (const br of [carolBrowser, adminBrowser]) expect(status(await fetchVia(br, fileId))).toBe(404);
  });
});

describe("the seal's timestamp authority down (decision 050)", () => {
  it("the second signature is refused with a 503 and nothing is recorded; it succeeds once the authority answers", async () => {
    const { fileId } = await newFile();
    expect(status(await post(aliceBrowser, fileId, createFields))).toBe(302);
    const pending = await current(fileId);
    expect(status(await post(aliceBrowser, fileId, signFields(pending, alice.password)))).toBe(302);
    const saved = getEnv();
    setEnv({ ...saved, TSA_URL: "http://127.0.0.1:9/tsa" });
    try {
      const refused = await post(bobBrowser, fileId, signFields(pending, bob.password));
      expect(status(refused)).toBe(503);
      expect(errorOf(refused) ?? JSON.stringify(bodyOf(refused.value))).toContain("rien n’a été signé");
    } finally {
      setEnv(saved);
    }
    const [row] = await t.db!.select().from(feeAgreements).where(eq(feeAgreements.id, pending.id));
    expect(row).toMatchObject({ status: "pending", signedKey: null });
    expect(await t.db!.select().from(feeAgreementSignatures).where(eq(feeAgreementSignatures.agreementId, pending.id))).toHaveLength(1);
    expect(await eventsOf(fileId, "agreement_completed")).toHaveLength(0);
    expect(status(await post(bobBrowser, fileId, signFields(pending, bob.password)))).toBe(302);
    expect((await current(fileId)).status).toBe("signed");
  });
});

describe("closing archive (issue 32 §5)", () => {
  const archiveVia = (browser: Browser, fileId: string) =>
    call(archiveLoader, new Request(`http://localhost:3000/dashboard/dossiers/${fileId}/archive`, { headers: browser.headers }), { fileId });

  it("a concluded file's ZIP: every entry's SHA-256 is the manifest's, the manifest PDF is sealed; 409 before, 404 for others", async () => {
    const { fileId } = await newFile();
    await signedAgreement(fileId);
    const bytesOf = (text: string) => new Uint8Array(Buffer.from(text));
    const stored: string[] = [];
    // Two documents of the same name, the first one with a second version (decision 056), and a withdrawn one left out.
    for (const [name, body, version] of [["bilan 2025.pdf", "%PDF-1.7 bilan", 1], ["bilan 2025.pdf", "%PDF-1.7 autre bilan", 1], ["bilan 2025 corrigé.pdf", "%PDF-1.7 bilan v2", 2], ["retiré.pdf", "%PDF-1.7 retiré", 1]] as const) {
      const key = `documents/${fileId}/${randomUUID()}.pdf`;
      await getStorage().putObject(key, bytesOf(body), "application/pdf");
      const [row] = await t.db!.insert(collaborationDocuments).values({
        fileId, uploaderProfileId: alice.profile.id, name, contentType: "application/pdf", sizeBytes: body.length, sha256: sha(bytesOf(body)), storageKey: key,
        version, lineageId: version === 2 ? stored[0] : null, withdrawnAt: name === "retiré.pdf" ? new Date() : null,
      }).returning({ id: collaborationDocuments.id });
      stored.push(row!.id);
    }
    // The due-diligence list, with one question shared by both sides.
    await createListFromTemplate(a, fileId, "fonds_de_commerce");
    const [firstItem] = (await getDueDiligenceList(a, fileId)).items;
    await askQuestion(a, fileId, firstItem!.id, { documentId: null, visibility: "commun", body: "Le bail est-il cessible sans agrément ?" });
    expect(status(await archiveVia(aliceBrowser, fileId))).toBe(409);
    await t.db!.update(collaborationFiles).set({ stage: "concluded" }).where(eq(collaborationFiles.id, fileId));
    for (const br of [carolBrowser, adminBrowser]) expect(status(await archiveVia(br, fileId))).toBe(404);

    const res = (await archiveVia(bobBrowser, fileId)).value as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const zip = await JSZip.loadAsync(new Uint8Array(await res.arrayBuffer()));
    const manifestText = await zip.file("manifeste.json")!.async("string");
    expect(sha(Buffer.from(manifestText))).toBe(res.headers.get("x-manifest-sha256"));
    const manifest = JSON.parse(manifestText) as { entries: { path: string; sha256: string; size: number }[] };
    const paths = manifest.entries.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["documents/bilan 2025/v1-bilan 2025.pdf", "documents/bilan 2025/v2-bilan 2025 corrigé.pdf", "documents/bilan 2025 (2)/v1-bilan 2025.pdf", "conventions/convention-v1.pdf", "conventions/convention-v1-signee.pdf", "historique/historique.json", "engagements/engagements-confidentialite.pdf", "diligences/liste-de-diligences.xlsx", "diligences/liste-de-diligences.pdf", "diligences/questions-reponses.json"]));
    expect(paths.filter((p) => p.startsWith("documents/"))).toHaveLength(3);
    const qa = JSON.parse(await zip.file("diligences/questions-reponses.json")!.async("string")) as { questions: { demande: string; question: string; statut: string }[] };
    expect(qa.questions).toEqual([expect.objectContaining({ demande: firstItem!.title, question: "Le bail est-il cessible sans agrément ?", statut: "open" })]);
    for (const entry of manifest.entries) {
      const content = await zip.file(entry.path)!.async("uint8array");
      expect(sha(content), entry.path).toBe(entry.sha256);
      expect(content.byteLength, entry.path).toBe(entry.size);
    }
    // Every file of the ZIP is in the manifest, but the manifest and its sealed copy.
    const listed = new Set([...paths, "manifeste.json", "manifeste-scelle.pdf"]);
    expect(Object.values(zip.files).filter((f) => !f.dir && !listed.has(f.name))).toEqual([]);
    const sealedManifest = await zip.file("manifeste-scelle.pdf")!.async("uint8array");
    expect(Buffer.from(sealedManifest).toString("latin1")).toContain("/SubFilter /ETSI.CAdES.detached");
    const manifestPdfText = await pdfText(sealedManifest);
    expect(manifestPdfText).toContain(sha(Buffer.from(manifestText)));
    expect(manifestPdfText).toContain(manifest.entries[0]!.sha256);
  });
});

describe("evidence export", () => {
  const exportVia = (browser: Browser, fileId: string) =>
    call(evidenceLoader, new Request(`http://localhost:3000${evidenceUrl(fileId)}`, { headers: browser.headers }), { fileId });

  it("is a dated PDF of the whole timeline, its SHA-256 in a header and in the timeline", async () => {
    const { fileId } = await newFile();
    await signedAgreement(fileId);
    const out = await exportVia(aliceBrowser, fileId);
    const res = out.value as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(/historique-dossier-\d{4}-\d{2}-\d{2}\.pdf/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const hash = res.headers.get("x-content-sha256");
    expect(hash).toBe(sha(bytes));
    expect(res.headers.get("repr-digest")).toBe(`sha-256=:${Buffer.from(hash!, "hex").toString("base64")}:`);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThanOrEqual(1);
    const text = await pdfText(bytes);
    expect(text).toContain("Historique du dossier de rapprochement");
    expect(text).toContain("Convention d’honoraires signée par les deux membres");
    expect(text).toContain("Signée par Alice Lemaire");
    expect(text).toContain("Signée par Jeanne Martin");
    expect(text).toContain("Mise en relation confirmée : ouverture du dossier");
    const [event] = await eventsOf(fileId, "evidence_exported");
    expect(event).toMatchObject({ actorProfileId: alice.profile.id, details: { sha256: hash } });
    const page = await getAgreementPage(a, fileId);
    expect(page.current?.status).toBe("signed");
  });

  it("prints every character (stage changes in words, no « ? ») and says truly where its fingerprint is shown", async () => {
    const { fileId } = await newFile();
    await moveStage(a, fileId, "exchanges");
    await moveStage(b, fileId, "documents");
    const exported = await exportEvidence(a, fileId);
    const text = await pdfText(exported.bytes);
    expect(text).toContain("Changement d’étape — de « Mise en relation » à « Échanges confidentiels »");
    expect(text).toContain("de « Échanges confidentiels » à « Documents partagés »");
    expect(text).not.toContain("?");
    expect(text).toMatch(/inscrite dans l’historique du dossier sur la plateforme : onglet « Suivi », événement « Historique exporté » du \d{2}\/\d{2}\/\d{4}/);
    expect(text).not.toContain("affichée lors du téléchargement");
    // Where the footer says: the file's timeline, as its page lists it.
    const shown = (await getFileView(a, fileId)).timeline.filter((e) => e.kind === "evidence_exported");
    expect(shown.map((e) => [e.label, e.detail])).toEqual([["Historique exporté", `SHA-256\u00a0: ${exported.sha256}`]]);
  });

  it("only for the two members: 404 for a third member and for an admin", async () => {
    const { fileId } = await newFile();
    for (const br of [carolBrowser, adminBrowser]) {
      const res = (await exportVia(br, fileId)).value as Response;
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    }
    await expect(exportEvidence(c, fileId)).rejects.toSatisfy((e: unknown) => statusOf(e) === 404);
    expect(await eventsOf(fileId, "evidence_exported")).toHaveLength(0);
  });

  it("names the counterpart's client only once the exporting member signed the undertaking", async () => {
    const { fileId, buyer, seller } = await newFile();
    expect(await pdfText((await exportEvidence(a, fileId)).bytes)).not.toContain(CLIENT_CANARY);
    expect(await pdfText((await exportEvidence(a, fileId)).bytes)).toContain("non révélée");
    await t.db!.transaction((tx) => recordUndertakingInFile(tx, buyer, seller, alice.profile.id));
    expect(await pdfText((await exportEvidence(a, fileId)).bytes)).toContain(CLIENT_CANARY);
    // Bob did not sign: neither his own client nor Alice's appears in his export.
    const bobs = await pdfText((await exportEvidence(b, fileId)).bytes);
    expect(bobs).not.toContain("Acheteur Alice SAS");
  });

  it("the page loader and the agreement page are 404 for anyone else", async () => {
    const { fileId } = await newFile();
    for (const br of [carolBrowser, adminBrowser]) {
      const out = await call(agreementLoader, new Request(`http://localhost:3000${agreementUrl(fileId)}`, { headers: br.headers }), { fileId });
      expect(status(out)).toBe(404);
    }
    const mine = await call(agreementLoader, new Request(`http://localhost:3000${agreementUrl(fileId)}`, { headers: aliceBrowser.headers }), { fileId });
    expect(status(mine)).toBe(200);
  });
});

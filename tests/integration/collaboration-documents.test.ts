// The document room of a collaboration file (issue 13, item 4): types decided from the bytes,
// limits, names, nothing half-stored, only the two members (404 for a third member and for an
// admin), the access log, the watermark of served PDFs, withdrawal, the counterpart's e-mail,
// and the storage drivers (local directory, database) on which it all rests.
import { existsSync } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { decodePDFRawStream, degrees, PDFDocument, PDFRawStream, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import {
  collaborationDocuments,
  collaborationEvents,
  collaborationFiles,
  documentAccessLog,
  mailOutbox,
  storedObjects,
} from "~/db/schema";
import { DOCUMENT_ACCESSES_SHOWN, DOCUMENT_MESSAGES, DOCUMENTS_PAGE_SIZE, documentsUrl, documentUrl } from "~/features/collaboration/documents-rules";
import { shareDocument, withdrawDocument } from "~/features/collaboration/documents.server";
import { listDocuments } from "~/features/collaboration/document-list.server";
import { openDocument, type OpenedDocument } from "~/features/collaboration/document-opening.server";
import { fileActor, type FileActor } from "~/features/collaboration/file-access.server";
import { createDatabaseStorage } from "~/lib/storage/database-driver.server";
import { createLocalStorage } from "~/lib/storage/local-driver.server";
import { getStorage, setStorage, type StorageDriver } from "~/lib/storage/storage.server";
import { pdfBomb } from "~/lib/untrusted/pdf-test-files";
import { loader as uploadsFileLoader } from "~/routes/api/uploads-file";
import { loader as documentLoader } from "~/routes/member/dashboard/file/document";
import { action as documentsAction, loader as documentsLoader } from "~/routes/member/dashboard/file/documents";
import { createMember, makeAdmin, seedFactories, setEmailFrequency, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { minimalDocx, minimalXlsx, buildZip } from "../support/zip";
import { call, openFileBetween, type Outcome, outcomeStatus as status, useFileTestEnvironment, checkTimelineEvents } from "./file-helpers";
import { bodyOf, locationOf, signIn, toastOf, type Browser } from "./mandates-helpers";

const t = useTestDatabase();
checkTimelineEvents(t);
const MB = 1024 * 1024;
const CLIENT_CANARY = "Canari Confidentiel SAS";

// The automatic storage choice: the database on PostgreSQL, the local directory on PGlite.
const env = useFileTestEnvironment(t, "documents", { BETTER_AUTH_SECRET: "test-secret-for-document-tests-0123456789abcdef" });
const dataDir = () => env.dataDir();
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
  seedFactories(413);
  const db = t.db!;
  alice = await createMember(db, { profile: { firstName: "Alice", lastName: "Lemaire", company: "Cabinet Lemaire", membershipType: "premium" } });
  bob = await createMember(db, { profile: { firstName: "Jeanne", lastName: "Martin", company: "Cabinet X", membershipType: "premium", notifyMessages: true } });
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
});

/** A fresh file between Alice (buyer) and Bob (seller), as a confirmed connection opens it. */
async function newFile(): Promise<string> {
  return (await openFileBetween(t.db!, alice, bob, { buyer: "Acheteur Alice SAS", seller: CLIENT_CANARY })).fileId;
}

// --- fixtures, made here -------------------------------------------------------------------

async function pdf(pages = 3): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`Page ${i + 1} du bilan`, { x: 50, y: 780, size: 14, font });
  return Buffer.from(await doc.save());
}

/** The stamped bytes of an opened PDF (a test fails on anything else). */
function stamped(opened: OpenedDocument): Uint8Array {
  if (opened.kind !== "stamped") throw new Error(`expected a stamped PDF, got ${opened.kind}`);
  return opened.bytes;
}

function image(format: "jpeg" | "png", size = 32): Promise<Buffer> {
  const canvas = sharp({ create: { width: size, height: size, channels: 3, background: { r: 20, g: 120, b: 200 } } });
  return (format === "jpeg" ? canvas.jpeg() : canvas.png()).toBuffer();
}

/** A genuine PNG of about `kb` KB of incompressible pixels. */
async function noisyPng(kb: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt((kb * 1024) / 3));
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** A PDF whose trailer declares encryption (pdf-lib refuses to load it). */
async function encryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage();
  const text = Buffer.from(await doc.save({ useObjectStreams: false })).toString("latin1");
  expect(text).toContain("trailer\n<<");
  return Buffer.from(text.replace("trailer\n<<", "trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 >>"), "latin1");
}

// WinAnsi (Windows-1252) differs from Latin-1 in 0x80–0x9F (Node's decoder may lack it).
const WIN_ANSI_HIGH: Record<number, string> = { 0x80: "€", 0x85: "…", 0x91: "‘", 0x92: "’", 0x93: "“", 0x94: "”", 0x96: "–", 0x97: "—", 0x9c: "œ", 0x8c: "Œ" };
const decoder = { decode: (bytes: Buffer) => [...bytes].map((c) => WIN_ANSI_HIGH[c] ?? String.fromCharCode(c)).join("") };

/** The text drawn on the pages of a PDF (content streams decoded, hex strings read as WinAnsi). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  let out = "";
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const content = Buffer.from(decodePDFRawStream(object).decode()).toString("latin1");
    for (const m of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) out += `${decoder.decode(Buffer.from(m[1], "hex"))}\n`;
    for (const m of content.matchAll(/\(((?:[^()\\]|\\.)*)\)\s*Tj/g)) out += `${m[1]}\n`;
  }
  return out;
}

// --- calling the routes like React Router does --------------------------------------------

function uploadRequest(browser: Browser, fileId: string, file: { bytes: Uint8Array; name: string; type?: string } | null) {
  const form = new FormData();
  if (file) form.set("file", new File([new Uint8Array(file.bytes)], file.name, { type: file.type ?? "application/octet-stream" }));
  else form.set("file", new File([], "", { type: "application/octet-stream" }));
  return new Request(`http://localhost:3000${documentsUrl(fileId)}`, { method: "POST", headers: browser.headers, body: form });
}

const upload = (browser: Browser, fileId: string, file: { bytes: Uint8Array; name: string; type?: string } | null) =>
  call(documentsAction, uploadRequest(browser, fileId, file), { fileId });

const withdrawVia = (browser: Browser, fileId: string, documentId: string) =>
  call(
    documentsAction,
    new Request(`http://localhost:3000${documentsUrl(fileId)}`, {
      method: "POST",
      headers: browser.headers,
      body: new URLSearchParams({ intent: "withdraw", documentId }),
    }),
    { fileId },
  );

const list = (browser: Browser, fileId: string) =>
  call(documentsLoader, new Request(`http://localhost:3000${documentsUrl(fileId)}`, { headers: browser.headers }), { fileId });

async function fetchDocument(browser: Browser, fileId: string, documentId: string, mode: "view" | "download"): Promise<Response> {
  const outcome = await call(documentLoader, new Request(`http://localhost:3000${documentUrl(fileId, documentId, mode)}`, { headers: browser.headers }), {
    fileId,
    documentId,
  });
  if (outcome.thrown) throw outcome.thrown;
  return outcome.value as Response;
}

const errorOf = (o: Outcome) => bodyOf<{ error: string }>(o.value).error;

async function documentsOf(fileId: string) {
  return t.db!.select().from(collaborationDocuments).where(eq(collaborationDocuments.fileId, fileId));
}

async function eventsOf(fileId: string, kind: string) {
  return t.db!.select().from(collaborationEvents).where(and(eq(collaborationEvents.fileId, fileId), eq(collaborationEvents.kind, kind)));
}

async function storedKeys(fileId: string): Promise<string[]> {
  if (t.driver === "pg") {
    const rows = await t.db!.select({ key: storedObjects.key }).from(storedObjects).where(sql`${storedObjects.key} like ${`documents/${fileId}/%`}`);
    return rows.map((r) => r.key);
  }
  const dir = path.join(dataDir(), "uploads", "documents", fileId);
  if (!existsSync(dir)) return [];
  const { readdirSync } = await import("node:fs");
  return readdirSync(dir).map((name) => `documents/${fileId}/${name}`);
}

// ---------------------------------------------------------------------------------------------

describe("sharing", () => {
  it.each([
    ["PDF", () => pdf(), "Bilan 2025.pdf", "application/pdf", "Bilan 2025.pdf"],
    ["JPEG", () => image("jpeg"), "Photo usine.jpeg", "image/jpeg", "Photo usine.jpg"],
    ["PNG", () => image("png"), "Organigramme.png", "image/png", "Organigramme.png"],
    ["XLSX", async () => minimalXlsx(), "Grand livre.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "Grand livre.xlsx"],
    ["DOCX", async () => minimalDocx(), "Lettre d'intention.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "Lettre d'intention.docx"],
  ])("shares a %s from the form, stored privately with its timeline event", async (_kind, make, name, contentType, storedName) => {
    const fileId = await newFile();
    const bytes = await make();
    const outcome = await upload(aliceBrowser, fileId, { bytes, name });
    expect(status(outcome)).toBe(302);
    expect(locationOf(outcome.value)).toBe(documentsUrl(fileId));
    expect(await toastOf(outcome.value)).toMatchObject({ type: "success", title: "Document partagé", description: storedName });
    const [row] = await documentsOf(fileId);
    expect(row).toMatchObject({
      uploaderProfileId: alice.profile.id,
      name: storedName,
      contentType,
      sizeBytes: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      withdrawnAt: null,
    });
    expect(row.storageKey).toMatch(new RegExp(`^documents/${fileId}/[0-9a-f]{32}\\.(pdf|jpg|png|xlsx|docx)$`));
    const stored = await getStorage().getObject(row.storageKey);
    expect(stored?.contentType).toBe(contentType);
    expect(Buffer.compare(stored!.bytes, bytes)).toBe(0);
    const [event] = await eventsOf(fileId, "document_shared");
    expect(event).toMatchObject({ actorProfileId: alice.profile.id, actorName: "Alice Lemaire", details: { name: storedName } });
    // Never under the public /uploads/ URLs, whatever the key.
    const publicAttempt = await uploadsFileLoader({ params: { "*": row.storageKey }, request: new Request(`http://localhost:3000/uploads/${row.storageKey}`) } as never);
    expect(publicAttempt.status).toBe(404);
    expect(() => getStorage().publicUrl(row.storageKey)).toThrow(/private/);
  });

  it("decides the type from the bytes: a PNG named .pdf is stored as a PNG", async () => {
    const fileId = await newFile();
    const outcome = await upload(aliceBrowser, fileId, { bytes: await image("png"), name: "scan.pdf", type: "application/pdf" });
    expect(status(outcome)).toBe(302);
    const [row] = await documentsOf(fileId);
    expect(row).toMatchObject({ name: "scan.png", contentType: "image/png" });
  });

  it.each([
    ["HTML named .pdf", () => Buffer.from("<!doctype html><script>alert(1)</script>"), "rapport.pdf", 415, DOCUMENT_MESSAGES.unsupported],
    ["an executable named .docx", () => Buffer.from("MZ\x90\x00\x03\x00\x00\x00"), "statuts.docx", 415, DOCUMENT_MESSAGES.unsupported],
    ["a plain zip named .xlsx", () => buildZip({ "notes.txt": "bonjour" }), "comptes.xlsx", 415, DOCUMENT_MESSAGES.unsupported],
    ["a macro-enabled workbook", () => minimalXlsx({ "xl/vbaProject.bin": "Sub AutoOpen()" }), "comptes.xlsx", 415, DOCUMENT_MESSAGES.unsupported],
    ["a PNG signature over garbage", () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(300)]), "a.png", 415, DOCUMENT_MESSAGES.notImage],
    ["a PDF that does not parse", () => Buffer.from("%PDF-1.4\nceci n'est pas un PDF\n%%EOF"), "bilan.pdf", 415, "Ce fichier n’est pas un PDF valide."],
    ["a password-protected PDF", () => encryptedPdf(), "bilan.pdf", 415, DOCUMENT_MESSAGES.encryptedPdf],
    // Issue 26: 100 KB that pdf-lib would inflate to 100 MB on the server's thread.
    ["a PDF bomb (an object stream inflating to 100 MB)", async () => Buffer.from(pdfBomb(100 * MB, { in: "object-stream" })), "bilan.pdf", 422, "Ce PDF ne peut pas être traité\u00a0: son contenu décompressé dépasse la limite"],
    ["a PNG of 50 megapixels (past the pixel limit)", () => sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: "#fff" } }).png().toBuffer(), "plan.png", 415, DOCUMENT_MESSAGES.notImage],
    ["zero bytes", () => Buffer.alloc(0), "vide.pdf", 400, "Le fichier est vide."],
    ["a name with nothing readable", () => pdf(1), "../.pdf", 400, DOCUMENT_MESSAGES.badName],
  ])("refuses %s with a French message, storing nothing", async (_name, make, name, code, message) => {
    const fileId = await newFile();
    const outcome = await upload(aliceBrowser, fileId, { bytes: await make(), name });
    expect(status(outcome)).toBe(code);
    expect(errorOf(outcome)).toBe(message);
    expect(await documentsOf(fileId)).toEqual([]);
    expect(await storedKeys(fileId)).toEqual([]);
    expect(await eventsOf(fileId, "document_shared")).toEqual([]);
  });

  it("asks for a file when none was chosen", async () => {
    const fileId = await newFile();
    const outcome = await upload(aliceBrowser, fileId, null);
    expect(status(outcome)).toBe(400);
    expect(errorOf(outcome)).toBe("Choisissez un fichier à partager.");
  });

  it("refuses a file over 20 MB (the real limit): just over it, and over the body limit", async () => {
    const fileId = await newFile();
    const justOver = Buffer.alloc(20 * MB + 1, 0x20);
    justOver.write("%PDF-1.7\n", 0, "latin1");
    const over = await upload(aliceBrowser, fileId, { bytes: justOver, name: "gros.pdf" });
    expect(status(over)).toBe(413);
    expect(errorOf(over)).toBe("Le fichier dépasse 20\u00a0Mo.");
    const farOver = await upload(aliceBrowser, fileId, { bytes: Buffer.alloc(21 * MB, 0x20), name: "énorme.pdf" });
    expect(status(farOver)).toBe(413);
    expect(errorOf(farOver)).toBe("Le fichier dépasse 20\u00a0Mo.");
    expect(await documentsOf(fileId)).toEqual([]);
    expect(await storedKeys(fileId)).toEqual([]);
  });

  it("keeps the file's documents within the quota; withdrawn documents do not count", async () => {
    const fileId = await newFile();
    const limits = { maxBytes: 20 * MB, quotaBytes: 1 * MB };
    const first = await noisyPng(600);
    const second = await noisyPng(600);
    const shared = await shareDocument(a, fileId, { name: "un.png", bytes: first }, { limits });
    await expect(shareDocument(b, fileId, { name: "deux.png", bytes: second }, { limits })).rejects.toMatchObject({
      message: "Le dossier dépasse 1\u00a0Mo de documents.",
      code: "too-large",
    });
    expect((await documentsOf(fileId)).map((d) => d.name)).toEqual(["un.png"]);
    expect(await storedKeys(fileId)).toHaveLength(1);
    await withdrawDocument(a, fileId, shared.documentId);
    await shareDocument(b, fileId, { name: "deux.png", bytes: second }, { limits });
    expect((await documentsOf(fileId)).map((d) => d.name).sort()).toEqual(["deux.png", "un.png"]);
  });

  it("sanitises the name: path parts, bidi overrides, control characters; accents kept", async () => {
    const fileId = await newFile();
    await shareDocument(a, fileId, { name: "../../etc/Prévisionnel\u202E\u0007 2026.pdf", bytes: await pdf(1) });
    const outcome = await upload(aliceBrowser, fileId, { bytes: await pdf(1), name: "..\\..\\Bilan société.pdf" });
    expect(status(outcome)).toBe(302);
    expect((await documentsOf(fileId)).map((d) => d.name).sort()).toEqual(["Bilan société.pdf", "Prévisionnel 2026.pdf"]);
  });

  it("deletes the stored bytes when the row cannot be written (the file was closed meanwhile)", async () => {
    const fileId = await newFile();
    const real = getStorage();
    const puts: string[] = [];
    const racing: StorageDriver = {
      ...real,
      async putObject(key, bytes, contentType) {
        await real.putObject(key, bytes, contentType);
        puts.push(key);
        // The other member concludes the file between the store and the transaction.
        await t.db!.update(collaborationFiles).set({ stage: "concluded" }).where(eq(collaborationFiles.id, fileId));
      },
    };
    setStorage(racing);
    try {
      await expect(shareDocument(a, fileId, { name: "tard.pdf", bytes: await pdf(1) })).rejects.toMatchObject({ code: "conflict" });
    } finally {
      setStorage(real);
    }
    expect(puts).toHaveLength(1);
    expect(await real.getObject(puts[0])).toBeNull();
    expect(await documentsOf(fileId)).toEqual([]);
  });

  it("refuses new documents on a closed file", async () => {
    const fileId = await newFile();
    await t.db!.update(collaborationFiles).set({ stage: "abandoned" }).where(eq(collaborationFiles.id, fileId));
    const outcome = await upload(aliceBrowser, fileId, { bytes: await pdf(1), name: "x.pdf" });
    expect(status(outcome)).toBe(409);
    expect(errorOf(outcome)).toBe("Ce dossier est clos\u00a0: il ne peut plus être modifié.");
    const page = await list(aliceBrowser, fileId);
    expect((page.value as { room: { closed: boolean } }).room.closed).toBe(true);
  });

  it("e-mails the counterpart without the document's name or the client, once per burst, and respects the files preference", async () => {
    const fileId = await newFile();
    await setEmailFrequency(t.db!, [bob], "off", ["files"]);
    try {
      await shareDocument(a, fileId, { name: "sans-mail.pdf", bytes: await pdf(1) });
      expect(await t.db!.select().from(mailOutbox)).toEqual([]);
    } finally {
      await setEmailFrequency(t.db!, [bob], "immediate", ["files"]);
    }

    await shareDocument(a, fileId, { name: `${CLIENT_CANARY} bilan.pdf`, bytes: await pdf(1) });
    await shareDocument(a, fileId, { name: "annexe.pdf", bytes: await pdf(1) });
    const mails = await t.db!.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: bob.email, kind: "collaboration-document" });
    expect(mails[0].subject).toContain("document");
    for (const part of [mails[0].subject, mails[0].html, mails[0].text]) {
      expect(part).not.toContain(CLIENT_CANARY);
      expect(part).not.toContain("bilan.pdf");
    }
    expect(mails[0].text).toContain("Alice Lemaire a partagé un document");
    expect(mails[0].text).toContain(`/dashboard/dossiers/${fileId}`);
    // The uploader is not e-mailed about their own document.
    expect(mails.some((m) => m.toAddress === alice.email)).toBe(false);
  });
});

describe("only the file's two members", () => {
  it.each([
    ["a third member", () => carolBrowser, () => c],
    ["an administrator", () => adminBrowser, () => fileActor(admin.profile)],
  ])("%s gets 404 on the list, the document, the upload and the withdrawal", async (_who, browser, actor) => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "secret.pdf", bytes: await pdf(1) });
    expect(status(await list(browser(), fileId))).toBe(404);
    for (const mode of ["view", "download"] as const) {
      const res = await fetchDocument(browser(), fileId, documentId, mode);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("text/plain");
    }
    expect(status(await upload(browser(), fileId, { bytes: await pdf(1), name: "intrus.pdf" }))).toBe(404);
    expect(status(await withdrawVia(browser(), fileId, documentId))).toBe(404);
    await expect(openDocument(actor(), fileId, documentId, "download")).rejects.toMatchObject({ code: "not-found" });
    await expect(listDocuments(actor(), fileId)).rejects.toMatchObject({ code: "not-found" });
    await expect(withdrawDocument(actor(), fileId, documentId)).rejects.toMatchObject({ code: "not-found" });
    // Nothing happened: one document, not withdrawn, never opened.
    const [row] = await documentsOf(fileId);
    expect(row.withdrawnAt).toBeNull();
    expect(await t.db!.select().from(documentAccessLog).where(eq(documentAccessLog.documentId, documentId))).toEqual([]);
  });

  it("a document of another file is not reachable through this file's address", async () => {
    const fileId = await newFile();
    const other = await newFile();
    const { documentId } = await shareDocument(a, other, { name: "ailleurs.pdf", bytes: await pdf(1) });
    expect((await fetchDocument(bobBrowser, fileId, documentId, "download")).status).toBe(404);
    expect((await fetchDocument(bobBrowser, fileId, "not-a-uuid", "download")).status).toBe(404);
    expect(status(await withdrawVia(aliceBrowser, fileId, documentId))).toBe(404);
  });
});

describe("opening: watermark, headers and the access log", () => {
  it("serves a PDF inline to the counterpart, stamped with their name, firm and the date on every page", async () => {
    const fileId = await newFile();
    const original = await pdf(3);
    const { documentId } = await shareDocument(a, fileId, { name: "Bilan société.pdf", bytes: original });
    const res = await fetchDocument(bobBrowser, fileId, documentId, "view");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="Bilan societe.pdf"; filename*=UTF-8''Bilan%20soci%C3%A9t%C3%A9.pdf`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const served = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get("content-length")).toBe(String(served.byteLength));
    expect(Buffer.compare(Buffer.from(served), original)).not.toBe(0);
    const doc = await PDFDocument.load(served);
    expect(doc.getPageCount()).toBe(3);
    const text = await pdfText(served);
    expect(text).not.toBe(await pdfText(original));
    const stamp = /Consulté par Jeanne Martin \(Cabinet X\) le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2} — document confidentiel/g;
    // Diagonal + footer on each of the 3 pages.
    expect(text.match(stamp)).toHaveLength(6);
    expect(text).toContain("Page 2 du bilan");
    // The stored file stays as shared.
    const [row] = await documentsOf(fileId);
    expect(Buffer.compare((await getStorage().getObject(row.storageKey))!.bytes, original)).toBe(0);
  });

  it("marks each opening with its own id, the access log row's, in the page content and the metadata", async () => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "a.pdf", bytes: await pdf(2) });
    const first = await openDocument(b, fileId, documentId, "view");
    const second = await openDocument(b, fileId, documentId, "download");
    const log = await t.db!.select().from(documentAccessLog).where(eq(documentAccessLog.documentId, documentId));
    expect(log.map((l) => l.id).sort()).toEqual([first.openingId, second.openingId].sort());
    expect(first.openingId).not.toBe(second.openingId);
    expect(await pdfText(stamped(first))).toContain(`Ouverture ${first.openingId}`);
    expect((await PDFDocument.load(stamped(first))).getKeywords()).toContain(first.openingId);
    expect(await pdfText(stamped(second))).not.toContain(first.openingId);
  });

  it("refuses to open a stored PDF bomb (shared before issue 26) with the French message, logging nothing", async () => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "a.pdf", bytes: await pdf(1) });
    const [row] = await documentsOf(fileId);
    await getStorage().putObject(row.storageKey, pdfBomb(100 * MB, { in: "object-stream" }), "application/pdf");
    await expect(openDocument(b, fileId, documentId, "view")).rejects.toMatchObject({
      message: DOCUMENT_MESSAGES.inflatedTooLarge,
      code: "unprocessable",
    });
    expect(await t.db!.select().from(documentAccessLog).where(eq(documentAccessLog.documentId, documentId))).toEqual([]);
  });

  it("stamps the date of the opening in Paris time", async () => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "a.pdf", bytes: await pdf(1) });
    const opened = await openDocument(b, fileId, documentId, "view", new Date("2026-11-24T09:42:00Z"));
    expect(await pdfText(stamped(opened))).toContain("Consulté par Jeanne Martin (Cabinet X) le 24/11/2026 à 10:42 — document confidentiel");
  });

  it("downloads a PDF as an attachment, also watermarked", async () => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "Bilan.pdf", bytes: await pdf(2) });
    const res = await fetchDocument(bobBrowser, fileId, documentId, "download");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Bilan.pdf"; filename*=UTF-8''Bilan.pdf`);
    expect(await pdfText(new Uint8Array(await res.arrayBuffer()))).toContain("Consulté par Jeanne Martin (Cabinet X)");
  });

  it("stamps pages shown turned (scans) and pages of any size", async () => {
    const source = await PDFDocument.create();
    for (const [turn, size] of [[90, [595, 842]], [180, [300, 300]], [270, [842, 595]], [0, [2000, 400]]] as const) {
      source.addPage([...size]).setRotation(degrees(turn));
    }
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "scan.pdf", bytes: Buffer.from(await source.save()) });
    const opened = await openDocument(b, fileId, documentId, "view", new Date("2026-11-24T09:42:00Z"));
    const served = await PDFDocument.load(stamped(opened));
    expect(served.getPages().map((p) => p.getRotation().angle)).toEqual([90, 180, 270, 0]);
    expect((await pdfText(stamped(opened))).match(/Consulté par Jeanne Martin \(Cabinet X\) le 24\/11\/2026 à 10:42 — document confidentiel/g)).toHaveLength(8);
  });

  it("watermarks names the font cannot draw instead of failing", async () => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(b, fileId, { name: "a.pdf", bytes: await pdf(1) });
    const opened = await openDocument({ ...a, firstName: "Łucja", lastName: "Wąs 李" }, fileId, documentId, "view");
    expect(await pdfText(stamped(opened))).toContain("Consulté par ?ucja Was ?");
  });

  it.each([
    ["JPEG", () => image("jpeg"), "photo.jpg", "image/jpeg"],
    ["PNG", () => image("png"), "plan.png", "image/png"],
    ["XLSX", async () => minimalXlsx(), "comptes.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ["DOCX", async () => minimalDocx(), "lettre.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
  ])("serves a %s as an attachment, even when asked to view it, unchanged", async (_kind, make, name, contentType) => {
    const fileId = await newFile();
    const bytes = await make();
    const { documentId } = await shareDocument(a, fileId, { name, bytes });
    const res = await fetchDocument(bobBrowser, fileId, documentId, "view");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(contentType);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), bytes)).toBe(0);
    const log = await t.db!.select().from(documentAccessLog).where(eq(documentAccessLog.documentId, documentId));
    expect(log.map((l) => l.action)).toEqual(["download"]);
    // Streamed from storage rather than read whole into memory.
    const opened = await openDocument(b, fileId, documentId, "download");
    expect(opened.kind).toBe("stored");
    if (opened.kind === "stored") opened.object.body.destroy();
  });

  it("logs every view and download; the uploader sees who opened it, the counterpart sees no log", async () => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "Bilan.pdf", bytes: await pdf(1) });
    await fetchDocument(bobBrowser, fileId, documentId, "view");
    await fetchDocument(bobBrowser, fileId, documentId, "download");
    await fetchDocument(aliceBrowser, fileId, documentId, "view");
    const log = await t.db!.select().from(documentAccessLog).where(eq(documentAccessLog.documentId, documentId)).orderBy(documentAccessLog.createdAt);
    expect(log.map((l) => [l.viewerProfileId, l.viewerName, l.action])).toEqual([
      [bob.profile.id, "Jeanne Martin", "view"],
      [bob.profile.id, "Jeanne Martin", "download"],
      [alice.profile.id, "Alice Lemaire", "view"],
    ]);
    // The counterpart's first opening joins the timeline, once.
    const viewed = await eventsOf(fileId, "document_viewed");
    expect(viewed).toHaveLength(1);
    expect(viewed[0]).toMatchObject({ actorProfileId: bob.profile.id, details: { name: "Bilan.pdf" } });

    const mine = await listDocuments(a, fileId);
    expect(mine.documents[0].accesses.map((x) => x.label)).toEqual([
      expect.stringMatching(/^Consulté par vous le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}$/),
      expect.stringMatching(/^Téléchargé par Jeanne Martin le /),
      expect.stringMatching(/^Consulté par Jeanne Martin le /),
    ]);
    expect(mine.documents[0].accessCount).toBe(3);
    const theirs = await listDocuments(b, fileId);
    expect(theirs.documents[0]).toMatchObject({ name: "Bilan.pdf", byMe: false, uploaderName: "Alice Lemaire", accesses: [], accessCount: 0 });
  });

  it("lists the latest openings of a document opened many times, newest first, with the count of all", async () => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "Tres-lu.pdf", bytes: await pdf(1) });
    const base = Date.UTC(2026, 0, 5, 9, 0);
    const openings = DOCUMENT_ACCESSES_SHOWN + 5;
    await t.db!.insert(documentAccessLog).values(
      Array.from({ length: openings }, (_, i) => ({
        documentId,
        viewerProfileId: bob.profile.id,
        viewerName: "Jeanne Martin",
        action: i % 2 ? ("download" as const) : ("view" as const),
        createdAt: new Date(base + i * 60_000),
      })),
    );
    const doc = (await listDocuments(a, fileId)).documents[0];
    expect(doc.accessCount).toBe(openings);
    expect(doc.accesses).toHaveLength(DOCUMENT_ACCESSES_SHOWN);
    const times = doc.accesses.map((x) => x.at);
    expect(times[0]).toBe(new Date(base + (openings - 1) * 60_000).toISOString());
    expect(times).toEqual([...times].sort().reverse());
  });
});

describe("paging (a large file)", () => {
  it("lists one page of logical documents at a time, newest first, with the count and the earlier versions of each", async () => {
    const fileId = await newFile();
    // 30 documents, the oldest one with a second version: 30 logical documents, 31 rows.
    await t.db!.execute(sql`
      insert into collaboration_documents (file_id, uploader_profile_id, name, content_type, size_bytes, sha256, storage_key, created_at)
      select ${fileId}::uuid, ${alice.profile.id}::uuid, 'piece-' || lpad(n::text, 2, '0') || '.pdf', 'application/pdf', 1000 + n,
        md5(n::text) || md5(n::text), 'test/absent-' || n, now() - (n || ' minutes')::interval
      from generate_series(1, 30) n`);
    await t.db!.execute(sql`
      insert into collaboration_documents (file_id, uploader_profile_id, name, content_type, size_bytes, sha256, storage_key, created_at, lineage_id, version)
      select file_id, uploader_profile_id, name, content_type, size_bytes, sha256, storage_key || '-v2', now() - interval '90 minutes', id, 2
      from collaboration_documents where file_id = ${fileId}::uuid and name = 'piece-30.pdf'`);
    const pages = Math.ceil(30 / DOCUMENTS_PAGE_SIZE);
    expect(pages).toBeGreaterThan(1);
    const first = await listDocuments(a, fileId);
    expect(first).toMatchObject({ page: 1, pageCount: pages, total: 30 });
    expect(first.documents).toHaveLength(DOCUMENTS_PAGE_SIZE);
    expect(first.documents[0].name).toBe("piece-01.pdf");
    const names: string[] = [];
    for (let page = 1; page <= pages; page++) {
      const room = await listDocuments(a, fileId, page);
      expect(room).toMatchObject({ page, pageCount: pages, total: 30 });
      names.push(...room.documents.map((d) => d.name));
    }
    // Every logical document once, newest first; the one with two versions is listed once, version 2 first.
    expect(names).toEqual(Array.from({ length: 30 }, (_, i) => `piece-${String(i + 1).padStart(2, "0")}.pdf`));
    const last = await listDocuments(a, fileId, pages);
    expect(last.documents.at(-1)).toMatchObject({ name: "piece-30.pdf", version: 2, earlierVersions: [expect.objectContaining({ version: 1 })] });
    // Past the last page: the last page; through the page's URL too.
    expect((await listDocuments(b, fileId, 99)).page).toBe(pages);
    const paged = (await call(documentsLoader, new Request(`http://localhost:3000${documentsUrl(fileId)}?page=2`, { headers: bobBrowser.headers }), { fileId }))
      .value as Awaited<ReturnType<typeof documentsLoader>>;
    expect(paged.room.page).toBe(2);
    expect(paged.room.documents.map((d) => d.name)).toEqual(names.slice(DOCUMENTS_PAGE_SIZE, 2 * DOCUMENTS_PAGE_SIZE));
    const junk = (await call(documentsLoader, new Request(`http://localhost:3000${documentsUrl(fileId)}?page=abc`, { headers: bobBrowser.headers }), { fileId }))
      .value as Awaited<ReturnType<typeof documentsLoader>>;
    expect(junk.room.page).toBe(1);
  });
});

describe("withdrawal", () => {
  it("makes the content unreachable (404) for both, keeps the log, and lists the row as 'Retiré le' for both sides", async () => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "Offre.pdf", bytes: await pdf(1) });
    expect((await fetchDocument(bobBrowser, fileId, documentId, "view")).status).toBe(200);
    const [before] = await documentsOf(fileId);

    // Only the uploader may withdraw it.
    const refused = await withdrawVia(bobBrowser, fileId, documentId);
    expect(status(refused)).toBe(403);
    expect(errorOf(refused)).toBe(DOCUMENT_MESSAGES.notUploader);

    const outcome = await withdrawVia(aliceBrowser, fileId, documentId);
    expect(status(outcome)).toBe(302);
    expect(await toastOf(outcome.value)).toMatchObject({ type: "success", title: "Document retiré" });

    for (const browser of [bobBrowser, aliceBrowser]) {
      const res = await fetchDocument(browser, fileId, documentId, "view");
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(DOCUMENT_MESSAGES.notFound);
    }
    // The other side still sees the row: who withdrew it and when (decision 046), nothing to open.
    const bobList = (await list(bobBrowser, fileId)).value as Awaited<ReturnType<typeof documentsLoader>>;
    expect(bobList.room.documents).toHaveLength(1);
    expect(bobList.room.documents[0]).toMatchObject({ name: "Offre.pdf", byMe: false, withdrawnBy: "Alice Lemaire", accesses: [] });
    expect(bobList.room.documents[0].withdrawnAt).toEqual(expect.any(String));
    const aliceList = await listDocuments(a, fileId);
    expect(aliceList.documents).toHaveLength(1);
    expect(aliceList.documents[0].withdrawnAt).toEqual(expect.any(String));
    expect(aliceList.documents[0].withdrawnBy).toBe("vous");
    expect(aliceList.documents[0].accesses).toHaveLength(1);
    expect(aliceList.usedBytes).toBe(0);
    // The bytes are gone; the row, its hash and the log stay.
    expect(await getStorage().getObject(before.storageKey)).toBeNull();
    const [after] = await documentsOf(fileId);
    expect(after.sha256).toBe(before.sha256);
    expect(await t.db!.select().from(documentAccessLog).where(eq(documentAccessLog.documentId, documentId))).toHaveLength(1);
    const [event] = await eventsOf(fileId, "document_withdrawn");
    expect(event).toMatchObject({ actorProfileId: alice.profile.id, details: { name: "Offre.pdf" } });

    // Twice: a conflict for the uploader, nothing for the other side.
    const again = await withdrawVia(aliceBrowser, fileId, documentId);
    expect(status(again)).toBe(409);
    expect(errorOf(again)).toBe(DOCUMENT_MESSAGES.alreadyWithdrawn);
    expect(status(await withdrawVia(bobBrowser, fileId, documentId))).toBe(404);
  });
});

describe("the page", () => {
  it("lists nothing at first, then the shared documents with their sizes", async () => {
    const fileId = await newFile();
    const empty = (await list(bobBrowser, fileId)).value as Awaited<ReturnType<typeof documentsLoader>>;
    expect(empty.room.documents).toEqual([]);
    expect(empty.room.quotaBytes).toBe(200 * MB);
    await shareDocument(a, fileId, { name: "a.pdf", bytes: await pdf(1) });
    await shareDocument(b, fileId, { name: "b.docx", bytes: minimalDocx() });
    const page = (await list(bobBrowser, fileId)).value as Awaited<ReturnType<typeof documentsLoader>>;
    expect(page.room.documents.map((d) => [d.name, d.byMe, d.typeLabel])).toEqual([
      ["b.docx", true, "Document Word"],
      ["a.pdf", false, "PDF"],
    ]);
    expect(page.room.usedBytes).toBe(page.room.documents.reduce((n, d) => n + d.sizeBytes, 0));
  });
});

describe("storage drivers", () => {
  const drivers: Array<[string, () => StorageDriver]> = [
    ["local directory", () => createLocalStorage(path.join(dataDir(), "driver-test"), "/uploads/")],
    ["database", () => createDatabaseStorage()],
  ];

  it.each(drivers)("%s: put, get and delete documents and images", async (_name, make) => {
    const driver = make();
    const cases: Array<[string, Uint8Array, string]> = [
      [`documents/${randomBytes(4).toString("hex")}/a1.pdf`, await pdf(1), "application/pdf"],
      [`documents/${randomBytes(4).toString("hex")}/a2.docx`, minimalDocx(), "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
      [`documents/${randomBytes(4).toString("hex")}/a3.xlsx`, minimalXlsx(), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
      [`user1/${Date.now()}-abc.webp`, await sharp({ create: { width: 4, height: 4, channels: 3, background: "#fff" } }).webp().toBuffer(), "image/webp"],
    ];
    for (const [key, bytes, contentType] of cases) {
      await driver.putObject(key, bytes, contentType);
      const got = await driver.getObject(key);
      expect(got?.contentType).toBe(contentType);
      expect(Buffer.compare(got!.bytes, Buffer.from(bytes))).toBe(0);
      // Writing again replaces.
      await driver.putObject(key, Buffer.from(bytes).subarray(0, 10), contentType);
      expect((await driver.getObject(key))!.bytes.byteLength).toBe(10);
      await driver.deleteObject(key);
      expect(await driver.getObject(key)).toBeNull();
    }
    await expect(driver.putObject("documents/x/a.pdf", Buffer.from("x"), "image/png")).rejects.toThrow(/content type/);
    await expect(driver.putObject("../escape.pdf", Buffer.from("x"), "application/pdf")).rejects.toThrow(/invalid storage key/);
    expect(await driver.getObject("../escape.pdf")).toBeNull();
    expect(await driver.getObject("documents/x/missing.pdf")).toBeNull();
    expect(driver.publicUrl("user1/a.webp")).toBe("/uploads/user1/a.webp");
    expect(() => driver.publicUrl("documents/x/a.pdf")).toThrow(/private/);
  });

  it("database: reads objects written to the local directory before it existed, and deletes them there", async () => {
    const legacy = createLocalStorage(path.join(dataDir(), "legacy"), "/uploads/");
    const driver = createDatabaseStorage({ legacy });
    const key = `user2/${Date.now()}-old.webp`;
    await legacy.putObject(key, Buffer.from("old image"), "image/webp");
    expect((await driver.getObject(key))?.bytes.toString()).toBe("old image");
    await driver.deleteObject(key);
    expect(await legacy.getObject(key)).toBeNull();
  });

  it("getStorage picks the database on PostgreSQL and the local directory on PGlite", async () => {
    const fileId = await newFile();
    const { documentId } = await shareDocument(a, fileId, { name: "où.pdf", bytes: await pdf(1) });
    const [row] = await documentsOf(fileId);
    expect(row.id).toBe(documentId);
    const inTable = await t.db!.select({ key: storedObjects.key, size: storedObjects.sizeBytes }).from(storedObjects).where(eq(storedObjects.key, row.storageKey));
    const onDisk = existsSync(path.join(dataDir(), "uploads", row.storageKey));
    if (t.driver === "pg") {
      expect(inTable).toEqual([{ key: row.storageKey, size: row.sizeBytes }]);
      expect(onDisk).toBe(false);
    } else {
      expect(inTable).toEqual([]);
      expect(onDisk).toBe(true);
    }
  });
});

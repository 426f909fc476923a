// The due-diligence list and Q&A of a collaboration file (issue 32 §3): the sides of the two
// founding members, the list from a template, items edited, statuses moved by the right side, a
// request answered with an uploaded document, questions per side with their notifications, the
// overview's progress, the XLSX and PDF exports, and nothing reached by a third member.
import ExcelJS from "exceljs";
import { and, eq, sql } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { collaborationEvents, collaborationFiles, dueDiligenceRequests, notifications } from "~/db/schema";
import { fileActor, type FileActor } from "~/features/collaboration/file-access.server";
import { shareDocument } from "~/features/collaboration/documents.server";
import { DD_MESSAGES, DD_PAGE_SIZE, dueDiligenceExportUrl, dueDiligenceItemUrl, dueDiligenceUrl } from "~/features/due-diligence/due-diligence-rules";
import { DD_TEMPLATES } from "~/features/due-diligence/due-diligence-templates";
import { addItem, answerQuestion, askQuestion, closeQuestion, createListFromTemplate, linkDocument, removeItem, setItemStatus, updateItem } from "~/features/due-diligence/due-diligence.server";
import { getDueDiligenceItem, getDueDiligenceList } from "~/features/due-diligence/due-diligence-read.server";
import { XLSX_HEADERS } from "~/features/due-diligence/export.server";
import { loader as exportLoader } from "~/routes/member/dashboard/file/due-diligence-export";
import { action as itemAction, loader as itemLoader } from "~/routes/member/dashboard/file/due-diligence-item";
import { action as listAction, loader as listLoader } from "~/routes/member/dashboard/file/due-diligence";
import { loader as overviewLoader } from "~/routes/member/dashboard/file/overview";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { call, checkTimelineEvents, openFileBetween, outcomeStatus as status, useFileTestEnvironment } from "./file-helpers";
import { bodyOf, signIn, toastOf, type Browser } from "./mandates-helpers";

const t = useTestDatabase();
useFileTestEnvironment(t, "due-diligence", { BETTER_AUTH_SECRET: "test-secret-for-due-diligence-0123456789abcdef" });
checkTimelineEvents(t);

let alice: CreatedMember; // buyer's adviser: acquéreur
let bob: CreatedMember; // seller's adviser: cédant
let carol: CreatedMember;
let a: FileActor;
let b: FileActor;
let c: FileActor;
let aliceBrowser: Browser;
let bobBrowser: Browser;
let carolBrowser: Browser;

beforeAll(async () => {
  seedFactories(3232);
  const db = t.db!;
  alice = await createMember(db, { profile: { firstName: "Alice", lastName: "Lemaire", membershipType: "premium", college: "transmission_entreprises" } });
  bob = await createMember(db, { profile: { firstName: "Bruno", lastName: "Martin", membershipType: "premium", college: "transmission_commerces" } });
  carol = await createMember(db, { profile: { membershipType: "premium" } });
  a = fileActor(alice.profile);
  b = fileActor(bob.profile);
  c = fileActor(carol.profile);
  aliceBrowser = await signIn(alice);
  bobBrowser = await signIn(bob);
  carolBrowser = await signIn(carol);
});

async function newFile(): Promise<string> {
  return (await openFileBetween(t.db!, alice, bob, { buyer: "Acheteur SAS", seller: "Cible Confidentielle SARL" })).fileId;
}

async function pdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Extrait Kbis", { x: 50, y: 780, size: 14, font });
  return doc.save();
}

const url = (path: string) => `http://localhost:3000${path}`;
const get = (loader: (args: never) => Promise<unknown>, browser: Browser, path: string, params: Record<string, string>) =>
  call(loader, new Request(url(path), { headers: browser.headers }), params);
const post = (action: (args: never) => Promise<unknown>, browser: Browser, path: string, params: Record<string, string>, fields: Record<string, string>) =>
  call(action, new Request(url(path), { method: "POST", headers: browser.headers, body: new URLSearchParams(fields) }), params);

async function notificationsOf(m: CreatedMember): Promise<{ title: string; link: string | null }[]> {
  return t.db!.select({ title: notifications.title, link: notifications.link }).from(notifications).where(eq(notifications.userId, m.user.id));
}

describe("the list", () => {
  it("gives each founding member the side of their mandate and starts from the seller's college template", async () => {
    const fileId = await newFile();
    const seen = await getDueDiligenceList(a, fileId);
    expect(seen.side).toBe("acquereur");
    expect((await getDueDiligenceList(b, fileId)).side).toBe("cedant");
    // Bob holds the seller's mandate and works on goodwill transfers.
    expect(seen.suggestedTemplate).toBe("fonds_de_commerce");
    expect(seen.items).toEqual([]);
    expect(seen.canEdit).toBe(true);
  });

  it("creates the list once through the page, with its notification and timeline event", async () => {
    const fileId = await newFile();
    const created = await post(listAction, aliceBrowser, dueDiligenceUrl(fileId), { fileId }, { intent: "create", template: "titres" });
    expect(status(created)).toBe(302);
    expect((await toastOf(created.value))?.title).toBe(DD_MESSAGES.created);
    const list = await getDueDiligenceList(b, fileId);
    expect(list.items).toHaveLength(DD_TEMPLATES.titres.length);
    expect(list.progress.label).toBe(`0\u00a0/\u00a0${DD_TEMPLATES.titres.length} fourni ou validé`);
    expect(new Set(list.items.map((i) => i.category)).size).toBe(6);
    const again = await post(listAction, bobBrowser, dueDiligenceUrl(fileId), { fileId }, { intent: "create", template: "titres" });
    expect(status(again)).toBe(409);
    expect(bodyOf<{ error: string }>(again.value).error).toBe(DD_MESSAGES.alreadyListed);
    expect((await notificationsOf(bob)).some((n) => n.title.startsWith("Nouvelle demande de diligences") && n.link === dueDiligenceUrl(fileId))).toBe(true);
    const events = await t.db!.select().from(collaborationEvents).where(and(eq(collaborationEvents.fileId, fileId), eq(collaborationEvents.kind, "dd_list_created")));
    expect(events).toHaveLength(1);
  });

  it("adds, edits and removes items; checks owners, dates and ids against the file", async () => {
    const fileId = await newFile();
    const other = await newFile();
    const id = await addItem(a, fileId, { category: "fiscal", title: "Avis d’imposition 2025" });
    await updateItem(a, fileId, id, { title: "Avis d’imposition 2025 et 2024", ownerId: bob.profile.id, dueDate: "2026-12-15" });
    const item = (await getDueDiligenceItem(b, fileId, id)).item;
    expect(item).toMatchObject({ title: "Avis d’imposition 2025 et 2024", ownerName: "Bruno Martin", dueDate: "2026-12-15", ownerId: bob.profile.id });
    const badOwner = await post(itemAction, aliceBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }, { intent: "update", title: "x", ownerId: carol.profile.id });
    expect(status(badOwner)).toBe(400);
    expect(bodyOf<{ error: string }>(badOwner.value).error).toBe(DD_MESSAGES.badOwner);
    const badDate = await post(itemAction, aliceBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }, { intent: "update", title: "x", dueDate: "2026-02-30" });
    expect(status(badDate)).toBe(400);
    // The item's id under another file of the same members: a 404.
    expect(status(await get(itemLoader, aliceBrowser, dueDiligenceItemUrl(other, id), { fileId: other, requestId: id }))).toBe(404);
    expect(status(await post(itemAction, aliceBrowser, dueDiligenceItemUrl(other, id), { fileId: other, requestId: id }, { intent: "remove" }))).toBe(404);
    expect(status(await get(itemLoader, aliceBrowser, dueDiligenceItemUrl(fileId, "nope"), { fileId, requestId: "nope" }))).toBe(404);
    const removed = await post(itemAction, bobBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }, { intent: "remove" });
    expect(status(removed)).toBe(302);
    expect(removed.value instanceof Response && removed.value.headers.get("location")).toBe(dueDiligenceUrl(fileId));
    expect(await t.db!.select().from(dueDiligenceRequests).where(eq(dueDiligenceRequests.id, id))).toEqual([]);
  });

  it("keeps a third member out of every page, export and form (404)", async () => {
    const fileId = await newFile();
    const id = await addItem(a, fileId, { category: "juridique", title: "Statuts" });
    expect(status(await get(listLoader, carolBrowser, dueDiligenceUrl(fileId), { fileId }))).toBe(404);
    expect(status(await get(itemLoader, carolBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }))).toBe(404);
    expect(status(await get(exportLoader, carolBrowser, dueDiligenceExportUrl(fileId, "xlsx"), { fileId }))).toBe(404);
    expect(status(await post(listAction, carolBrowser, dueDiligenceUrl(fileId), { fileId }, { intent: "add", category: "social", title: "x" }))).toBe(404);
    expect(status(await post(itemAction, carolBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }, { intent: "remove" }))).toBe(404);
    await expect(setItemStatus(c, fileId, id, "in_progress")).rejects.toMatchObject({ code: "not-found" });
    await expect(removeItem(c, fileId, id)).rejects.toMatchObject({ code: "not-found" });
  });
});

describe("paging (a large list)", () => {
  it("shows one page of requests in the list's order, the whole list's progress and counts per category", async () => {
    const fileId = await newFile();
    await t.db!.execute(sql`
      insert into due_diligence_requests (file_id, category, title, position, status, created_by)
      select ${fileId}::uuid, (array['juridique', 'social', 'fiscal', 'financier', 'immobilier', 'contrats'])[1 + n % 6]::dd_category,
        'Demande ' || lpad(n::text, 2, '0'), n, (case when n % 4 = 0 then 'validated' else 'requested' end)::dd_status, ${alice.profile.id}::uuid
      from generate_series(1, 60) n`);
    const pages = Math.ceil(60 / DD_PAGE_SIZE);
    expect(pages).toBeGreaterThan(1);
    const first = await getDueDiligenceList(a, fileId);
    expect(first).toMatchObject({ page: 1, pageCount: pages, total: 60 });
    expect(first.items).toHaveLength(DD_PAGE_SIZE);
    expect(first.progress.label).toBe("15\u00a0/\u00a060 fournis ou validés");
    expect(Object.values(first.byCategory).reduce((x, y) => x + (y ?? 0), 0)).toBe(60);
    expect(first.byCategory.juridique).toBe(10);
    expect(first.items[0]).toMatchObject({ category: "juridique", title: "Demande 06" });
    const seen: { category: string; title: string; id: string }[] = [];
    for (let page = 1; page <= pages; page++) {
      const list = await getDueDiligenceList(b, fileId, page);
      expect(list).toMatchObject({ page, pageCount: pages, total: 60, progress: first.progress });
      seen.push(...list.items);
    }
    expect(new Set(seen.map((i) => i.id)).size).toBe(60);
    expect(seen.at(-1)).toMatchObject({ category: "contrats", title: "Demande 59" });
    const paged = (await call(listLoader, new Request(url(`${dueDiligenceUrl(fileId)}?page=2`), { headers: aliceBrowser.headers }), { fileId })).value as Awaited<
      ReturnType<typeof listLoader>
    >;
    expect(paged.list.page).toBe(2);
    expect(paged.list.items.map((i) => i.id)).toEqual(seen.slice(DD_PAGE_SIZE, 2 * DD_PAGE_SIZE).map((i) => i.id));
    expect((await getDueDiligenceList(a, fileId, 40)).page).toBe(pages);
  });
});

describe("answering a request", () => {
  it("is answered with a document uploaded from the item, provided by the seller's side and validated by the buyer's", async () => {
    const fileId = await newFile();
    const id = await addItem(a, fileId, { category: "juridique", title: "Extrait Kbis de moins de trois mois" });
    await expect(setItemStatus(b, fileId, id, "provided")).rejects.toMatchObject({ code: "conflict", message: DD_MESSAGES.needsDocument });
    await expect(setItemStatus(a, fileId, id, "in_progress")).rejects.toMatchObject({ code: "forbidden" });
    const form = new FormData();
    form.set("file", new File([new Uint8Array(await pdf())], "kbis.pdf", { type: "application/pdf" }));
    const uploaded = await call(itemAction, new Request(url(dueDiligenceItemUrl(fileId, id)), { method: "POST", headers: bobBrowser.headers, body: form }), { fileId, requestId: id });
    expect(status(uploaded)).toBe(302);
    const page = await getDueDiligenceItem(a, fileId, id);
    expect(page.documents.map((d) => d.name)).toEqual(["kbis.pdf"]);
    expect(page.item.documents).toBe(1);
    await setItemStatus(b, fileId, id, "provided");
    await expect(setItemStatus(b, fileId, id, "validated")).rejects.toMatchObject({ code: "forbidden" });
    const validated = await post(itemAction, aliceBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }, { intent: "status", status: "validated" });
    expect(status(validated)).toBe(302);
    expect((await getDueDiligenceList(a, fileId)).progress.label).toBe("1\u00a0/\u00a01 fourni ou validé");
    const overview = await get(overviewLoader, aliceBrowser, `/dashboard/dossiers/${fileId}`, { fileId });
    expect((overview.value as { ddProgress: { done: number; total: number } }).ddProgress).toMatchObject({ done: 1, total: 1 });
  });

  it("links only a document of the same file, once, and not a withdrawn one", async () => {
    const fileId = await newFile();
    const other = await newFile();
    const id = await addItem(a, fileId, { category: "financier", title: "Bilans" });
    const foreign = await shareDocument(b, other, { name: "bilan.pdf", bytes: await pdf() });
    await expect(linkDocument(b, fileId, id, foreign.documentId)).rejects.toMatchObject({ code: "not-found" });
    const own = await shareDocument(b, fileId, { name: "bilan.pdf", bytes: await pdf() });
    await linkDocument(b, fileId, id, own.documentId);
    const twice = await post(itemAction, bobBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }, { intent: "link", documentId: own.documentId });
    expect(status(twice)).toBe(409);
    expect(bodyOf<{ error: string }>(twice.value).error).toBe(DD_MESSAGES.alreadyLinked);
    expect(status(await post(itemAction, bobBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }, { intent: "link", documentId: "x" }))).toBe(400);
  });
});

describe("questions", () => {
  it("asks, answers and closes a common question, notifying the other side each time", async () => {
    const fileId = await newFile();
    const id = await addItem(a, fileId, { category: "social", title: "Registre unique du personnel" });
    const asked = await post(itemAction, aliceBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }, { intent: "ask", visibility: "commun", body: "Le registre couvre-t-il les intérimaires ?" });
    expect(status(asked)).toBe(302);
    expect((await notificationsOf(bob)).some((n) => n.title.startsWith("Question posée sur une diligence") && n.link === dueDiligenceItemUrl(fileId, id))).toBe(true);
    const [q] = (await getDueDiligenceItem(b, fileId, id)).questions;
    expect(q).toMatchObject({ status: "open", canAnswer: true, askedByMe: false });
    await expect(answerQuestion(a, fileId, q!.id, "moi-même")).rejects.toMatchObject({ code: "forbidden" });
    await answerQuestion(b, fileId, q!.id, "Oui, depuis 2024.");
    expect((await notificationsOf(alice)).some((n) => n.title.startsWith("Question répondue"))).toBe(true);
    expect((await getDueDiligenceItem(a, fileId, id)).questions[0]).toMatchObject({ status: "answered", answer: "Oui, depuis 2024.", answererName: "Bruno Martin", canClose: true });
    const closed = await post(itemAction, aliceBrowser, dueDiligenceItemUrl(fileId, id), { fileId, requestId: id }, { intent: "close-question", questionId: q!.id });
    expect(status(closed)).toBe(302);
    expect((await getDueDiligenceItem(b, fileId, id)).questions[0]!.status).toBe("closed");
    await expect(closeQuestion(a, fileId, q!.id)).rejects.toMatchObject({ code: "conflict", message: DD_MESSAGES.questionClosed });
  });

  it("keeps a question to one side away from the other (not listed, not answerable, no notification, off the timeline)", async () => {
    const fileId = await newFile();
    const id = await addItem(a, fileId, { category: "fiscal", title: "Liasses fiscales" });
    const before = (await notificationsOf(bob)).length;
    const qid = await askQuestion(a, fileId, id, { documentId: null, visibility: "acquereur", body: "Note interne : vérifier le déficit reportable." });
    expect((await getDueDiligenceItem(b, fileId, id)).questions).toEqual([]);
    expect((await getDueDiligenceList(b, fileId)).items[0]!.openQuestions).toBe(0);
    expect((await getDueDiligenceList(a, fileId)).items[0]!.openQuestions).toBe(1);
    await expect(answerQuestion(b, fileId, qid, "vu")).rejects.toMatchObject({ code: "not-found" });
    await expect(closeQuestion(b, fileId, qid)).rejects.toMatchObject({ code: "not-found" });
    expect((await notificationsOf(bob)).length).toBe(before);
    const events = await t.db!.select().from(collaborationEvents).where(and(eq(collaborationEvents.fileId, fileId), eq(collaborationEvents.kind, "dd_question_asked")));
    expect(events).toEqual([]);
    // Nobody may keep a question to the other side.
    await expect(askQuestion(b, fileId, id, { documentId: null, visibility: "acquereur", body: "x" })).rejects.toMatchObject({ code: "invalid" });
  });

  it("asks on a document linked to the item, never on another one", async () => {
    const fileId = await newFile();
    const id = await addItem(a, fileId, { category: "contrats", title: "Contrats clients" });
    const linked = await shareDocument(b, fileId, { name: "contrat-client.pdf", bytes: await pdf() });
    const loose = await shareDocument(b, fileId, { name: "autre.pdf", bytes: await pdf() });
    await linkDocument(b, fileId, id, linked.documentId);
    await askQuestion(a, fileId, id, { documentId: linked.documentId, visibility: "commun", body: "La clause de résiliation s’applique-t-elle ?" });
    expect((await getDueDiligenceItem(b, fileId, id)).questions[0]!.on).toEqual({ kind: "document", name: "contrat-client.pdf" });
    await expect(askQuestion(a, fileId, id, { documentId: loose.documentId, visibility: "commun", body: "x" })).rejects.toMatchObject({ code: "not-found" });
  });
});

describe("exports and closed files", () => {
  it("exports the list as XLSX rows and as a PDF", async () => {
    const fileId = await newFile();
    await createListFromTemplate(a, fileId, "fonds_de_commerce");
    const xlsx = await get(exportLoader, aliceBrowser, dueDiligenceExportUrl(fileId, "xlsx"), { fileId });
    const response = xlsx.value as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/attachment; filename="diligences-DR-\d{4}-\d{4}\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet("Diligences")!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...XLSX_HEADERS]);
    expect(sheet.rowCount).toBe(DD_TEMPLATES.fonds_de_commerce.length + 1);
    expect(sheet.getRow(2).getCell(1).value).toBe("Juridique");
    expect(sheet.getRow(2).getCell(3).value).toBe("Demandé");
    const pdfOut = (await get(exportLoader, aliceBrowser, dueDiligenceExportUrl(fileId, "pdf"), { fileId })).value as Response;
    expect(pdfOut.headers.get("content-type")).toBe("application/pdf");
    const doc = await PDFDocument.load(new Uint8Array(await pdfOut.arrayBuffer()));
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
    const bad = (await get(exportLoader, aliceBrowser, `${dueDiligenceUrl(fileId)}/export?format=csv`, { fileId })).value as Response;
    expect(bad.status).toBe(400);
  });

  it("refuses every change once the file is closed", async () => {
    const fileId = await newFile();
    const id = await addItem(a, fileId, { category: "immobilier", title: "Bail commercial" });
    await t.db!.update(collaborationFiles).set({ stage: "abandoned" }).where(eq(collaborationFiles.id, fileId));
    await expect(addItem(a, fileId, { category: "immobilier", title: "x" })).rejects.toMatchObject({ code: "conflict", message: DD_MESSAGES.closed });
    await expect(setItemStatus(b, fileId, id, "in_progress")).rejects.toMatchObject({ code: "conflict", message: DD_MESSAGES.closed });
    await expect(askQuestion(a, fileId, id, { documentId: null, visibility: "commun", body: "x" })).rejects.toMatchObject({ code: "conflict", message: DD_MESSAGES.closed });
    const page = await getDueDiligenceItem(a, fileId, id);
    expect(page).toMatchObject({ closed: true, canEdit: false, canAnswer: false, statuses: [] });
    expect(await t.db!.select({ id: dueDiligenceRequests.id }).from(dueDiligenceRequests).where(eq(dueDiligenceRequests.fileId, fileId))).toHaveLength(1);
  });
});

// The invited participants of a file hear of what reaches them (issue 32 §3, decision 053's model):
// a request added to the list, a question answered on their side, a document shared in a folder
// they see — each written in the use case's transaction, only to the participants who see it,
// never to the one who acted, and a guest's link always one of its own file's pages. Then the
// participant's file page of a large file: its documents paged, folder after folder.
import { and, eq, sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { collaborationFolders, collaborationParticipants, notifications } from "~/db/schema";
import { shareDocument } from "~/features/collaboration/documents.server";
import { listDocuments } from "~/features/collaboration/document-list.server";
import { openDocument } from "~/features/collaboration/document-opening.server";
import { fileActor, type FileActor } from "~/features/collaboration/file-access.server";
import { getSharedFileView, openParticipantDocument, shareParticipantDocument } from "~/features/collaboration/participant-documents.server";
import { addItem, answerQuestion, askQuestion, removeItem, setItemStatus, updateItem } from "~/features/due-diligence/due-diligence.server";
import { getDueDiligenceItem, getDueDiligenceList } from "~/features/due-diligence/due-diligence-read.server";
import { getParticipantDueDiligence, getParticipantDueDiligenceItem } from "~/features/due-diligence/participant.server";
import { DD_MESSAGES } from "~/features/due-diligence/due-diligence-rules";
import { participantAnswer, participantAsk, participantProvide, participantSetStatus } from "~/features/due-diligence/participant.server";
import { shareDocumentVersion } from "~/features/collaboration/document-versions.server";
import { getNotificationState, openTasksPage } from "~/features/notifications/notifications.server";
import { sendDigests } from "~/features/account/digests.server";
import { emailPreferences, mailOutbox } from "~/db/schema";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { openFileBetween, useFileTestEnvironment } from "./file-helpers";
import { locationOf, runAction, runLoader, signIn, statusOf } from "./mandates-helpers";
import { action as sharedFilesAction, loader as sharedFilesLoader } from "~/routes/shared/files";
import { loader as sharedFileLoader } from "~/routes/shared/file";
import { DOCUMENTS_PAGE_SIZE } from "~/features/collaboration/documents-rules";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/public/unsubscribe";

const t = useTestDatabase();
useFileTestEnvironment(t, "participant-notifications", { BETTER_AUTH_SECRET: "test-secret-for-participant-notifications-0123456789abcdef" });

let alice: CreatedMember; // the seller's founder (cédant)
let bob: CreatedMember; // the buyer's founder (acquéreur)
let carol: CreatedMember; // member participant, cédant, « voir » and « déposer »
let dave: CreatedMember; // member participant, undertaking not signed yet
let erin: CreatedMember; // member participant without « voir »
let a: FileActor;
let b: FileActor;
let fileId: string;
let guest: CreatedMember;
let guestId: string; // guest account, acquéreur, « voir » and « déposer »
let frank: CreatedMember; // member participant, a bank
let sellerFolder: string;
let buyerFolder: string;

const pdf = async () => {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  return doc.save();
};

async function participant(values: {
  userId: string;
  profileId: string | null;
  side: "cedant" | "acquereur" | "commun";
  guest?: boolean;
  view?: boolean;
  signed?: boolean;
  role?: "avocat" | "banque";
}) {
  const now = new Date();
  await t.db!.insert(collaborationParticipants).values({
    fileId,
    email: `${values.userId}@exemple.fr`,
    role: values.role ?? "avocat",
    side: values.side,
    status: "active",
    tokenHash: `notifications-${values.userId}`,
    expiresAt: now,
    invitedByName: "Alice Cédant",
    userId: values.userId,
    profileId: values.profileId,
    isGuest: values.guest ?? false,
    canView: values.view ?? true,
    canDownload: true,
    canUpload: true,
    acceptedAt: now,
    approvedAt: now,
    undertakingSignedAt: values.signed === false ? null : now,
  });
}

/** A mark strictly after every notification written so far (the database keeps microseconds, a Date milliseconds). */
async function mark(): Promise<Date> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  return new Date();
}

/** The notifications of a user since the mark, oldest first. */
async function told(userId: string, since: Date) {
  const rows = await t.db!.select({ kind: notifications.kind, title: notifications.title, link: notifications.link, at: notifications.createdAt }).from(notifications).where(eq(notifications.userId, userId));
  return rows.filter((r) => r.at >= since).sort((x, y) => x.at.getTime() - y.at.getTime()).map(({ kind, title, link }) => ({ kind, title, link }));
}

beforeAll(async () => {
  seedFactories(5757);
  const db = t.db!;
  alice = await createMember(db, { profile: { firstName: "Alice", lastName: "Cédant", membershipType: "premium" } });
  bob = await createMember(db, { profile: { firstName: "Bruno", lastName: "Acquéreur", membershipType: "premium" } });
  carol = await createMember(db, { profile: { firstName: "Carole", lastName: "Comptable" } });
  dave = await createMember(db, { profile: { firstName: "David", lastName: "Notaire" } });
  erin = await createMember(db, { profile: { firstName: "Erin", lastName: "Banque" } });
  a = fileActor(alice.profile);
  b = fileActor(bob.profile);
  fileId = (await openFileBetween(db, bob, alice, { buyer: "Acquéreur SAS", seller: "Cible SARL" })).fileId;
  // A guest account: a user with a password, no profile, in guest_accounts.
  guest = await createMember(db, { profile: { firstName: "Gaëlle", lastName: "Invitée" } });
  guestId = guest.user.id;
  await db.execute(sql`delete from profiles where id = ${guest.profile.id}::uuid`);
  await db.execute(sql`insert into guest_accounts (user_id) values (${guestId})`);
  await participant({ userId: carol.user.id, profileId: carol.profile.id, side: "cedant" });
  await participant({ userId: guestId, profileId: null, side: "acquereur", guest: true });
  await participant({ userId: dave.user.id, profileId: dave.profile.id, side: "commun", signed: false });
  await participant({ userId: erin.user.id, profileId: erin.profile.id, side: "cedant", view: false });
  frank = await createMember(db, { profile: { firstName: "Franck", lastName: "Banque" } });
  await participant({ userId: frank.user.id, profileId: frank.profile.id, side: "acquereur", role: "banque" });
  const [s] = await db.insert(collaborationFolders).values({ fileId, name: "Fiscal cédant", visibility: "cedant" }).returning({ id: collaborationFolders.id });
  const [f] = await db.insert(collaborationFolders).values({ fileId, name: "Financement", visibility: "acquereur" }).returning({ id: collaborationFolders.id });
  sellerFolder = s!.id;
  buyerFolder = f!.id;
});

const shared = (path = "") => `/dossiers-partages/${fileId}${path}`;

describe("participants' notifications", () => {
  it("a request added to the list reaches every participant who reads it, on their own page of the file", async () => {
    const since = await mark();
    const requestId = await addItem(a, fileId, { category: "fiscal", title: "Liasses fiscales 2025" });
    for (const userId of [carol.user.id, guestId]) {
      expect(await told(userId, since)).toEqual([{ kind: "dd_request", title: expect.stringMatching(/^Nouvelle demande de diligences \(/), link: shared(`/diligences/${requestId}`) }]);
    }
    // Not before the undertaking, not without « voir ».
    expect(await told(dave.user.id, since)).toEqual([]);
    expect(await told(erin.user.id, since)).toEqual([]);
  });

  it("a document reaches the participants who see its folder, never the one who shared it", async () => {
    let since = await mark();
    await shareDocument(a, fileId, { name: "Liasse.pdf", bytes: await pdf() }, { folderId: sellerFolder });
    expect(await told(carol.user.id, since)).toEqual([{ kind: "document_shared", title: expect.stringMatching(/^Nouveau document dans un dossier partagé \(/), link: shared() }]);
    expect(await told(guestId, since)).toEqual([]);

    since = await mark();
    await shareDocument(b, fileId, { name: "Plan.pdf", bytes: await pdf() }, { folderId: null });
    expect((await told(carol.user.id, since)).map((n) => n.kind)).toEqual(["document_shared"]);
    expect((await told(guestId, since)).map((n) => n.link)).toEqual([shared()]);

    since = await mark();
    await shareParticipantDocument(guestId, fileId, buyerFolder, { name: "Offre de prêt.pdf", bytes: await pdf() });
    expect(await told(guestId, since)).toEqual([]);
    expect(await told(carol.user.id, since)).toEqual([]);
    await shareParticipantDocument(carol.user.id, fileId, null, { name: "Statuts.pdf", bytes: await pdf() });
    expect((await told(guestId, since)).map((n) => n.kind)).toEqual(["document_shared"]);
    expect(await told(carol.user.id, since)).toEqual([]);
    for (const userId of [dave.user.id, erin.user.id]) expect(await told(userId, new Date(0))).toEqual([]);
  });

  it("an answer reaches the participants of the side(s) that see the question, but not the one who answered", async () => {
    const requestId = await addItem(b, fileId, { category: "juridique", title: "Baux commerciaux" });
    // A common question, answered by a founder: both participants hear of it.
    let since = await mark();
    const common = await askQuestion(b, fileId, requestId, { documentId: null, visibility: "commun", body: "Le bail est-il cessible\u00a0?" });
    await answerQuestion(a, fileId, common, "Oui, avec l’accord du bailleur.");
    for (const userId of [carol.user.id, guestId]) {
      expect(await told(userId, since)).toEqual([
        { kind: "dd_question", title: expect.stringMatching(/^Question posée sur une diligence \(/), link: shared(`/diligences/${requestId}`) },
        { kind: "dd_answer", title: expect.stringMatching(/^Question répondue \(/), link: shared(`/diligences/${requestId}`) },
      ]);
    }
    // A question kept to the buyer's side, answered by the guest: the seller's side hears nothing.
    since = await mark();
    const buyers = await askQuestion(b, fileId, requestId, { documentId: null, visibility: "acquereur", body: "Quelle banque finance\u00a0?" });
    await participantAnswer(guestId, fileId, buyers, "La banque du réseau.");
    expect(await told(carol.user.id, since)).toEqual([]);
    expect((await told(guestId, since)).map((n) => n.kind)).toEqual(["dd_question"]);
    // A common question answered by a participant: the other participant hears of it.
    since = await mark();
    const asked = await participantAsk(guestId, fileId, requestId, { visibility: "commun", body: "Le dépôt de garantie est-il restitué\u00a0?" });
    await participantAnswer(carol.user.id, fileId, asked, "Il est transféré au cessionnaire.");
    expect((await told(guestId, since)).map((n) => [n.kind, n.link])).toEqual([["dd_answer", shared(`/diligences/${requestId}`)]]);
    expect((await told(carol.user.id, since)).map((n) => n.kind)).toEqual(["dd_question"]);
  });

  it("never sends a guest anywhere outside its file, and lists its news on its home page (a member keeps the bell)", async () => {
    const links = (await t.db!.select({ link: notifications.link }).from(notifications).where(and(eq(notifications.userId, guestId)))).map((n) => n.link);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link?.startsWith(shared())).toBe(true);
    const home = await runLoader(sharedFilesLoader, "/dossiers-partages", await signIn(guest));
    expect(home.thrown).toBeUndefined();
    const news = home.value!.news;
    expect(news.length).toBe(Math.min(links.length, 10));
    expect(news[0]).toMatchObject({ read: false, title: expect.stringMatching(/\(/) });
    for (const n of news) expect(n.link.startsWith(shared())).toBe(true);
    const member = await runLoader(sharedFilesLoader, "/dossiers-partages", await signIn(carol));
    expect(member.value!.news).toEqual([]);
  });
});

describe("the founders hear of what participants do", () => {
  const founderLink = (path = "") => `/dashboard/dossiers/${fileId}${path}`;

  it("a participant's document reaches the founders who see its folder, on their documents tab; a new version too", async () => {
    let since = await mark();
    const doc = await shareParticipantDocument(carol.user.id, fileId, sellerFolder, { name: "Bilan 2025.pdf", bytes: await pdf() });
    expect(await told(alice.user.id, since)).toEqual([
      { kind: "document_shared", title: expect.stringMatching(/^Nouveau document dans un dossier de rapprochement \(/), link: founderLink("/documents") },
    ]);
    // The buyer's founder does not see the sellers' folder.
    expect(await told(bob.user.id, since)).toEqual([]);
    since = await mark();
    await shareParticipantDocument(guestId, fileId, null, { name: "Attestation.pdf", bytes: await pdf() });
    for (const m of [alice, bob]) expect((await told(m.user.id, since)).map((n) => n.kind)).toEqual(["document_shared"]);
    // A new version by a participant: the founders who see it and the other participants who see it.
    since = await mark();
    await shareDocumentVersion(carol.user.id, fileId, doc.documentId, { name: "Bilan 2025 v2.pdf", bytes: await pdf() });
    expect(await told(alice.user.id, since)).toEqual([{ kind: "document_shared", title: expect.stringMatching(/^Nouvelle version d’un document \(/), link: founderLink("/documents") }]);
    expect(await told(bob.user.id, since)).toEqual([]);
    expect(await told(carol.user.id, since)).toEqual([]);
    // A founder's new version: the other founder, not the one who shared it.
    const mine = await shareDocument(a, fileId, { name: "Plan.pdf", bytes: await pdf() }, { folderId: null });
    since = await mark();
    await shareDocumentVersion(alice.user.id, fileId, mine.documentId, { name: "Plan v2.pdf", bytes: await pdf() });
    expect((await told(bob.user.id, since)).map((n) => n.kind)).toEqual(["document_shared"]);
    expect(await told(alice.user.id, since)).toEqual([]);
    expect((await told(guestId, since)).map((n) => n.kind)).toEqual(["document_shared"]);
  });

  it("a participant's question is a to-do for the founders who see it, done when anyone answers it", async () => {
    const requestId = await addItem(a, fileId, { category: "social", title: "Contrats de travail" });
    let since = await mark();
    const common = await participantAsk(guestId, fileId, requestId, { visibility: "commun", body: "Combien de salariés\u00a0?" });
    for (const m of [alice, bob]) {
      expect(await told(m.user.id, since)).toEqual([
        { kind: "dd_question", title: expect.stringMatching(/^Question posée sur une diligence \(/), link: founderLink(`/diligences/${requestId}`) },
      ]);
      expect((await openTasksPage(m.user.id, null, 1000)).tasks.map((x) => x.key)).toContain(`dd_question:${common}`);
    }
    // Carol (the sellers' side) answers: the founders hear of it, and the to-do is done for both.
    since = await mark();
    await participantAnswer(carol.user.id, fileId, common, "Douze.");
    for (const m of [alice, bob]) {
      expect((await told(m.user.id, since)).map((n) => [n.kind, n.link])).toEqual([["dd_answer", founderLink(`/diligences/${requestId}`)]]);
      expect((await openTasksPage(m.user.id, null, 1000)).tasks.map((x) => x.key)).not.toContain(`dd_question:${common}`);
    }
    // A question kept to the buyers' side: only the buyers' founder, and a founder's answer closes it.
    since = await mark();
    const buyers = await participantAsk(guestId, fileId, requestId, { visibility: "acquereur", body: "Quelle clause de non-concurrence\u00a0?" });
    expect(await told(alice.user.id, since)).toEqual([]);
    expect((await told(bob.user.id, since)).map((n) => n.kind)).toEqual(["dd_question"]);
    await answerQuestion(b, fileId, buyers, "Trois ans.");
    expect((await openTasksPage(bob.user.id, null, 1000)).tasks.map((x) => x.key)).not.toContain(`dd_question:${buyers}`);
    // A founder's question is a to-do for the other founder too.
    const asked = await askQuestion(a, fileId, requestId, { documentId: null, visibility: "commun", body: "Des prud’hommes en cours\u00a0?" });
    expect((await openTasksPage(bob.user.id, null, 1000)).tasks.map((x) => x.key)).toContain(`dd_question:${asked}`);
    await participantAnswer(guestId, fileId, asked, "Aucun.");
    expect((await openTasksPage(bob.user.id, null, 1000)).tasks.map((x) => x.key)).not.toContain(`dd_question:${asked}`);
  });

  it("a request answered by a participant, with a document or its status, reaches both founders", async () => {
    const requestId = await addItem(b, fileId, { category: "financier", title: "Comptes annuels" });
    let since = await mark();
    await participantProvide(carol.user.id, fileId, requestId, null, { name: "Comptes 2025.pdf", bytes: await pdf() });
    for (const m of [alice, bob]) {
      // One notification: the answer, not a document besides it.
      expect(await told(m.user.id, since)).toEqual([
        { kind: "dd_answer", title: expect.stringMatching(/^Document déposé pour une diligence \(/), link: founderLink(`/diligences/${requestId}`) },
      ]);
    }
    since = await mark();
    await participantSetStatus(carol.user.id, fileId, requestId, "provided");
    // The seller's founder hears of it; the buyer's side is asked to validate it (its to-do).
    expect((await told(alice.user.id, since)).map((n) => n.title)).toEqual([expect.stringMatching(/^Diligence fournie \(/)]);
    expect(await told(bob.user.id, since)).toEqual([
      { kind: "dd_review", title: expect.stringMatching(/^Diligence fournie à valider \(/), link: founderLink(`/diligences/${requestId}`) },
    ]);
  });
});

describe("documents marked « Nouveau » until their reader opens them", () => {
  it("for a founder and a participant: another's document is new, one's own never; opening it reads it; a new version is new again", async () => {
    const founderFlag = async (m: FileActor, id: string) => {
      for (let page = 1; ; page++) {
        const room = await listDocuments(m, fileId, page);
        const d = room.documents.find((x) => x.id === id);
        if (d) return d.unread;
        if (page >= room.pageCount) throw new Error(`document ${id} not listed`);
      }
    };
    const guestFlag = async (id: string) => {
      for (let page = 1; ; page++) {
        const view = await getSharedFileView(guestId, fileId, page);
        const d = view.folders.flatMap((f) => f.documents).find((x) => x.id === id);
        if (d) return d.unread;
        if (page >= view.pageCount) throw new Error(`document ${id} not listed`);
      }
    };
    const doc = await shareDocument(a, fileId, { name: "Nouveau bilan.pdf", bytes: await pdf() }, { folderId: null });
    expect(await founderFlag(a, doc.documentId)).toBe(false);
    expect(await founderFlag(b, doc.documentId)).toBe(true);
    expect(await guestFlag(doc.documentId)).toBe(true);
    await openDocument(b, fileId, doc.documentId, "view");
    await openParticipantDocument(guestId, fileId, doc.documentId, "view");
    // Twice: one read mark, no error.
    await openParticipantDocument(guestId, fileId, doc.documentId, "download");
    expect(await founderFlag(b, doc.documentId)).toBe(false);
    expect(await guestFlag(doc.documentId)).toBe(false);
    expect(await founderFlag(a, doc.documentId)).toBe(false);
    // The guest's own upload is not new to the guest, but to both founders.
    const mine = await shareParticipantDocument(guestId, fileId, null, { name: "Pièce invitée.pdf", bytes: await pdf() });
    expect(await guestFlag(mine.documentId)).toBe(false);
    expect(await founderFlag(a, mine.documentId)).toBe(true);
    // A new version is a new document to read.
    const v2 = await shareDocumentVersion(alice.user.id, fileId, doc.documentId, { name: "Nouveau bilan v2.pdf", bytes: await pdf() });
    expect(await founderFlag(b, v2.documentId)).toBe(true);
    expect(await guestFlag(v2.documentId)).toBe(true);
    expect(await founderFlag(a, v2.documentId)).toBe(false);
  });
});

describe("a participant as a request's owner", () => {
  const rowOf = async (userId: string) =>
    (await t.db!.select({ id: collaborationParticipants.id }).from(collaborationParticipants).where(eq(collaborationParticipants.userId, userId)))[0]!.id;
  const tasksOf = async (userId: string) => (await openTasksPage(userId, null, 1000)).tasks.map((x) => x.key);

  it("offers the founders and the admitted participants who read the list, never a bank, before the undertaking or without « voir »", async () => {
    const requestId = await addItem(a, fileId, { category: "juridique", title: "Kbis de moins de trois mois" });
    const page = await getDueDiligenceItem(a, fileId, requestId);
    const ids = page.owners.map((o) => o.id);
    // The founders first, then the participants in the order they were invited.
    expect(ids.slice(2)).toEqual([await rowOf(carol.user.id), await rowOf(guestId)]);
    expect(ids.slice(0, 2).sort()).toEqual([alice.profile.id, bob.profile.id].sort());
    for (const userId of [dave.user.id, erin.user.id, frank.user.id]) {
      await expect(updateItem(a, fileId, requestId, { title: "Kbis", ownerId: await rowOf(userId), dueDate: null })).rejects.toThrow(DD_MESSAGES.badOwner);
    }
  });

  it("gives a request to a participant: their to-do on their own page, « vous » on their list, done when it is provided", async () => {
    const requestId = await addItem(a, fileId, { category: "juridique", title: "Statuts à jour" });
    const carolRow = await rowOf(carol.user.id);
    const since = await mark();
    await updateItem(a, fileId, requestId, { title: "Statuts à jour", ownerId: carolRow, dueDate: "2026-12-31" });
    expect(await told(carol.user.id, since)).toEqual([
      { kind: "dd_request", title: expect.stringMatching(/^Demande de diligences à fournir \(/), link: shared(`/diligences/${requestId}`) },
    ]);
    expect(await tasksOf(carol.user.id)).toContain(`dd_request:${requestId}`);
    expect(await told(guestId, since)).toEqual([]);
    // Each reader sees who owns it: the founders by name, the owner as « vous », another participant by name.
    expect((await getDueDiligenceItem(b, fileId, requestId)).item).toMatchObject({ ownerId: carolRow, ownerName: "Carole Comptable" });
    expect((await getDueDiligenceList(b, fileId)).items.find((i) => i.id === requestId)?.ownerName).toBe("Carole Comptable");
    expect((await getParticipantDueDiligenceItem(carol.user.id, fileId, requestId)).item.ownerName).toBe("vous");
    expect((await getParticipantDueDiligence(guestId, fileId)).items.find((i) => i.id === requestId)?.ownerName).toBe("Carole Comptable");
    // Saved again with the same owner: no second notification.
    const again = await mark();
    await updateItem(b, fileId, requestId, { title: "Statuts à jour (2026)", ownerId: carolRow, dueDate: null });
    expect(await told(carol.user.id, again)).toEqual([]);
    // She provides it: her to-do is done.
    await participantProvide(carol.user.id, fileId, requestId, null, { name: "Statuts signés.pdf", bytes: await pdf() });
    await participantSetStatus(carol.user.id, fileId, requestId, "provided");
    expect(await tasksOf(carol.user.id)).not.toContain(`dd_request:${requestId}`);
  });

  it("gives a request to a founder (their to-do), then to a guest: the founder's to-do is done, the guest's opens", async () => {
    const requestId = await addItem(b, fileId, { category: "financier", title: "Plan de financement" });
    await updateItem(b, fileId, requestId, { title: "Plan de financement", ownerId: alice.profile.id, dueDate: null });
    expect(await tasksOf(alice.user.id)).toContain(`dd_request:${requestId}`);
    // Given to oneself: no to-do of one's own making.
    await updateItem(b, fileId, requestId, { title: "Plan de financement", ownerId: bob.profile.id, dueDate: null });
    expect(await tasksOf(alice.user.id)).not.toContain(`dd_request:${requestId}`);
    expect(await tasksOf(bob.user.id)).not.toContain(`dd_request:${requestId}`);
    await updateItem(b, fileId, requestId, { title: "Plan de financement", ownerId: await rowOf(guestId), dueDate: null });
    expect(await tasksOf(guestId)).toContain(`dd_request:${requestId}`);
    expect((await getParticipantDueDiligenceItem(guestId, fileId, requestId)).item.ownerName).toBe("vous");
    // No owner any more: the to-do is done.
    await updateItem(b, fileId, requestId, { title: "Plan de financement", ownerId: null, dueDate: null });
    expect(await tasksOf(guestId)).not.toContain(`dd_request:${requestId}`);
  });
});

describe("a guest's news: read marks and the digest", () => {
  it("marks one read, opens one (read, then its page), marks them all read; a member's own are untouched", async () => {
    const browser = await signIn(guest);
    const unreadOf = async () => (await runLoader(sharedFilesLoader, "/dossiers-partages", browser)).value!.news.filter((n) => !n.read);
    const before = await unreadOf();
    expect(before.length).toBeGreaterThan(2);
    expect(statusOf((await runAction(sharedFilesAction, "/dossiers-partages", browser, { intent: "read", id: before[0]!.id })).value)).toBe(200);
    expect((await unreadOf()).map((n) => n.id)).not.toContain(before[0]!.id);
    const opened = await runAction(sharedFilesAction, "/dossiers-partages", browser, { intent: "open", id: before[1]!.id });
    expect(locationOf(opened.thrown)).toBe(before[1]!.link);
    // Someone else's notification, or none: a 404, nothing marked.
    const [others] = await t.db!.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, alice.user.id)).limit(1);
    expect(statusOf((await runAction(sharedFilesAction, "/dossiers-partages", browser, { intent: "read", id: others!.id })).thrown)).toBe(404);
    expect(statusOf((await runAction(sharedFilesAction, "/dossiers-partages", browser, { intent: "nope" })).value)).toBe(400);
    await runAction(sharedFilesAction, "/dossiers-partages", browser, { intent: "read-all" });
    expect(await unreadOf()).toEqual([]);
    expect((await getNotificationState(alice.user.id, { fresh: true })).unread).toBeGreaterThan(0);
  });

  it("a guest gets the digest like a member: its files' news, links to its shared pages, its settings to choose", async () => {
    await t.db!.delete(mailOutbox);
    await t.db!.execute(sql`delete from email_digests`);
    const now = new Date(Date.now() + 24 * 60 * 60_000);
    now.setUTCHours(9, 0, 0, 0);
    await sendDigests("daily", now);
    const mails = await t.db!.select().from(mailOutbox).where(eq(mailOutbox.toAddress, guest.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`/dossiers-partages/${fileId}`);
    expect(mails[0]!.text).toContain("/parametres/notifications");
    expect(mails[0]!.text).not.toContain("/dashboard");
    expect(mails[0]!.text).not.toContain("desabonnement?profile=");
    // One click, without signing in: the guest's signed link turns the preference off.
    const link = /https?:\/\/\S+\/desabonnement\?invite=\S+/.exec(mails[0]!.text)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.searchParams.get("invite")).toBe(guestId);
    const type = url.searchParams.get("type")!;
    const run = (href: string, method: "GET" | "POST") => {
      const request = new Request(`http://localhost:3000${new URL(href).pathname}${new URL(href).search}`, { method });
      const args = { request, params: {}, context: { requestId: "test" } } as never;
      return method === "GET" ? unsubscribeLoader(args) : unsubscribeAction(args);
    };
    expect(await run(link!, "GET")).toMatchObject({ kind: "confirm", alreadyOff: false });
    // A forged token, or the guest's token under a member's id, is refused.
    const forged = new URL(link!);
    forged.searchParams.set("token", "x".repeat(32));
    expect(await run(forged.toString(), "POST")).toEqual({ kind: "invalid" });
    const borrowed = new URL(link!);
    borrowed.searchParams.set("invite", carol.user.id);
    expect(await run(borrowed.toString(), "POST")).toEqual({ kind: "invalid" });
    expect(await run(link!, "POST")).toEqual({ kind: "done", type });
    const [pref] = await t.db!.select({ frequency: emailPreferences.frequency }).from(emailPreferences).where(and(eq(emailPreferences.userId, guestId), eq(emailPreferences.emailKind, type)));
    expect(pref?.frequency).toBe("off");
  });
});

describe("a participant's documents, paged", () => {
  it("lists one page of the folders' logical documents at a time, the general folder first, each document once", async () => {
    const before = await getSharedFileView(guestId, fileId);
    const insert = (n: number, folder: string | null, prefix: string) =>
      t.db!.execute(sql`
        insert into collaboration_documents (file_id, uploader_profile_id, folder_id, name, content_type, size_bytes, sha256, storage_key, created_at)
        select ${fileId}::uuid, ${alice.profile.id}::uuid, ${folder}::uuid, ${prefix} || lpad(n::text, 2, '0') || '.pdf', 'application/pdf', 1000 + n,
          md5(${prefix} || n) || md5(n::text), 'test/absent-' || ${prefix} || n, now() - (n || ' minutes')::interval
        from generate_series(1, ${n}) n`);
    await insert(DOCUMENTS_PAGE_SIZE + 2, null, "general-");
    await insert(DOCUMENTS_PAGE_SIZE, buyerFolder, "financement-");
    await insert(3, sellerFolder, "fiscal-");
    const total = before.total + 2 * DOCUMENTS_PAGE_SIZE + 2;
    const first = await getSharedFileView(guestId, fileId);
    expect(first).toMatchObject({ page: 1, total, pageCount: Math.ceil(total / DOCUMENTS_PAGE_SIZE) });
    // Each folder counts its own documents; the sellers' folder is not counted anywhere.
    const totalOf = (view: typeof first, id: string | null) => view.folders.find((f) => f.id === id)?.total ?? 0;
    expect(totalOf(first, null)).toBe(totalOf(before, null) + DOCUMENTS_PAGE_SIZE + 2);
    expect(totalOf(first, buyerFolder)).toBe(totalOf(before, buyerFolder) + DOCUMENTS_PAGE_SIZE);
    const names: { folder: string | null; name: string }[] = [];
    for (let page = 1; page <= first.pageCount; page++) {
      const view = await getSharedFileView(guestId, fileId, page);
      // Every folder the guest sees stays listed (the deposit form reads them), with its own total.
      expect(view.folders.map((f) => f.id)).toEqual([null, buyerFolder]);
      expect(view.folders.reduce((n, f) => n + f.documents.length, 0)).toBeLessThanOrEqual(DOCUMENTS_PAGE_SIZE);
      for (const f of view.folders) names.push(...f.documents.map((d) => ({ folder: f.id, name: d.name })));
    }
    expect(names).toHaveLength(total);
    expect(new Set(names.map((n) => n.name)).size).toBe(total);
    // The general folder's documents first, then the buyers' folder's; never the sellers' folder.
    const firstBuyer = names.findIndex((n) => n.folder === buyerFolder);
    expect(names.slice(firstBuyer).every((n) => n.folder === buyerFolder)).toBe(true);
    expect(names.some((n) => n.name.startsWith("fiscal-"))).toBe(false);
    expect(names.filter((n) => n.name.startsWith("general-")).map((n) => n.name)[0]).toBe("general-01.pdf");
    // The page's URL, clamped past the last page.
    const last = await runLoader(sharedFileLoader, `/dossiers-partages/${fileId}?page=99`, await signIn(guest), { fileId });
    expect(last.value!.view).toMatchObject({ page: first.pageCount, pageCount: first.pageCount, total });
  });
});

describe("a request marked « fourni »", () => {
  it("a request marked « fourni » is a to-do for the buyer's side that may validate it, done when it leaves « fourni »", async () => {
    const requestId = await addItem(b, fileId, { category: "juridique", title: "Statuts à jour" });
    await participantProvide(carol.user.id, fileId, requestId, null, { name: "Statuts.pdf", bytes: await pdf() });
    const review = `dd_review:${requestId}`;
    const open = async (userId: string) => (await openTasksPage(userId, null, 1000)).tasks.map((x) => x.key);
    // Table: who holds the to-do once the seller's accountant marks it provided.
    await participantSetStatus(carol.user.id, fileId, requestId, "provided");
    const cases: Array<[string, string, boolean]> = [
      ["the buyer's founder", bob.user.id, true],
      ["the buyer's guest with « déposer »", guestId, true],
      ["the buyer's bank", frank.user.id, false],
      ["the seller's founder", alice.user.id, false],
      ["the seller's accountant who provided it", carol.user.id, false],
    ];
    for (const [who, userId, holds] of cases) expect((await open(userId)).includes(review), who).toBe(holds);
    expect((await told(guestId, new Date(0))).filter((n) => n.kind === "dd_review").map((n) => n.link)).toContain(shared(`/diligences/${requestId}`));
    // Validated by the buyer's founder: done for everyone.
    await setItemStatus(b, fileId, requestId, "validated");
    for (const userId of [bob.user.id, guestId]) expect(await open(userId)).not.toContain(review);
    // Back to « fourni » by the buyer (a validation undone): the seller's founder is not asked, the buyer's side again.
    await setItemStatus(b, fileId, requestId, "provided");
    expect(await open(bob.user.id)).not.toContain(review);
    expect(await open(guestId)).toContain(review);
    // Removed: nothing left to do about it.
    await removeItem(b, fileId, requestId);
    expect(await open(guestId)).not.toContain(review);
  });
});

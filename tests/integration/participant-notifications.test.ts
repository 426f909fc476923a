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
import { fileActor, type FileActor } from "~/features/collaboration/file-access.server";
import { getSharedFileView, shareParticipantDocument } from "~/features/collaboration/participant-documents.server";
import { addItem, answerQuestion, askQuestion } from "~/features/due-diligence/due-diligence.server";
import { participantAnswer, participantAsk } from "~/features/due-diligence/participant.server";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { openFileBetween, useFileTestEnvironment } from "./file-helpers";
import { runLoader, signIn } from "./mandates-helpers";
import { loader as sharedFilesLoader } from "~/routes/shared/files";
import { loader as sharedFileLoader } from "~/routes/shared/file";
import { DOCUMENTS_PAGE_SIZE } from "~/features/collaboration/documents-rules";

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
let sellerFolder: string;
let buyerFolder: string;

const pdf = async () => {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  return doc.save();
};

async function participant(values: { userId: string; profileId: string | null; side: "cedant" | "acquereur" | "commun"; guest?: boolean; view?: boolean; signed?: boolean }) {
  const now = new Date();
  await t.db!.insert(collaborationParticipants).values({
    fileId,
    email: `${values.userId}@exemple.fr`,
    role: "avocat",
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
      expect(await told(userId, since)).toEqual([{ kind: "dd_answer", title: expect.stringMatching(/^Question répondue \(/), link: shared(`/diligences/${requestId}`) }]);
    }
    // A question kept to the buyer's side, answered by the guest: the seller's side hears nothing.
    since = await mark();
    const buyers = await askQuestion(b, fileId, requestId, { documentId: null, visibility: "acquereur", body: "Quelle banque finance\u00a0?" });
    await participantAnswer(guestId, fileId, buyers, "La banque du réseau.");
    expect(await told(carol.user.id, since)).toEqual([]);
    expect(await told(guestId, since)).toEqual([]);
    // A common question answered by a participant: the other participant hears of it.
    since = await mark();
    const asked = await participantAsk(guestId, fileId, requestId, { visibility: "commun", body: "Le dépôt de garantie est-il restitué\u00a0?" });
    await participantAnswer(carol.user.id, fileId, asked, "Il est transféré au cessionnaire.");
    expect((await told(guestId, since)).map((n) => [n.kind, n.link])).toEqual([["dd_answer", shared(`/diligences/${requestId}`)]]);
    expect(await told(carol.user.id, since)).toEqual([]);
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

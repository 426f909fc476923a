// Participants of a collaboration file (issue 32 §1–2): invitation by e-mail, guest sign-up,
// approval by the other founder, the undertaking before the clients' identity, folders by side,
// per-participant rights, watermark and access log, removal ending access and sessions, and the
// guest kept out of the member space — through the route modules, on a real engine.
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import JSZip from "jszip";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { GONE_MEMBER_NAME } from "~/features/collaboration/member-names";
import { queryRows } from "~/db/query.server";
import { collaborationEvents, documentAccessLog, guestAccounts, mailOutbox, session, user } from "~/db/schema";
import { shareDocument } from "~/features/collaboration/documents.server";
import { listDocuments } from "~/features/collaboration/document-list.server";
import { openDocument } from "~/features/collaboration/document-opening.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { PARTICIPANT_MESSAGES } from "~/features/collaboration/participant-rules";
import { inviteParticipant } from "~/features/collaboration/participant-invitations.server";
import { readInvitation } from "~/features/collaboration/participant-joining.server";
import { requireFileParticipant } from "~/features/collaboration/participant-access.server";
import { loader as dashboardLoader } from "~/routes/member/dashboard/layout";
import { loader as onboardingLoader } from "~/routes/member/onboarding";
import { action as participantsAction, loader as participantsLoader } from "~/routes/member/dashboard/file/participants";
import { action as invitationAction, loader as invitationLoader } from "~/routes/public/invitation";
import { loader as sharedFilesLoader } from "~/routes/shared/files";
import { action as sharedFileAction, loader as sharedFileLoader } from "~/routes/shared/file";
import { loader as sharedDocumentLoader } from "~/routes/shared/document";
import { loader as sharedArchiveLoader } from "~/routes/shared/archive";
import { loader as founderArchiveLoader } from "~/routes/member/dashboard/file/archive";
import { loader as sharedDdLoader } from "~/routes/shared/due-diligence";
import { action as sharedDdItemAction, loader as sharedDdItemLoader } from "~/routes/shared/due-diligence-item";
import { createListFromTemplate } from "~/features/due-diligence/due-diligence.server";
import { action as founderDdAction, loader as founderDdLoader } from "~/routes/member/dashboard/file/due-diligence";
import { loader as founderDdExportLoader } from "~/routes/member/dashboard/file/due-diligence-export";
import { action as founderDdItemAction, loader as founderDdItemLoader } from "~/routes/member/dashboard/file/due-diligence-item";
import routeConfig from "../../app/routes";
import { createMember, seedFactories, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { call, openFileBetween, outcomeStatus as status, useFileTestEnvironment } from "./file-helpers";
import { bodyOf, locationOf, signIn, type Browser } from "./mandates-helpers";

const t = useTestDatabase();
useFileTestEnvironment(t, "participants", { BETTER_AUTH_SECRET: "test-secret-for-participant-tests-0123456789abcdef" });

const SELLER_CLIENT = "Canari Cédant Confidentiel SAS";
const BUYER_CLIENT = "Canari Acquéreur Confidentiel SAS";
const GUEST_PASSWORD = "invite-motdepasse-2026";

let alice: CreatedMember; // seller's side (cédant)
let bob: CreatedMember; // buyer's side (acquéreur)
let carol: CreatedMember; // a member, invited
let aliceB: Browser;
let bobB: Browser;
let carolB: Browser;

beforeAll(async () => {
  seedFactories(3232);
  const db = t.db!;
  alice = await createMember(db, { profile: { firstName: "Alice", lastName: "Cédant", membershipType: "premium" } });
  bob = await createMember(db, { profile: { firstName: "Bruno", lastName: "Acquéreur", membershipType: "premium" } });
  carol = await createMember(db, { profile: { firstName: "Carole", lastName: "Notaire" } });
  [aliceB, bobB, carolB] = await Promise.all([signIn(alice), signIn(bob), signIn(carol)]);
});

const url = (path: string) => `http://localhost:3000${path}`;
const get = (b: Browser, path: string) => new Request(url(path), { headers: b.headers });
function post(b: Browser | null, path: string, fields: Record<string, string>) {
  const headers = new Headers(b?.headers ?? { "x-rt-client-ip": "203.0.113.7" });
  return new Request(url(path), { method: "POST", headers, body: new URLSearchParams(fields) });
}

async function newFile(): Promise<string> {
  return (await openFileBetween(t.db!, bob, alice, { buyer: BUYER_CLIENT, seller: SELLER_CLIENT })).fileId;
}

async function pdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Bilan 2025", { x: 50, y: 780, size: 14, font });
  return doc.save();
}

/** The invitation link's secret, read from the e-mail in the outbox. */
async function tokenMailedTo(email: string): Promise<string> {
  const rows = await t.db!.select({ text: mailOutbox.text }).from(mailOutbox).where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, "collaboration-invitation")));
  const match = /\/invitation\/([A-Za-z0-9_-]+)/.exec(rows.at(-1)?.text ?? "");
  if (!match) throw new Error(`no invitation mailed to ${email}`);
  return match[1];
}

/** Invites a guest from Alice's page, signs them up, confirms the address, signs them in and accepts. */
async function guestJoins(fileId: string, email: string, fields: Record<string, string> = {}): Promise<{ browser: Browser; userId: string; participantId: string; token: string }> {
  const invited = await call(participantsAction, post(aliceB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "invite", email, role: "avocat", side: "acquereur", voir: "on", ...fields }), { fileId });
  expect(status(invited)).toBe(302);
  const token = await tokenMailedTo(email);
  const signUp = await call(invitationAction, post(null, `/invitation/${token}`, { intent: "sign-up", firstName: "Gaspard", lastName: "Invité", company: "Cabinet Invité", password: GUEST_PASSWORD, confirmPassword: GUEST_PASSWORD }), { token });
  expect(bodyOf<{ done?: string }>(signUp.value).done).toBe(PARTICIPANT_MESSAGES.guestSignedUp);
  const [u] = await t.db!.select().from(user).where(eq(user.email, email));
  // The confirmation e-mail went out (better-auth's sign-up); the test stands for the click.
  expect((await t.db!.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).length).toBeGreaterThanOrEqual(2);
  await t.db!.update(user).set({ emailVerified: true }).where(eq(user.id, u.id));
  const browser = await signIn({ email, password: GUEST_PASSWORD } as CreatedMember);
  const accepted = await call(invitationAction, post(browser, `/invitation/${token}`, { intent: "accept" }), { token });
  expect(status(accepted)).toBe(302);
  const [row] = await queryRows<{ id: string }>(sql`select id from collaboration_participants where user_id = ${u.id} and file_id = ${fileId}::uuid`, t.db!);
  return { browser, userId: u.id, participantId: row.id, token };
}

describe("a guest", () => {
  it("signs up from the invitation, waits for the other founder's approval, signs the undertaking, then sees the file", async () => {
    const fileId = await newFile();
    const email = "gaspard.invite@example.org";
    const { browser, userId, participantId } = await guestJoins(fileId, email);
    expect(await t.db!.select().from(guestAccounts).where(eq(guestAccounts.userId, userId))).toHaveLength(1);

    // Before approval: nothing of the file.
    expect(status(await call(sharedFileLoader, get(browser, `/dossiers-partages/${fileId}`), { fileId }))).toBe(404);
    const home = await call(sharedFilesLoader, get(browser, "/dossiers-partages"), {});
    expect(JSON.stringify(home.value)).toContain("En attente d’approbation");

    // Alice invited: only Bob approves.
    const byAlice = await call(participantsAction, post(aliceB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId }), { fileId });
    expect(status(byAlice)).toBe(403);
    expect(bodyOf<{ error: string }>(byAlice.value).error).toBe(PARTICIPANT_MESSAGES.cannotApprove);
    expect(status(await call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId }), { fileId }))).toBe(302);

    // Approved: the undertaking first, no client in the page.
    const before = await call(sharedFileLoader, get(browser, `/dossiers-partages/${fileId}`), { fileId });
    expect(status(before)).toBe(200);
    const beforeText = JSON.stringify(before.value);
    expect(beforeText).not.toContain(SELLER_CLIENT);
    expect(beforeText).not.toContain(BUYER_CLIENT);
    expect(beforeText).toContain("Je m’engage");
    expect(await call(sharedFileAction, post(browser, `/dossiers-partages/${fileId}`, { intent: "undertaking" }), { fileId }).then(status)).toBe(302);

    const after = await call(sharedFileLoader, get(browser, `/dossiers-partages/${fileId}`), { fileId });
    const afterText = JSON.stringify(after.value);
    expect(afterText).toContain(SELLER_CLIENT);
    expect(afterText).toContain(BUYER_CLIENT);

    const kinds = (await t.db!.select({ kind: collaborationEvents.kind }).from(collaborationEvents).where(eq(collaborationEvents.fileId, fileId))).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["participant_invited", "participant_joined", "participant_approved", "participant_undertaking_signed"]));
  });

  it("never reaches the member space: dashboard, onboarding and another file are refused by the guards", async () => {
    const fileId = await newFile();
    const { browser } = await guestJoins(fileId, "hors.reseau@example.org");
    expect(locationOf((await call(dashboardLoader, get(browser, "/dashboard/annuaire"), {})).thrown)).toBe("/dossiers-partages");
    expect(locationOf((await call(onboardingLoader, get(browser, "/onboarding"), {})).thrown)).toBe("/dossiers-partages");
    const other = await newFile();
    expect(status(await call(sharedFileLoader, get(browser, `/dossiers-partages/${other}`), { fileId: other }))).toBe(404);
    expect(status(await call(participantsLoader, get(browser, `/dashboard/dossiers/${fileId}/intervenants`), { fileId }))).toBe(302);
  });

  it("is cut off at once when removed: access refused and sessions deleted", async () => {
    const fileId = await newFile();
    const { browser, userId, participantId } = await guestJoins(fileId, "retire@example.org");
    await call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId }), { fileId });
    expect((await t.db!.select().from(session).where(eq(session.userId, userId))).length).toBeGreaterThan(0);
    expect(status(await call(participantsAction, post(aliceB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "remove", participantId }), { fileId }))).toBe(302);
    expect(await t.db!.select().from(session).where(eq(session.userId, userId))).toHaveLength(0);
    await expect(requireFileParticipant(t.db!, userId, fileId, { beforeUndertaking: true })).rejects.toMatchObject({ code: "not-found" });
    // The old cookie no longer opens anything.
    expect(locationOf((await call(sharedFileLoader, get(browser, `/dossiers-partages/${fileId}`), { fileId })).thrown)).toBe("/auth");
  });
});

describe("folders and rights", () => {
  it("hide a side's folder from the other side and apply each participant's rights, with watermark and access log", async () => {
    const fileId = await newFile();
    // Alice (cédant) makes a cédant-only folder; Bob (acquéreur) cannot make one.
    expect(status(await call(participantsAction, post(aliceB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "folder", name: "Fiscal cédant", visibility: "cedant" }), { fileId }))).toBe(302);
    const refused = await call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "folder", name: "Interdit", visibility: "cedant" }), { fileId });
    expect(status(refused)).toBe(403);
    const [folder] = await queryRows<{ id: string }>(sql`select id from collaboration_folders where file_id = ${fileId}::uuid`, t.db!);

    // A general document (Alice, through the founders' room) and one in the cédant folder (a cédant-side member participant).
    const general = await shareDocument(fileActor(alice.profile), fileId, { name: "bilan-general.pdf", bytes: await pdf() });
    const { token } = await inviteParticipant(alice.user.id, fileId, { email: carol.email, role: "notaire", side: "cedant", rights: { voir: true, telecharger: true, deposer: true } });
    expect(status(await call(invitationAction, post(carolB, `/invitation/${token}`, { intent: "accept" }), { token }))).toBe(302);
    // A member joins without approval, but signs the undertaking too.
    expect(status(await call(sharedFileLoader, get(carolB, `/dossiers-partages/${fileId}`), { fileId }))).toBe(200);
    await call(sharedFileAction, post(carolB, `/dossiers-partages/${fileId}`, { intent: "undertaking" }), { fileId });
    const carolAccess = await requireFileParticipant(t.db!, carol.user.id, fileId);
    expect(carolAccess).toMatchObject({ kind: "member", side: "cedant", role: "notaire" });
    const form = new FormData();
    form.set("folderId", folder.id);
    form.set("file", new File([new Uint8Array(await pdf())], "liasse-cedant.pdf", { type: "application/pdf" }));
    const upload = await call(sharedFileAction, new Request(url(`/dossiers-partages/${fileId}`), { method: "POST", headers: carolB.headers, body: form }), { fileId });
    expect(status(upload)).toBe(302);
    const [secret] = await queryRows<{ id: string }>(sql`select id from collaboration_documents where folder_id = ${folder.id}::uuid`, t.db!);

    // A guest on the buyer's side with « voir » only.
    const guest = await guestJoins(fileId, "banque@example.org");
    await call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId: guest.participantId }), { fileId });
    await call(sharedFileAction, post(guest.browser, `/dossiers-partages/${fileId}`, { intent: "undertaking" }), { fileId });
    const seen = JSON.stringify((await call(sharedFileLoader, get(guest.browser, `/dossiers-partages/${fileId}`), { fileId })).value);
    expect(seen).toContain("bilan-general.pdf");
    expect(seen).not.toContain("liasse-cedant.pdf");
    expect(seen).not.toContain("Fiscal cédant");

    const docPath = (id: string, mode: string) => `/dossiers-partages/${fileId}/documents/${id}?mode=${mode}`;
    const hidden = await call(sharedDocumentLoader, get(guest.browser, docPath(secret.id, "view")), { fileId, documentId: secret.id });
    expect(status(hidden)).toBe(404);
    const download = await call(sharedDocumentLoader, get(guest.browser, docPath(general.documentId, "download")), { fileId, documentId: general.documentId });
    expect(status(download)).toBe(403);
    const view = await call(sharedDocumentLoader, get(guest.browser, docPath(general.documentId, "view")), { fileId, documentId: general.documentId });
    expect(status(view)).toBe(200);
    const bytes = new Uint8Array(await (view.value as Response).arrayBuffer());
    expect(Buffer.from(bytes).toString("latin1")).not.toEqual(Buffer.from(await pdf()).toString("latin1"));
    const log = await t.db!.select().from(documentAccessLog).where(eq(documentAccessLog.documentId, general.documentId));
    expect(log.map((l) => [l.viewerName, l.action])).toContainEqual(["Gaspard Invité", "view"]);

    // Bob (acquéreur founder) does not see the cédant folder either.
    const bobAccess = await requireFileParticipant(t.db!, bob.user.id, fileId);
    expect(bobAccess).toMatchObject({ kind: "founder", side: "acquereur", role: "fondateur" });
    expect((await requireFileParticipant(t.db!, alice.user.id, fileId)).side).toBe("cedant");
    // The founders' own room applies the same folder rule.
    expect((await listDocuments(fileActor(bob.profile), fileId)).documents.map((d) => d.name)).not.toContain("liasse-cedant.pdf");
    expect((await listDocuments(fileActor(alice.profile), fileId)).documents.map((d) => d.name)).toContain("liasse-cedant.pdf");
    await expect(openDocument(fileActor(bob.profile), fileId, secret.id, "download")).rejects.toMatchObject({ code: "not-found" });

    // Rights raised by a founder take effect at once.
    await call(participantsAction, post(aliceB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "rights", participantId: guest.participantId, voir: "on", telecharger: "on" }), { fileId });
    const again = await call(sharedDocumentLoader, get(guest.browser, docPath(general.documentId, "download")), { fileId, documentId: general.documentId });
    expect(status(again)).toBe(200);
  });
});

describe("invitations", () => {
  it("expire after seven days, can be withdrawn, and refuse a founder's address or a second open invitation", async () => {
    const fileId = await newFile();
    const now = new Date();
    const { token, participantId } = await inviteParticipant(alice.user.id, fileId, { email: "tard@example.org", role: "banque", side: "commun", rights: { voir: true, telecharger: false, deposer: false } }, new Date(now.getTime() - 8 * 86_400_000));
    expect((await readInvitation(token))?.state).toBe("expired");
    const late = await call(invitationAction, post(null, `/invitation/${token}`, { intent: "sign-up", firstName: "A", lastName: "B", password: GUEST_PASSWORD, confirmPassword: GUEST_PASSWORD }), { token });
    expect(status(late)).toBe(410);
    // Past its date, it no longer blocks a new one.
    const fresh = await inviteParticipant(bob.user.id, fileId, { email: "tard@example.org", role: "banque", side: "commun", rights: { voir: true, telecharger: false, deposer: false } });
    expect(fresh.participantId).not.toBe(participantId);
    await expect(inviteParticipant(bob.user.id, fileId, { email: "TARD@example.org", role: "avocat", side: "commun", rights: { voir: true, telecharger: false, deposer: false } })).rejects.toMatchObject({ code: "conflict" });
    await expect(inviteParticipant(bob.user.id, fileId, { email: alice.email, role: "avocat", side: "commun", rights: { voir: true, telecharger: false, deposer: false } })).rejects.toMatchObject({ code: "conflict" });
    expect(status(await call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "withdraw", participantId: fresh.participantId }), { fileId }))).toBe(302);
    expect((await readInvitation(fresh.token))?.state).toBe("withdrawn");
    const loaded = await call(invitationLoader, get({ headers: new Headers() }, `/invitation/${fresh.token}`), { token: fresh.token });
    expect(JSON.stringify(loaded.value)).not.toContain(SELLER_CLIENT);
  });

  it("are sent, withdrawn and managed by the founders only: another member gets a 404", async () => {
    const fileId = await newFile();
    const outsider = await call(participantsAction, post(carolB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "invite", email: "x@example.org", role: "avocat", side: "cedant" }), { fileId });
    expect(status(outsider)).toBe(404);
    // Signing up needs no account; accepting needs the invited address.
    const { token } = await inviteParticipant(alice.user.id, fileId, { email: "quelquun@example.org", role: "autre", side: "commun", rights: { voir: true, telecharger: false, deposer: false } });
    const wrong = await call(invitationAction, post(carolB, `/invitation/${token}`, { intent: "accept" }), { token });
    expect(status(wrong)).toBe(403);
  });
});

describe("participants in the due-diligence list, document versions and the closing archive (decision 056)", () => {
  const ddPath = (fileId: string, requestId?: string) => `/dossiers-partages/${fileId}/diligences${requestId ? `/${requestId}` : ""}`;
  const multipart = (b: Browser, path: string, fields: Record<string, string>, name: string, bytes: Uint8Array) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set("file", new File([new Uint8Array(bytes)], name, { type: "application/pdf" }));
    return new Request(url(path), { method: "POST", headers: b.headers, body: form });
  };

  it("a seller-side guest answers a request with a document into a chosen folder and versions it; the buyer's bank sees its side only; archives follow rights", async () => {
    const fileId = await newFile();
    await createListFromTemplate(fileActor(alice.profile), fileId, "fonds_de_commerce");
    expect(status(await call(participantsAction, post(aliceB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "folder", name: "Fiscal cédant", visibility: "cedant" }), { fileId }))).toBe(302);
    const [folder] = await queryRows<{ id: string }>(sql`select id from collaboration_folders where file_id = ${fileId}::uuid`, t.db!);

    const seller = await guestJoins(fileId, "expert.cedant@example.org", { role: "expert_comptable", side: "cedant", telecharger: "on", deposer: "on" });
    await call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId: seller.participantId }), { fileId });
    // Before the undertaking: neither the list nor a request, nor the archive.
    expect(status(await call(sharedDdLoader, get(seller.browser, ddPath(fileId)), { fileId }))).toBe(403);
    await call(sharedFileAction, post(seller.browser, `/dossiers-partages/${fileId}`, { intent: "undertaking" }), { fileId });

    const list = (await call(sharedDdLoader, get(seller.browser, ddPath(fileId)), { fileId })).value as { list: { items: { id: string; title: string; status: string }[]; side: string } };
    expect(list.list.side).toBe("cedant");
    expect(list.list.items.length).toBe(29);
    const item = list.list.items[0]!;
    const page = ((await call(sharedDdItemLoader, get(seller.browser, ddPath(fileId, item.id)), { fileId, requestId: item.id })).value as { page: { depositFolders: { id: string | null }[]; statuses: string[] } }).page;
    expect(page.depositFolders.map((f) => f.id)).toEqual([null, folder.id]);
    expect(page.statuses).toEqual(["in_progress", "not_applicable"]);

    // The answer: a document into the seller-only folder, linked to the request, then « fourni ».
    const provided = await call(sharedDdItemAction, multipart(seller.browser, ddPath(fileId, item.id), { folderId: folder.id }, "bail-commercial.pdf", await pdf()), { fileId, requestId: item.id });
    expect(status(provided)).toBe(302);
    const [doc] = await queryRows<{ id: string; folder_id: string; linked_by_participant: string }>(
      sql`select d.id, d.folder_id, l.linked_by_participant from collaboration_documents d join due_diligence_request_documents l on l.document_id = d.id where d.file_id = ${fileId}::uuid`,
      t.db!,
    );
    expect(doc).toMatchObject({ folder_id: folder.id, linked_by_participant: seller.participantId });
    expect(status(await call(sharedDdItemAction, post(seller.browser, ddPath(fileId, item.id), { intent: "status", status: "provided" }), { fileId, requestId: item.id }))).toBe(302);
    const [moved] = await queryRows<{ status: string }>(sql`select status::text as status from due_diligence_requests where id = ${item.id}::uuid`, t.db!);
    expect(moved.status).toBe("provided");
    // The seller's side does not validate its own answer.
    expect(status(await call(sharedDdItemAction, post(seller.browser, ddPath(fileId, item.id), { intent: "status", status: "validated" }), { fileId, requestId: item.id }))).toBe(403);

    // The buyer's bank (« voir » only): the list, not the seller-only document, no status, no upload.
    const bank = await guestJoins(fileId, "banque.acquereur@example.org", { role: "banque", side: "acquereur" });
    await call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId: bank.participantId }), { fileId });
    await call(sharedFileAction, post(bank.browser, `/dossiers-partages/${fileId}`, { intent: "undertaking" }), { fileId });
    const bankPage = ((await call(sharedDdItemLoader, get(bank.browser, ddPath(fileId, item.id)), { fileId, requestId: item.id })).value as { page: { documents: unknown[]; statuses: string[]; depositFolders: unknown[] } }).page;
    expect(bankPage).toMatchObject({ documents: [], statuses: [], depositFolders: [] });
    expect(status(await call(sharedDdItemAction, post(bank.browser, ddPath(fileId, item.id), { intent: "status", status: "validated" }), { fileId, requestId: item.id }))).toBe(403);
    expect(status(await call(sharedDdItemAction, multipart(bank.browser, ddPath(fileId, item.id), {}, "x.pdf", await pdf()), { fileId, requestId: item.id }))).toBe(403);

    // Questions per side: a common one answered by the seller's guest, a buyer-only one it never sees.
    expect(status(await call(sharedDdItemAction, post(bank.browser, ddPath(fileId, item.id), { intent: "ask", visibility: "commun", body: "Le bail est-il cessible ?" }), { fileId, requestId: item.id }))).toBe(302);
    expect(status(await call(sharedDdItemAction, post(bank.browser, ddPath(fileId, item.id), { intent: "ask", visibility: "acquereur", body: "Note interne acquéreur" }), { fileId, requestId: item.id }))).toBe(302);
    expect(status(await call(sharedDdItemAction, post(bank.browser, ddPath(fileId, item.id), { intent: "ask", visibility: "cedant", body: "Impossible" }), { fileId, requestId: item.id }))).toBe(400);
    const sellerView = ((await call(sharedDdItemLoader, get(seller.browser, ddPath(fileId, item.id)), { fileId, requestId: item.id })).value as { page: { questions: { id: string; body: string; canAnswer: boolean }[] } }).page;
    expect(sellerView.questions.map((q) => [q.body, q.canAnswer])).toEqual([["Le bail est-il cessible ?", true]]);
    const [question] = sellerView.questions;
    const [internal] = await queryRows<{ id: string }>(sql`select id from due_diligence_questions where visibility = 'acquereur' and file_id = ${fileId}::uuid`, t.db!);
    expect(status(await call(sharedDdItemAction, post(seller.browser, ddPath(fileId, item.id), { intent: "answer", questionId: internal.id, answer: "Vu" }), { fileId, requestId: item.id }))).toBe(404);
    expect(status(await call(sharedDdItemAction, post(bank.browser, ddPath(fileId, item.id), { intent: "answer", questionId: question!.id, answer: "Moi-même" }), { fileId, requestId: item.id }))).toBe(403);
    expect(status(await call(sharedDdItemAction, post(seller.browser, ddPath(fileId, item.id), { intent: "answer", questionId: question!.id, answer: "Oui, avec l’accord du bailleur." }), { fileId, requestId: item.id }))).toBe(302);
    const [answered] = await queryRows<{ status: string; answered_by_participant: string; asked_by_participant: string }>(
      sql`select status::text as status, answered_by_participant, asked_by_participant from due_diligence_questions where id = ${question!.id}::uuid`,
      t.db!,
    );
    expect(answered).toEqual({ status: "answered", answered_by_participant: seller.participantId, asked_by_participant: bank.participantId });

    // Overview, read-only: stage and progress; the agreement stays the founders'.
    const overview = JSON.stringify((await call(sharedFileLoader, get(bank.browser, `/dossiers-partages/${fileId}`), { fileId })).value);
    expect(overview).toContain("1\u00a0/\u00a029 fourni ou validé");
    expect(overview).toContain('"stageLabel":"Mise en relation"');

    // A second version of the answer: same logical document, the first one kept and still openable.
    const v2 = await call(sharedFileAction, multipart(seller.browser, `/dossiers-partages/${fileId}`, { documentId: doc!.id }, "bail-commercial-signe.pdf", await pdf()), { fileId });
    expect(status(v2)).toBe(302);
    const versions = await queryRows<{ id: string; version: number; lineage_id: string | null; superseded: boolean }>(
      sql`select id, version, lineage_id, superseded_at is not null as superseded from collaboration_documents where file_id = ${fileId}::uuid order by version`,
      t.db!,
    );
    expect(versions.map((v) => [v.version, v.lineage_id, v.superseded])).toEqual([[1, null, true], [2, doc!.id, false]]);
    // Only the latest takes a new version; the bank never sees the folder's document.
    expect(status(await call(sharedFileAction, multipart(seller.browser, `/dossiers-partages/${fileId}`, { documentId: doc!.id }, "v3.pdf", await pdf()), { fileId }))).toBe(409);
    expect(status(await call(sharedFileAction, multipart(bank.browser, `/dossiers-partages/${fileId}`, { documentId: versions[1]!.id }, "v3.pdf", await pdf()), { fileId }))).toBe(404);
    const sellerFile = (await call(sharedFileLoader, get(seller.browser, `/dossiers-partages/${fileId}`), { fileId })).value as { view: { folders: { documents: { name: string; version: number; earlierVersions: { id: string }[] }[] }[] } };
    const listed = sellerFile.view.folders.flatMap((f) => f.documents);
    expect(listed.map((d) => [d.name, d.version, d.earlierVersions.map((e) => e.id)])).toEqual([["bail-commercial-signe.pdf", 2, [doc!.id]]]);
    const old = await call(sharedDocumentLoader, get(seller.browser, `/dossiers-partages/${fileId}/documents/${doc!.id}?mode=download`), { fileId, documentId: doc!.id });
    expect(status(old)).toBe(200);
    // The founders' room lists the versions too, on Alice's side only.
    const aliceRoom = await listDocuments(fileActor(alice.profile), fileId);
    expect(aliceRoom.documents.map((d) => [d.name, d.version, d.earlierVersions.length, d.folderName])).toEqual([["bail-commercial-signe.pdf", 2, 1, "Fiscal cédant"]]);
    // The guest who deposited it is named, not taken for a member who left.
    expect(aliceRoom.documents[0].uploaderName).not.toBe(GONE_MEMBER_NAME);
    expect(aliceRoom.documents[0].uploaderName.trim()).not.toBe("");
    expect((await listDocuments(fileActor(bob.profile), fileId)).documents).toEqual([]);

    // The closing archive: every version for the seller's guest, a 403 for the bank without « télécharger ».
    await shareDocument(fileActor(bob.profile), fileId, { name: "offre.pdf", bytes: await pdf() });
    await t.db!.execute(sql`update collaboration_files set stage = 'concluded' where id = ${fileId}::uuid`);
    const entriesOf = async (b: Browser) => {
      const res = (await call(sharedArchiveLoader, get(b, `/dossiers-partages/${fileId}/archive`), { fileId })).value as Response;
      expect(res.status).toBe(200);
      const zip = await JSZip.loadAsync(new Uint8Array(await res.arrayBuffer()));
      const manifest = JSON.parse(await zip.file("manifeste.json")!.async("string")) as { entries: { path: string; sha256: string }[] };
      for (const e of manifest.entries) expect(createHash("sha256").update(await zip.file(e.path)!.async("uint8array")).digest("hex"), e.path).toBe(e.sha256);
      return manifest.entries.map((e) => e.path).sort();
    };
    expect(await entriesOf(seller.browser)).toEqual([
      "diligences/diligences-questions-reponses.json",
      "diligences/liste-de-diligences.pdf",
      "diligences/liste-de-diligences.xlsx",
      "documents/bail-commercial/v1-bail-commercial.pdf",
      "documents/bail-commercial/v2-bail-commercial-signe.pdf",
      "documents/offre/v1-offre.pdf",
    ]);
    const refused = (await call(sharedArchiveLoader, get(bank.browser, `/dossiers-partages/${fileId}/archive`), { fileId })).value as Response;
    expect(refused.status).toBe(403);
    await call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "rights", participantId: bank.participantId, voir: "on", telecharger: "on" }), { fileId });
    const bankEntries = await entriesOf(bank.browser);
    expect(bankEntries).toEqual([
      "diligences/diligences-questions-reponses.json",
      "diligences/liste-de-diligences.pdf",
      "diligences/liste-de-diligences.xlsx",
      "documents/offre/v1-offre.pdf",
    ]);
  }, 180_000);

  it("both archives hold the whole list past its first page, with owners and every question their side sees; the founders' archive sends a participant to theirs", async () => {
    const fileId = await newFile();
    await createListFromTemplate(fileActor(alice.profile), fileId, "fonds_de_commerce");
    // Past the list's page (50): 30 more requests, the last one owned by the guest and asked about.
    await t.db!.execute(sql`insert into due_diligence_requests (file_id, category, title, position)
      select ${fileId}::uuid, 'contrats', 'Contrat fournisseur ' || lpad(n::text, 2, '0'), 100 + n from generate_series(1, 30) n`);
    const guest = await guestJoins(fileId, "conseil.archive@example.org", { role: "avocat", side: "cedant", telecharger: "on", deposer: "on" });
    await call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId: guest.participantId }), { fileId });
    await call(sharedFileAction, post(guest.browser, `/dossiers-partages/${fileId}`, { intent: "undertaking" }), { fileId });
    const [last] = await queryRows<{ id: string }>(sql`select id from due_diligence_requests where file_id = ${fileId}::uuid and title = 'Contrat fournisseur 30'`, t.db!);
    await t.db!.execute(sql`update due_diligence_requests set owner_participant_id = ${guest.participantId}::uuid where id = ${last!.id}::uuid`);
    expect(status(await call(sharedDdItemAction, post(guest.browser, ddPath(fileId, last!.id), { intent: "ask", visibility: "commun", body: "Le contrat est-il transférable ?" }), { fileId, requestId: last!.id }))).toBe(302);
    await t.db!.execute(sql`update collaboration_files set stage = 'concluded' where id = ${fileId}::uuid`);

    const unzip = async (res: Response) => {
      expect(res.status).toBe(200);
      const zip = await JSZip.loadAsync(new Uint8Array(await res.arrayBuffer()));
      const manifest = JSON.parse(await zip.file("manifeste.json")!.async("string")) as { entries: { path: string; sha256: string; size: number }[] };
      for (const e of manifest.entries) {
        const content = await zip.file(e.path)!.async("uint8array");
        expect(createHash("sha256").update(content).digest("hex"), e.path).toBe(e.sha256);
        expect(content.byteLength, e.path).toBe(e.size);
      }
      return zip;
    };
    const mine = await unzip((await call(sharedArchiveLoader, get(guest.browser, `/dossiers-partages/${fileId}/archive`), { fileId })).value as Response);
    const listed = JSON.parse(await mine.file("diligences/diligences-questions-reponses.json")!.async("string")) as {
      requests: { demande: string; responsable: string | null }[];
      questions: { demande: string; question: string }[];
    };
    expect(listed.requests).toHaveLength(59);
    expect(listed.requests.at(-1)).toEqual(expect.objectContaining({ demande: "Contrat fournisseur 30", responsable: expect.any(String) }));
    expect(listed.questions).toEqual([expect.objectContaining({ demande: "Contrat fournisseur 30", question: "Le contrat est-il transférable ?" })]);
    const founders = await unzip((await call(founderArchiveLoader, get(aliceB, `/dashboard/dossiers/${fileId}/archive`), { fileId })).value as Response);
    const qa = JSON.parse(await founders.file("diligences/questions-reponses.json")!.async("string")) as { questions: { demande: string }[] };
    expect(qa.questions.map((q) => q.demande)).toEqual(["Contrat fournisseur 30"]);
    // A guest never reaches the member space (a member participant is sent to their own archive: the matrix below).
    const member = await call(founderArchiveLoader, get(guest.browser, `/dashboard/dossiers/${fileId}/archive`), { fileId });
    expect(locationOf(member.thrown)).toBe("/dossiers-partages");
  }, 180_000);
});

// The authorization matrix's participant columns: the roles of the main matrix have no place in a
// file beyond its two founders, so every due-diligence route and every /dossiers-partages route of
// a file is run here for the people a file adds. A GET's outcome, and a POST of an empty form.
describe("authorization matrix of a file's participants (due-diligence and shared routes)", () => {
  const PARTICIPANT_ROLES = ["stranger", "guestPending", "guestUnsigned", "guestApproved", "memberParticipant", "founding", "removedGuest", "removedMember"] as const;
  type Role = (typeof PARTICIPANT_ROLES)[number];
  type Cells = Record<Role, number | string>;
  type Row = { path: string; url: (f: { fileId: string; requestId: string; documentId: string }) => string; params: (f: { fileId: string; requestId: string; documentId: string }) => Record<string, string>; get: [(args: never) => Promise<unknown>, Cells]; post?: [(args: never) => Promise<unknown>, Cells] };
  const row = (v: Cells): Cells => v;
  // Guests never reach the member space (sent to their files); a removed guest's sessions are gone.
  const FOUNDERS_GET = (founding: number | string, participant: number | string): Cells =>
    row({ stranger: 404, guestPending: "/dossiers-partages", guestUnsigned: "/dossiers-partages", guestApproved: "/dossiers-partages", memberParticipant: participant, founding, removedGuest: "/auth", removedMember: 404 });
  const FOUNDERS_POST = row({ stranger: 404, guestPending: 403, guestUnsigned: 403, guestApproved: 403, memberParticipant: 404, founding: 400, removedGuest: 401, removedMember: 404 });
  const ROWS: Row[] = [
    {
      path: "/dashboard/dossiers/:fileId/diligences",
      url: (f) => `/dashboard/dossiers/${f.fileId}/diligences`,
      params: (f) => ({ fileId: f.fileId }),
      get: [founderDdLoader, FOUNDERS_GET(200, "/dossiers-partages/:fileId/diligences")],
      post: [founderDdAction, FOUNDERS_POST],
    },
    {
      path: "/dashboard/dossiers/:fileId/diligences/export",
      url: (f) => `/dashboard/dossiers/${f.fileId}/diligences/export?format=xlsx`,
      params: (f) => ({ fileId: f.fileId }),
      get: [founderDdExportLoader, FOUNDERS_GET(200, 404)],
    },
    {
      path: "/dashboard/dossiers/:fileId/diligences/:requestId",
      url: (f) => `/dashboard/dossiers/${f.fileId}/diligences/${f.requestId}`,
      params: (f) => ({ fileId: f.fileId, requestId: f.requestId }),
      get: [founderDdItemLoader, FOUNDERS_GET(200, "/dossiers-partages/:fileId/diligences/:requestId")],
      post: [founderDdItemAction, FOUNDERS_POST],
    },
    {
      // The founders' closing archive: a participant is sent to their own (409 here: not concluded).
      path: "/dashboard/dossiers/:fileId/archive",
      url: (f) => `/dashboard/dossiers/${f.fileId}/archive`,
      params: (f) => ({ fileId: f.fileId }),
      get: [founderArchiveLoader, FOUNDERS_GET(409, "/dossiers-partages/:fileId/archive")],
    },
    {
      path: "/dossiers-partages/:fileId",
      url: (f) => `/dossiers-partages/${f.fileId}`,
      params: (f) => ({ fileId: f.fileId }),
      // Before the undertaking: the undertaking page itself (no client on it, see the canary).
      get: [sharedFileLoader, row({ stranger: 404, guestPending: 404, guestUnsigned: 200, guestApproved: 200, memberParticipant: 200, founding: "/dashboard/dossiers/:fileId", removedGuest: "/auth", removedMember: 404 })],
      post: [sharedFileAction, row({ stranger: 404, guestPending: 404, guestUnsigned: 400, guestApproved: 400, memberParticipant: 400, founding: 400, removedGuest: 401, removedMember: 404 })],
    },
    {
      path: "/dossiers-partages/:fileId/documents/:documentId",
      url: (f) => `/dossiers-partages/${f.fileId}/documents/${f.documentId}?mode=download`,
      params: (f) => ({ fileId: f.fileId, documentId: f.documentId }),
      get: [sharedDocumentLoader, row({ stranger: 404, guestPending: 404, guestUnsigned: 403, guestApproved: 200, memberParticipant: 200, founding: 200, removedGuest: "/auth", removedMember: 404 })],
    },
    {
      path: "/dossiers-partages/:fileId/diligences",
      url: (f) => `/dossiers-partages/${f.fileId}/diligences`,
      params: (f) => ({ fileId: f.fileId }),
      get: [sharedDdLoader, row({ stranger: 404, guestPending: 404, guestUnsigned: 403, guestApproved: 200, memberParticipant: 200, founding: "/dashboard/dossiers/:fileId/diligences", removedGuest: "/auth", removedMember: 404 })],
    },
    {
      path: "/dossiers-partages/:fileId/diligences/:requestId",
      url: (f) => `/dossiers-partages/${f.fileId}/diligences/${f.requestId}`,
      params: (f) => ({ fileId: f.fileId, requestId: f.requestId }),
      get: [sharedDdItemLoader, row({ stranger: 404, guestPending: 404, guestUnsigned: 403, guestApproved: 200, memberParticipant: 200, founding: "/dashboard/dossiers/:fileId/diligences/:requestId", removedGuest: "/auth", removedMember: 404 })],
      post: [sharedDdItemAction, row({ stranger: 404, guestPending: 404, guestUnsigned: 403, guestApproved: 400, memberParticipant: 400, founding: 400, removedGuest: 401, removedMember: 404 })],
    },
    {
      path: "/dossiers-partages/:fileId/archive",
      url: (f) => `/dossiers-partages/${f.fileId}/archive`,
      params: (f) => ({ fileId: f.fileId }),
      // The file is not concluded: 409 for whoever may download it.
      get: [sharedArchiveLoader, row({ stranger: 404, guestPending: 404, guestUnsigned: 403, guestApproved: 409, memberParticipant: 409, founding: 409, removedGuest: "/auth", removedMember: 404 })],
    },
  ];

  type RouteNode = { path?: string; children?: RouteNode[] };
  const flatten = (nodes: RouteNode[], prefix = ""): string[] =>
    nodes.flatMap((n) => {
      const full = n.path === undefined ? prefix : `${prefix.replace(/\/$/, "")}/${n.path}`.replace(/\/+/g, "/");
      return [...(n.path === undefined ? [] : [full]), ...flatten(n.children ?? [], full)];
    });

  it("has a row for every due-diligence route and every route of a shared file", () => {
    const wanted = [...new Set(flatten(routeConfig as RouteNode[]))]
      .filter((p) => p.includes("/diligences") || p.startsWith("/dossiers-partages/:fileId") || p === "/dashboard/dossiers/:fileId/archive")
      .sort();
    expect(ROWS.map((r) => r.path).sort()).toEqual(wanted);
  });

  it("every cell has its expected outcome", { timeout: 120_000 }, async () => {
    const fileId = await newFile();
    await createListFromTemplate(fileActor(alice.profile), fileId, "fonds_de_commerce");
    const [request] = await queryRows<{ id: string }>(sql`select id from due_diligence_requests where file_id = ${fileId}::uuid order by position limit 1`, t.db!);
    const shared = await shareDocument(fileActor(alice.profile), fileId, { name: "bilan.pdf", bytes: await pdf() });
    const f = { fileId, requestId: request!.id, documentId: shared.documentId };
    const approve = (participantId: string) => call(participantsAction, post(bobB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "approve", participantId }), { fileId });
    const remove = (participantId: string) => call(participantsAction, post(aliceB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "remove", participantId }), { fileId });
    const sign = (b: Browser) => call(sharedFileAction, post(b, `/dossiers-partages/${fileId}`, { intent: "undertaking" }), { fileId });
    /** A member of the network invited into the file, approved, who signed the undertaking. */
    const memberJoins = async (m: CreatedMember, b: Browser) => {
      expect(status(await call(participantsAction, post(aliceB, `/dashboard/dossiers/${fileId}/intervenants`, { intent: "invite", email: m.user.email, role: "notaire", side: "commun", voir: "on", telecharger: "on" }), { fileId }))).toBe(302);
      const token = await tokenMailedTo(m.user.email);
      expect(status(await call(invitationAction, post(b, `/invitation/${token}`, { intent: "accept" }), { token }))).toBe(302);
      const [p] = await queryRows<{ id: string }>(sql`select cp.id from collaboration_participants cp where cp.file_id = ${fileId}::uuid and cp.user_id = ${m.user.id}`, t.db!);
      await approve(p!.id);
      expect(status(await sign(b))).toBe(302);
      return p!.id;
    };

    const stranger = await createMember(t.db!, { profile: { firstName: "Étienne", lastName: "Étranger" } });
    const member = await createMember(t.db!, { profile: { firstName: "Marthe", lastName: "Notaire" } });
    const leaving = await createMember(t.db!, { profile: { firstName: "Louis", lastName: "Retiré" } });
    const [strangerB, memberB, leavingB] = await Promise.all([signIn(stranger), signIn(member), signIn(leaving)]);
    const pending = await guestJoins(fileId, "matrice.attente@example.org", { telecharger: "on" });
    const unsigned = await guestJoins(fileId, "matrice.sans.engagement@example.org", { telecharger: "on" });
    await approve(unsigned.participantId);
    const approved = await guestJoins(fileId, "matrice.approuve@example.org", { telecharger: "on" });
    await approve(approved.participantId);
    expect(status(await sign(approved.browser))).toBe(302);
    const removedGuest = await guestJoins(fileId, "matrice.retire@example.org", { telecharger: "on" });
    await approve(removedGuest.participantId);
    await sign(removedGuest.browser);
    await remove(removedGuest.participantId);
    await memberJoins(member, memberB);
    await remove(await memberJoins(leaving, leavingB));

    const browsers: Record<Role, Browser> = {
      stranger: strangerB,
      guestPending: pending.browser,
      guestUnsigned: unsigned.browser,
      guestApproved: approved.browser,
      memberParticipant: memberB,
      founding: aliceB,
      removedGuest: removedGuest.browser,
      removedMember: leavingB,
    };
    const outcome = (o: { value?: unknown; thrown?: unknown }): number | string => {
      const location = locationOf(o.thrown ?? o.value);
      return location ? location.replace(fileId, ":fileId").replace(f.requestId, ":requestId").split("?")[0]! : status(o);
    };
    const observed: string[] = [];
    const mismatches: string[] = [];
    for (const r of ROWS) {
      for (const [method, pair] of [["GET", r.get], ["POST", r.post]] as const) {
        if (!pair) continue;
        const [fn, expected] = pair;
        for (const role of PARTICIPANT_ROLES) {
          const b = browsers[role];
          const req = method === "GET" ? get(b, r.url(f)) : new Request(url(r.url(f)), { method: "POST", headers: b.headers, body: new URLSearchParams() });
          const actual = outcome(await call(fn, req, r.params(f)));
          observed.push(`${method} ${r.path} ${role}: ${actual}`);
          if (actual !== expected[role]) mismatches.push(`${method} ${r.path} ${role}: expected ${expected[role]}, got ${actual}`);
        }
      }
    }
    if (process.env.MATRIX_PROBE) console.log(observed.join("\n"));
    expect(mismatches).toEqual([]);
  });
});

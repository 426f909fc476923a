// The « Messages » view (issue 31 §3, decision 054): conversations by counterpart and by file,
// unread marks, search, the freemium first line, one read state shared with the file page; and
// sending internal messages. On PGlite and on PostgreSQL.
import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collaborationFiles, collaborationMessages, mailOutbox, messageReads, messages, rateLimitCounters } from "~/db/schema";
import { markFileRead, postFileMessage } from "~/features/collaboration/collaboration.server";
import { getFileView } from "~/features/collaboration/file-view.server";
import { listMyFiles } from "~/features/collaboration/file-list.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import {
  CONVERSATIONS_PAGE_SIZE,
  conversationOfMessage,
  getConversation,
  listConversations,
  markConversationRead,
  unreadConversations,
} from "~/features/messages/conversations.server";
import { expectedMessage, expectedStatus } from "~/lib/errors/http";
import { readsFromLegacyMarks } from "~/features/messages/message-reads.server";
import { MESSAGING_ERRORS } from "~/features/messages/messages.schema";
import { type MessageActor, sendInternalMessage } from "~/features/messages/messages.server";
import { RATE_LIMITS } from "~/lib/rate-limit.server";
import { type CreatedMember, createMember, createMessage, seedFactories, setEmailFrequency } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { openFileBetween } from "./file-helpers";

const t = useTestDatabase();

const actorOf = (m: CreatedMember): MessageActor => ({ user: { id: m.user.id, email: m.email }, profile: m.profile });

/** The HTTP status of what a command throws (0 when it resolves). */
async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 0;
  } catch (error) {
    const status = expectedStatus(error);
    if (status === null) throw error;
    return status;
  }
}

const LONG = `Bonjour, ${"j'accompagne une PME industrielle lyonnaise ".repeat(6)}fin.`;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

let premium: CreatedMember;
let founder: CreatedMember;
let freemium: CreatedMember;
let other: CreatedMember;

beforeAll(async () => {
  seedFactories(5);
  const db = t.db!;
  premium = await createMember(db, { profile: { firstName: "Paul", lastName: "Martin", membershipType: "premium" } });
  founder = await createMember(db, { profile: { firstName: "Hélène", lastName: "Marchand", membershipType: "founding_member" } });
  freemium = await createMember(db, { profile: { firstName: "Julie", lastName: "Morel", membershipType: "freemium" } });
  other = await createMember(db, { profile: { firstName: "Luc", lastName: "Bernard", membershipType: "premium" } });
  await setEmailFrequency(db, [other], "immediate", ["messages"]);
});

beforeEach(async () => {
  const db = t.db!;
  await db.delete(messages);
  await db.delete(collaborationFiles);
  await db.delete(mailOutbox);
  await db.delete(rateLimitCounters);
});

describe("conversations: the list", () => {
  it("groups a peer's messages both ways into one conversation, newest activity first, with unread counts", async () => {
    const db = t.db!;
    await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id, subject: "Co-mandat", createdAt: minutesAgo(50), isRead: true });
    await createMessage(db, other.profile.id, { messageType: "internal", senderId: premium.profile.id, subject: "Re : Co-mandat", createdAt: minutesAgo(40), isRead: false });
    const unreadFromLuc = await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id, subject: "Suite", createdAt: minutesAgo(5), isRead: false });
    const visitor = await createMessage(db, premium.profile.id, { messageType: "public_contact", senderId: null, senderName: "Anne Visiteur", subject: "Cession", createdAt: minutesAgo(20), isRead: false });
    await createMessage(db, founder.profile.id, { subject: "Pour un autre", isRead: false });

    const list = await listConversations(actorOf(premium));
    expect(list.items.map((c) => c.key)).toEqual([`confrere-${other.profile.id}`, `contact-${visitor.id}`]);
    expect(list.items[0]).toMatchObject({ kind: "member", title: "Luc Bernard", subject: "Suite", unread: 1, lastByMe: false, lastAt: unreadFromLuc.createdAt.toISOString() });
    expect(list.items[1]).toMatchObject({ kind: "contact", title: "Anne Visiteur", unread: 1 });
    expect(list).toMatchObject({ total: 2, unreadConversations: 2 });
    expect(await unreadConversations(premium.profile.id)).toBe(2);
    // The sender sees the same conversation from their side, their message read.
    const luc = await listConversations(actorOf(other));
    expect(luc.items.map((c) => c.key)).toContain(`confrere-${premium.profile.id}`);
    expect(await unreadConversations(founder.profile.id)).toBe(1);
  });

  it("lists a file's thread as a conversation of the file, and filters by view", async () => {
    const db = t.db!;
    const { fileId } = await openFileBetween(db, premium, other, { buyer: "Client Acheteur SAS", seller: "Client Vendeur SARL" });
    await postFileMessage(fileActor(other.profile), fileId, "Bonjour Paul, voici la lettre d’intention.");
    await createMessage(db, premium.profile.id, { messageType: "public_contact", senderId: null, subject: "Reprise", createdAt: minutesAgo(60) });
    const all = await listConversations(actorOf(premium));
    expect(all.items[0]).toMatchObject({ key: `dossier-${fileId}`, kind: "file", subtitle: "Luc Bernard", unread: 1, preview: "Bonjour Paul, voici la lettre d’intention." });
    expect(all.items[0].title).toMatch(/^Dossier /);
    expect((await listConversations(actorOf(premium), { view: "dossiers" })).items.map((c) => c.kind)).toEqual(["file"]);
    expect((await listConversations(actorOf(premium), { view: "confreres" })).items.map((c) => c.kind)).toEqual(["contact"]);
    // The writer has nothing unread in their own thread.
    expect((await listConversations(actorOf(other), { view: "dossiers" })).items[0]).toMatchObject({ unread: 0, lastByMe: true });
    // No client identity in the list.
    expect(JSON.stringify(all)).not.toMatch(/Client Acheteur|Client Vendeur/);
  });

  it("searches names, subjects, references and bodies, accents and case aside", async () => {
    const db = t.db!;
    await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id, subject: "Hôtel à Annecy", content: "Un établissement de 40 chambres." });
    await createMessage(db, premium.profile.id, { messageType: "public_contact", senderId: null, senderName: "Zoé Durand", subject: "Boulangerie", content: "Je vends ma boulangerie à Tours." });
    const search = async (q: string, who = premium) => (await listConversations(actorOf(who), { search: q })).items.map((c) => c.title);
    expect(await search("hotel")).toEqual(["Luc Bernard"]);
    expect(await search("CHAMBRES")).toEqual(["Luc Bernard"]);
    expect(await search("zoe")).toEqual(["Zoé Durand"]);
    expect(await search("tours")).toEqual(["Zoé Durand"]);
    expect(await search("bernard")).toEqual(["Luc Bernard"]);
    expect(await search("introuvable")).toEqual([]);
    // LIKE wildcards are plain characters.
    expect(await search("%")).toEqual([]);
  });

  it("never lets a freemium member search what they may not read", async () => {
    const db = t.db!;
    await createMessage(db, freemium.profile.id, { messageType: "internal", senderId: other.profile.id, subject: "Projet", content: "Première ligne.\nLe mot secret est artichaut." });
    expect((await listConversations(actorOf(freemium), { search: "artichaut" })).items).toHaveLength(0);
    expect((await listConversations(actorOf(freemium), { search: "projet" })).items).toHaveLength(1);
    expect((await listConversations(actorOf(premium), { search: "artichaut" })).items).toHaveLength(0);
  });

  it("pages the conversations", async () => {
    const db = t.db!;
    for (let i = 0; i < CONVERSATIONS_PAGE_SIZE + 2; i++) {
      await createMessage(db, founder.profile.id, { messageType: "public_contact", senderId: null, subject: `Message ${i}`, createdAt: minutesAgo(100 - i) });
    }
    const second = await listConversations(actorOf(founder), { page: 2 });
    expect(second.items.map((c) => c.subject)).toEqual(["Message 1", "Message 0"]);
    expect(second).toMatchObject({ page: 2, pageCount: 2, total: CONVERSATIONS_PAGE_SIZE + 2 });
  });
});

describe("conversations: the freemium first line", () => {
  it("gives a freemium member the first line of every message, in the list and the thread, and nothing more", async () => {
    const db = t.db!;
    await createMessage(db, freemium.profile.id, { messageType: "internal", senderId: other.profile.id, subject: "Co-mandat", content: "Bonjour Julie,\nConfidentiel : le client est à Lyon.", createdAt: minutesAgo(1) });
    const visitor = await createMessage(db, freemium.profile.id, { messageType: "public_contact", senderId: null, senderEmail: "visiteur@exemple.fr", content: LONG, createdAt: minutesAgo(30) });
    const list = await listConversations(actorOf(freemium));
    expect(list.items[0]).toMatchObject({ kind: "member", limited: true, preview: "Bonjour Julie,…" });
    expect(list.items[1]).toMatchObject({ kind: "contact", limited: true, preview: `${LONG.slice(0, 100)}…` });
    const thread = await getConversation(actorOf(freemium), { kind: "member", id: other.profile.id });
    expect(thread.messages[0]).toMatchObject({ body: null, preview: "Bonjour Julie,…", limited: true });
    expect(thread.reply).toEqual({ kind: "premium" });
    expect(JSON.stringify([list, thread])).not.toContain("Confidentiel");
    // A visitor's address stays, so that the visitor gets an answer.
    const contact = await getConversation(actorOf(freemium), { kind: "contact", id: visitor.id });
    expect(contact.reply).toMatchObject({ kind: "email", email: "visiteur@exemple.fr" });
    expect(contact.messages[0].body).toBeNull();
  });

  it("shows premium members everything, a peer's e-mail never", async () => {
    const db = t.db!;
    await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id, senderEmail: other.email, content: LONG });
    const thread = await getConversation(actorOf(premium), { kind: "member", id: other.profile.id });
    expect(thread.messages[0]).toMatchObject({ body: LONG, limited: false });
    expect(thread.reply).toMatchObject({ kind: "internal" });
    expect(JSON.stringify(thread)).not.toContain(other.email);
  });
});

describe("conversations: one read state", () => {
  it("reading a file's thread in « Messages » reads it in the file, and the other way round", async () => {
    const db = t.db!;
    const { fileId } = await openFileBetween(db, premium, other, { buyer: "A SAS", seller: "B SARL" });
    const luc = fileActor(other.profile);
    await postFileMessage(luc, fileId, "Premier message");
    const paul = { profileId: premium.profile.id };
    expect((await getFileView(paul, fileId)).unread).toBe(1);
    const thread = await getConversation(actorOf(premium), { kind: "file", id: fileId });
    await markConversationRead(actorOf(premium), { kind: "file", id: fileId }, thread.lastMessageId);
    expect((await getFileView(paul, fileId)).unread).toBe(0);
    expect((await listMyFiles(paul)).items[0].unread).toBe(0);

    await postFileMessage(luc, fileId, "Deuxième message");
    expect(await unreadConversations(premium.profile.id)).toBe(1);
    const view = await getFileView(paul, fileId);
    await markFileRead(paul, fileId, view.lastMessageId);
    expect((await listConversations(actorOf(premium))).items[0]).toMatchObject({ key: `dossier-${fileId}`, unread: 0 });
    expect(await unreadConversations(premium.profile.id)).toBe(0);
    // The previous release's mark is written too (expand/contract).
    const [file] = await db.select().from(collaborationFiles).where(eq(collaborationFiles.id, fileId));
    expect(file.memberAReadAt ?? file.memberBReadAt).not.toBeNull();
  });

  it("marks read up to the message shown only: one that arrived meanwhile stays new", async () => {
    const db = t.db!;
    const first = await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id, createdAt: minutesAgo(10), isRead: false });
    await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id, createdAt: minutesAgo(1), isRead: false });
    await markConversationRead(actorOf(premium), { kind: "member", id: other.profile.id }, first.id);
    const thread = await getConversation(actorOf(premium), { kind: "member", id: other.profile.id });
    expect(thread.messages.map((m) => m.unread)).toEqual([false, true]);
    const [row] = await db.select().from(messages).where(eq(messages.id, first.id));
    expect(row.isRead).toBe(true);
    await markConversationRead(actorOf(premium), { kind: "member", id: other.profile.id }, null);
    expect(await unreadConversations(premium.profile.id)).toBe(0);
    // Idempotent.
    await markConversationRead(actorOf(premium), { kind: "member", id: other.profile.id }, null);
    expect(await db.select().from(messageReads).where(eq(messageReads.profileId, premium.profile.id))).toHaveLength(2);
  });

  it("is scoped by the member: someone else's conversation is a 404, to read or to mark", async () => {
    const db = t.db!;
    const m = await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id, isRead: false });
    const visitor = await createMessage(db, premium.profile.id, { messageType: "public_contact", senderId: null, isRead: false });
    const { fileId } = await openFileBetween(db, premium, other, { buyer: "A SAS", seller: "B SARL" });
    for (const ref of [
      { kind: "member", id: other.profile.id },
      { kind: "contact", id: visitor.id },
      { kind: "file", id: fileId },
    ] as const) {
      expect(await statusOf(getConversation(actorOf(founder), ref))).toBe(404);
      expect(await statusOf(markConversationRead(actorOf(founder), ref, null))).toBe(404);
    }
    // A peer's message is not a `contact-` conversation; nobody converses with themselves.
    expect(await statusOf(getConversation(actorOf(premium), { kind: "contact", id: m.id }))).toBe(404);
    expect(await statusOf(getConversation(actorOf(premium), { kind: "member", id: premium.profile.id }))).toBe(404);
    expect(await statusOf(conversationOfMessage(actorOf(founder), m.id))).toBe(404);
    expect(await conversationOfMessage(actorOf(premium), m.id)).toEqual({ kind: "member", id: other.profile.id });
    expect(await conversationOfMessage(actorOf(other), m.id)).toEqual({ kind: "member", id: premium.profile.id });
    expect(await conversationOfMessage(actorOf(premium), visitor.id)).toEqual({ kind: "contact", id: visitor.id });
    expect(await db.select().from(messageReads)).toHaveLength(0);
  });

  it("keeps every read mark of the previous model (migration 0032's copy)", async () => {
    const db = t.db!;
    const { fileId } = await openFileBetween(db, premium, other, { buyer: "A SAS", seller: "B SARL" });
    await db.insert(collaborationMessages).values([
      { fileId, senderProfileId: other.profile.id, body: "lu", createdAt: minutesAgo(10) },
      { fileId, senderProfileId: other.profile.id, body: "pas lu", createdAt: minutesAgo(1) },
    ]);
    const [file] = await db.select().from(collaborationFiles).where(eq(collaborationFiles.id, fileId));
    const paulSide = file.memberAId === premium.profile.id ? { memberAReadAt: minutesAgo(5) } : { memberBReadAt: minutesAgo(5) };
    await db.update(collaborationFiles).set(paulSide).where(eq(collaborationFiles.id, fileId));
    const read = await db.insert(messages).values({ recipientId: premium.profile.id, senderName: "V", senderEmail: "v@exemple.fr", subject: "s", content: "c", messageType: "public_contact", isRead: true }).returning();
    await db.insert(messages).values({ recipientId: premium.profile.id, senderName: "W", senderEmail: "w@exemple.fr", subject: "s", content: "c", messageType: "public_contact", isRead: false });
    await readsFromLegacyMarks(db);
    const thread = await getConversation(actorOf(premium), { kind: "file", id: fileId });
    expect(thread.messages.map((m) => [m.body, m.unread])).toEqual([["lu", false], ["pas lu", true]]);
    const reads = await db.select().from(messageReads).where(and(eq(messageReads.profileId, premium.profile.id), eq(messageReads.messageId, read[0].id)));
    expect(reads).toHaveLength(1);
    expect(await unreadConversations(premium.profile.id)).toBe(2);
  });
});

describe("internal messaging", () => {
  const input = (recipientId: string, overrides: Partial<{ subject: string; message: string }> = {}) => ({
    recipientId,
    subject: "Co-mandat sur une PME lyonnaise",
    message: LONG,
    ...overrides,
  });

  it("stores an internal message from the actor and notifies the recipient (sender, subject, 100 characters + '…')", async () => {
    const db = t.db!;
    const { id } = await sendInternalMessage(actorOf(premium), input(other.profile.id));
    const [row] = await db.select().from(messages).where(eq(messages.id, id));
    expect(row).toMatchObject({
      recipientId: other.profile.id,
      senderId: premium.profile.id,
      senderName: "Paul Martin",
      senderEmail: premium.email,
      messageType: "internal",
      subject: "Co-mandat sur une PME lyonnaise",
      content: LONG,
      isRead: false,
    });
    const mails = await db.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0].toAddress).toBe(other.email);
    expect(mails[0].subject).toBe("Nouveau message\u00a0: Co-mandat sur une PME lyonnaise");
    expect(mails[0].text).toContain("Paul Martin");
    expect(mails[0].text).toContain(`${LONG.slice(0, 100)}…`);
    expect(mails[0].text).not.toContain(LONG.slice(0, 101));
    expect(mails[0].text).toContain(`/dashboard/messages/confrere-${premium.profile.id}`);
    // It arrives in the recipient's « Messages », unread.
    expect((await listConversations(actorOf(other))).items.map((c) => [c.key, c.unread])).toEqual([[`confrere-${premium.profile.id}`, 1]]);
    expect(id).toBeTruthy();
  });

  it("works for founding members too, and to freemium recipients", async () => {
    await sendInternalMessage(actorOf(founder), input(freemium.profile.id));
    expect((await listConversations(actorOf(freemium))).items).toHaveLength(1);
  });

  it("is refused to freemium members (403), nothing stored or sent", async () => {
    const db = t.db!;
    const attempt = sendInternalMessage(actorOf(freemium), input(premium.profile.id));
    await expect(attempt).rejects.toSatisfy((e: unknown) => expectedStatus(e) === 403 && expectedMessage(e, "") === MESSAGING_ERRORS.premiumOnly);
    expect(await db.select().from(messages)).toHaveLength(0);
    expect(await db.select().from(mailOutbox)).toHaveLength(0);
  });

  it("refuses messages to oneself, to unknown ids and to members who are not validated", async () => {
    const db = t.db!;
    const pending = await createMember(db, { profile: { profileStatus: "pending_validation" } });
    const suspended = await createMember(db, { profile: { profileStatus: "suspended" } });
    expect(await statusOf(sendInternalMessage(actorOf(premium), input(premium.profile.id)))).toBe(400);
    expect(await statusOf(sendInternalMessage(actorOf(premium), input("pas-un-uuid")))).toBe(404);
    expect(await statusOf(sendInternalMessage(actorOf(premium), input("6f1c3c57-57a3-4c59-9d1e-2d1c8e6f0a11")))).toBe(404);
    expect(await statusOf(sendInternalMessage(actorOf(premium), input(pending.profile.id)))).toBe(404);
    expect(await statusOf(sendInternalMessage(actorOf(premium), input(suspended.profile.id)))).toBe(404);
    expect(await db.select().from(messages)).toHaveLength(0);
  });

  it.each(["daily", "off"] as const)("respects the recipient's message preference (%s: no e-mail now)", async (frequency) => {
    const db = t.db!;
    await setEmailFrequency(db, [other], frequency, ["messages"]);
    try {
      await sendInternalMessage(actorOf(premium), input(other.profile.id));
      expect(await db.select().from(messages)).toHaveLength(1);
      expect(await db.select().from(mailOutbox)).toHaveLength(0);
    } finally {
      await setEmailFrequency(db, [other], "immediate", ["messages"]);
    }
  });

  it("is rate-limited per account (429 past the limit)", async () => {
    const db = t.db!;
    const limit = RATE_LIMITS.messageAccount.limit;
    for (let i = 0; i < limit; i++) await sendInternalMessage(actorOf(founder), input(other.profile.id, { subject: `Message ${i}` }));
    expect(await statusOf(sendInternalMessage(actorOf(founder), input(other.profile.id)))).toBe(429);
    expect(await db.select().from(messages)).toHaveLength(limit);
    // Another account is not affected.
    expect(await statusOf(sendInternalMessage(actorOf(premium), input(other.profile.id)))).toBe(0);
  });
});

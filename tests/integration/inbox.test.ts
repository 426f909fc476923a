import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mailOutbox, messages, profiles, rateLimitCounters } from "~/db/schema";
import { expectedMessage, expectedStatus } from "~/features/messages/errors";
import { MESSAGING_ERRORS } from "~/features/messages/messages.schema";
import {
  countUnreadMessages,
  getInboxMessage,
  INBOX_PAGE_SIZE,
  listInbox,
  markMessageRead,
  type MessageActor,
  replyToMessage,
  sendInternalMessage,
} from "~/features/messages/messages.server";
import { RATE_LIMITS } from "~/lib/rate-limit.server";
import { type CreatedMember, createMember, createMessage, seedFactories } from "../support/factories";
import { useTestDatabase } from "../support/db";

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
});

beforeEach(async () => {
  const db = t.db!;
  await db.delete(messages);
  await db.delete(mailOutbox);
  await db.delete(rateLimitCounters);
});

describe("inbox: list", () => {
  it("lists only the recipient's messages, newest first, with the unread count", async () => {
    const db = t.db!;
    const old = await createMessage(db, premium.profile.id, { subject: "Ancien", createdAt: minutesAgo(60), isRead: true });
    const recent = await createMessage(db, premium.profile.id, { subject: "Récent", createdAt: minutesAgo(1), isRead: false });
    const middle = await createMessage(db, premium.profile.id, { subject: "Milieu", createdAt: minutesAgo(30), isRead: false });
    await createMessage(db, other.profile.id, { subject: "Pour un autre" });

    const inbox = await listInbox(actorOf(premium));
    expect(inbox.items.map((m) => m.id)).toEqual([recent.id, middle.id, old.id]);
    expect(inbox).toMatchObject({ total: 3, unread: 2, page: 1, pageCount: 1 });
    expect(inbox.items.map((m) => m.isRead)).toEqual([false, false, true]);
    expect(inbox.items[0].createdAt).toBe(recent.createdAt.toISOString());
    expect(await countUnreadMessages(actorOf(premium))).toBe(2);
    expect(await countUnreadMessages(actorOf(other))).toBe(1);
  });

  it("gives premium members a 100-character preview of every message", async () => {
    const db = t.db!;
    await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id, content: LONG });
    const [item] = (await listInbox(actorOf(premium))).items;
    expect(item.limited).toBe(false);
    expect(item.preview).toBe(`${LONG.slice(0, 100)}…`);
  });

  it("limits a freemium inbox on the server: no body of internal messages, 100 characters of public ones", async () => {
    const db = t.db!;
    await createMessage(db, freemium.profile.id, { messageType: "internal", senderId: other.profile.id, subject: "Co-mandat", content: `Confidentiel : ${LONG}`, createdAt: minutesAgo(2) });
    await createMessage(db, freemium.profile.id, { messageType: "public_contact", senderId: null, subject: "Cession", content: LONG, createdAt: minutesAgo(1) });
    const inbox = await listInbox(actorOf(freemium));
    const [publicItem, internalItem] = inbox.items;
    expect(publicItem).toMatchObject({ subject: "Cession", limited: true, preview: `${LONG.slice(0, 100)}…` });
    expect(internalItem).toMatchObject({ subject: "Co-mandat", limited: true, preview: null });
    // Nothing of the internal body leaves the server.
    expect(JSON.stringify(inbox)).not.toContain("Confidentiel");
  });

  it("pages the inbox", async () => {
    const db = t.db!;
    for (let i = 0; i < INBOX_PAGE_SIZE + 2; i++) {
      await createMessage(db, founder.profile.id, { subject: `Message ${i}`, createdAt: minutesAgo(100 - i) });
    }
    const first = await listInbox(actorOf(founder), 1);
    const second = await listInbox(actorOf(founder), 2);
    expect(first.items).toHaveLength(INBOX_PAGE_SIZE);
    expect(second.items.map((m) => m.subject)).toEqual(["Message 1", "Message 0"]);
    expect(second).toMatchObject({ page: 2, pageCount: 2, total: INBOX_PAGE_SIZE + 2 });
    // A page past the end shows the last one.
    expect((await listInbox(actorOf(founder), 99)).page).toBe(2);
  });
});

describe("inbox: one message", () => {
  it("is readable by its recipient only; anyone else gets a 404", async () => {
    const db = t.db!;
    const m = await createMessage(db, premium.profile.id, { messageType: "public_contact", senderId: null, senderEmail: "visiteur@exemple.fr", content: LONG });
    const seen = await getInboxMessage(actorOf(premium), m.id);
    expect(seen).toMatchObject({ id: m.id, content: LONG, senderEmail: "visiteur@exemple.fr", limited: false, canReply: false });
    expect(await statusOf(getInboxMessage(actorOf(other), m.id))).toBe(404);
    expect(await statusOf(getInboxMessage(actorOf(premium), "pas-un-uuid"))).toBe(404);
    expect(await statusOf(getInboxMessage(actorOf(premium), "6f1c3c57-57a3-4c59-9d1e-2d1c8e6f0a11"))).toBe(404);
  });

  it("hides a peer's e-mail and offers an in-app reply for internal messages", async () => {
    const db = t.db!;
    const m = await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id, senderEmail: other.email });
    const seen = await getInboxMessage(actorOf(premium), m.id);
    expect(seen).toMatchObject({ senderEmail: null, canReply: true, limited: false });
  });

  it("shows a freemium member the limited projection", async () => {
    const db = t.db!;
    const internal = await createMessage(db, freemium.profile.id, { messageType: "internal", senderId: other.profile.id, senderName: "Luc Bernard", content: LONG });
    const visitor = await createMessage(db, freemium.profile.id, { messageType: "public_contact", senderId: null, senderEmail: "visiteur@exemple.fr", content: LONG });
    expect(await getInboxMessage(actorOf(freemium), internal.id)).toMatchObject({
      senderName: "Luc Bernard",
      limited: true,
      content: null,
      preview: null,
      senderEmail: null,
      canReply: false,
    });
    expect(await getInboxMessage(actorOf(freemium), visitor.id)).toMatchObject({
      limited: true,
      content: null,
      preview: `${LONG.slice(0, 100)}…`,
      senderEmail: "visiteur@exemple.fr",
      canReply: false,
    });
  });

  it("marks a message read for its recipient only, idempotently", async () => {
    const db = t.db!;
    const m = await createMessage(db, premium.profile.id, { isRead: false });
    expect(await statusOf(markMessageRead(actorOf(other), m.id))).toBe(404);
    expect(await statusOf(markMessageRead(actorOf(premium), "nope"))).toBe(404);
    let [row] = await db.select().from(messages).where(eq(messages.id, m.id));
    expect(row.isRead).toBe(false);

    await markMessageRead(actorOf(premium), m.id);
    [row] = await db.select().from(messages).where(eq(messages.id, m.id));
    expect(row.isRead).toBe(true);
    const firstUpdate = row.updatedAt;
    await markMessageRead(actorOf(premium), m.id);
    [row] = await db.select().from(messages).where(eq(messages.id, m.id));
    expect(row.isRead).toBe(true);
    expect(row.updatedAt).toEqual(firstUpdate);
    expect(await countUnreadMessages(actorOf(premium))).toBe(0);
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
    expect(mails[0].text).toContain(`/dashboard/messages/${id}`);
    // It arrives in the recipient's inbox.
    expect((await listInbox(actorOf(other))).items.map((m) => m.id)).toEqual([id]);
  });

  it("works for founding members too, and to freemium recipients", async () => {
    await sendInternalMessage(actorOf(founder), input(freemium.profile.id));
    expect((await listInbox(actorOf(freemium))).items).toHaveLength(1);
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

  it("respects the recipient's notify_messages preference", async () => {
    const db = t.db!;
    await db.update(profiles).set({ notifyMessages: false }).where(eq(profiles.id, other.profile.id));
    try {
      await sendInternalMessage(actorOf(premium), input(other.profile.id));
      expect(await db.select().from(messages)).toHaveLength(1);
      expect(await db.select().from(mailOutbox)).toHaveLength(0);
    } finally {
      await db.update(profiles).set({ notifyMessages: true }).where(eq(profiles.id, other.profile.id));
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

describe("reply from the inbox", () => {
  it("sends 'Re: subject' to the sender's profile, with a notification", async () => {
    const db = t.db!;
    const original = await createMessage(db, premium.profile.id, {
      messageType: "internal",
      senderId: other.profile.id,
      senderName: "Luc Bernard",
      senderEmail: other.email,
      subject: "Dossier hôtelier",
    });
    const { id } = await replyToMessage(actorOf(premium), original.id, { message: "Avec plaisir, appelons-nous jeudi." });
    const [reply] = await db.select().from(messages).where(eq(messages.id, id));
    expect(reply).toMatchObject({
      recipientId: other.profile.id,
      senderId: premium.profile.id,
      subject: "Re\u00a0: Dossier hôtelier",
      messageType: "internal",
      content: "Avec plaisir, appelons-nous jeudi.",
    });
    const [mail] = await db.select().from(mailOutbox);
    expect(mail).toMatchObject({ toAddress: other.email, subject: "Nouveau message\u00a0: Re\u00a0: Dossier hôtelier" });
  });

  it("refuses public contact messages (answered by e-mail), others' messages and freemium members", async () => {
    const db = t.db!;
    const visitor = await createMessage(db, premium.profile.id, { messageType: "public_contact", senderId: null });
    const internal = await createMessage(db, premium.profile.id, { messageType: "internal", senderId: other.profile.id });
    const toFreemium = await createMessage(db, freemium.profile.id, { messageType: "internal", senderId: other.profile.id });
    const reply = { message: "Bonjour" };
    expect(await statusOf(replyToMessage(actorOf(premium), visitor.id, reply))).toBe(409);
    expect(await statusOf(replyToMessage(actorOf(founder), internal.id, reply))).toBe(404);
    expect(await statusOf(replyToMessage(actorOf(freemium), toFreemium.id, reply))).toBe(403);
    expect(await db.select().from(messages)).toHaveLength(3);
  });
});

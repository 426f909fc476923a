// Migration 0032 (issue 31 §3, decision 054): the read marks of the inbox (`messages.is_read`)
// and of the files' threads (`member_*_read_at`) become rows of `message_reads`, with nothing
// lost: read stays read, unread stays unread, on either side of a file. The migration file is
// run again, whole, on such data.
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { queryRows } from "~/db/query.server";
import { getConversation, unreadConversations } from "~/features/messages/conversations.server";
import { createMember, createMessage, seedFactories } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { openFileBetween } from "./file-helpers";

const t = useTestDatabase();

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

it("copies every read mark of the inbox and of both sides of a file, and no other", async () => {
  seedFactories(3231);
  const db = t.db!;
  const paul = await createMember(db, { profile: { membershipType: "premium" } });
  const luc = await createMember(db, { profile: { membershipType: "premium" } });
  // The inbox: read and unread, in any order (a newer message read before an older one).
  const older = await createMessage(db, paul.profile.id, { messageType: "internal", senderId: luc.profile.id, isRead: false, createdAt: minutesAgo(30) });
  const newer = await createMessage(db, paul.profile.id, { messageType: "internal", senderId: luc.profile.id, isRead: true, createdAt: minutesAgo(20) });
  const visitor = await createMessage(db, luc.profile.id, { messageType: "public_contact", senderId: null, isRead: true, createdAt: minutesAgo(10) });
  // A file: Paul read up to 5 minutes ago, Luc never opened it.
  const { fileId } = await openFileBetween(db, paul, luc, { buyer: "A SAS", seller: "B SARL" });
  const side = (await queryRows<{ a: string }>(sql`select member_a_id as a from collaboration_files where id = ${fileId}::uuid`))[0].a === paul.profile.id ? "a" : "b";
  await db.execute(sql`insert into collaboration_messages (file_id, sender_profile_id, body, created_at) values
    (${fileId}::uuid, ${luc.profile.id}::uuid, 'lu', ${minutesAgo(9)}),
    (${fileId}::uuid, ${luc.profile.id}::uuid, 'pas encore lu', ${minutesAgo(2)}),
    (${fileId}::uuid, ${paul.profile.id}::uuid, 'de Paul', ${minutesAgo(8)})`);
  await db.execute(sql`update collaboration_files set ${sql.raw(`member_${side}_read_at`)} = ${minutesAgo(5)} where id = ${fileId}::uuid`);

  // The table as the previous release had it: none. Then the migration, whole.
  await db.execute(sql`drop table message_reads`);
  const statements = readFileSync(path.join(process.cwd(), "drizzle/0032_message_reads.sql"), "utf8").split("--> statement-breakpoint");
  for (const statement of statements) await db.execute(sql.raw(statement));

  const rows = await queryRows<{ profile_id: string; message_id: string | null; body: string | null }>(sql`
    select r.profile_id, r.message_id, cm.body from message_reads r left join collaboration_messages cm on cm.id = r.file_message_id`);
  expect(rows.filter((r) => r.message_id).map((r) => [r.profile_id, r.message_id]).sort()).toEqual(
    [
      [paul.profile.id, newer.id],
      [luc.profile.id, visitor.id],
    ].sort(),
  );
  expect(rows.filter((r) => r.body !== null).map((r) => [r.profile_id, r.body])).toEqual([[paul.profile.id, "lu"]]);

  // What the members see: the same marks as before.
  const actor = (m: typeof paul) => ({ user: { id: m.user.id, email: m.email }, profile: m.profile });
  const peer = await getConversation(actor(paul), { kind: "member", id: luc.profile.id });
  expect(peer.messages.map((m) => [m.id, m.unread])).toEqual([
    [older.id, true],
    [newer.id, false],
  ]);
  const thread = await getConversation(actor(paul), { kind: "file", id: fileId });
  expect(thread.messages.map((m) => [m.body, m.unread])).toEqual([
    ["lu", false],
    ["de Paul", false],
    ["pas encore lu", true],
  ]);
  expect((await getConversation(actor(luc), { kind: "file", id: fileId })).messages.find((m) => m.body === "de Paul")?.unread).toBe(true);
  expect(await unreadConversations(paul.profile.id)).toBe(2);
});

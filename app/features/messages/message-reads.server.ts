// The one read state of the messages a member receives: a row of
// `message_reads` per message read, whether it came through the inbox or a file's thread. Marking
// read covers the messages up to the last one the member was shown (`upTo`), never one that
// arrived after the page was drawn. Until the previous release is gone, the old marks
// (`messages.is_read`, `collaboration_files.member_*_read_at`) are written too (expand/contract).
import { type SQL, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";

/** Inbox messages from one peer to the member (a `confrere-` conversation), up to `upTo`. */
export async function markPeerMessagesRead(me: string, peerId: string, upTo: string | null, handle: Db = db): Promise<void> {
  return markInbox(handle, me, sql`m.sender_id = ${peerId}::uuid and m.message_type = 'internal'`, upTo);
}

/** One inbox message of the member (a `contact-` conversation). */
export async function markInboxMessageRead(me: string, messageId: string, handle: Db = db): Promise<void> {
  return markInbox(handle, me, sql`m.id = ${messageId}::uuid`, null);
}

async function markInbox(handle: Db, me: string, which: SQL, upTo: string | null): Promise<void> {
  const bound = upTo
    ? sql`and m.created_at <= (select u.created_at from messages u where u.id = ${upTo}::uuid and (u.recipient_id = ${me}::uuid or u.sender_id = ${me}::uuid))`
    : sql``;
  await handle.execute(sql`
    with target as (
      select m.id from messages m
      where m.recipient_id = ${me}::uuid and ${which} ${bound}
        and not exists (select 1 from message_reads r where r.message_id = m.id and r.profile_id = ${me}::uuid)
    ), marked as (
      insert into message_reads (profile_id, message_id) select ${me}::uuid, id from target on conflict do nothing returning message_id
    )
    update messages set is_read = true, updated_at = now() where id in (select message_id from marked) and not is_read`);
}

/** A file's thread, for one of its two members, up to `upTo` (a message of that file). */
export async function markFileThreadRead(me: string, file: { id: string; side: "a" | "b" }, upTo: string | null, handle: Db = db): Promise<void> {
  const bound = upTo
    ? sql`and cm.created_at <= (select u.created_at from collaboration_messages u where u.id = ${upTo}::uuid and u.file_id = ${file.id}::uuid)`
    : sql``;
  const column = file.side === "a" ? sql`member_a_read_at` : sql`member_b_read_at`;
  await handle.execute(sql`
    with marked as (
      insert into message_reads (profile_id, file_message_id)
      select ${me}::uuid, cm.id from collaboration_messages cm
      where cm.file_id = ${file.id}::uuid and cm.sender_profile_id is distinct from ${me}::uuid ${bound}
        and not exists (select 1 from message_reads r where r.file_message_id = cm.id and r.profile_id = ${me}::uuid)
      on conflict do nothing returning file_message_id
    )
    update collaboration_files set ${column} = greatest(${column}, (select max(cm.created_at) from collaboration_messages cm
      where cm.file_id = ${file.id}::uuid ${bound}))
    where id = ${file.id}::uuid and exists (select 1 from marked)`);
}

/**
 * The reads the previous marks say (`messages.is_read`, the files' `member_*_read_at`), as
 * migration 0032 copied them: for data written by older code or in bulk (the demo seed).
 */
export async function readsFromLegacyMarks(handle: Db = db): Promise<void> {
  await handle.execute(sql`insert into message_reads (profile_id, message_id, read_at)
    select recipient_id, id, updated_at from messages where is_read on conflict do nothing`);
  for (const side of ["a", "b"] as const) {
    const member = side === "a" ? sql`f.member_a_id` : sql`f.member_b_id`;
    const readAt = side === "a" ? sql`f.member_a_read_at` : sql`f.member_b_read_at`;
    await handle.execute(sql`insert into message_reads (profile_id, file_message_id, read_at)
      select ${member}, cm.id, ${readAt} from collaboration_messages cm join collaboration_files f on f.id = cm.file_id
      where ${member} is not null and ${readAt} is not null and cm.created_at <= ${readAt} and cm.sender_profile_id is distinct from ${member}
      on conflict do nothing`);
  }
}

// Opening a collaboration file: when the second acceptance confirms a connection, its file opens
// with the introduction log as the start of its timeline; an undertaking signed later joins it.
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { collaborationFiles } from "~/db/schema";
import { pairKey } from "~/features/connections/connection-rules";
import { MANDATE_TYPE_LABELS, type MandateType } from "~/features/mandates/mandate-rules";
import { fileReference } from "./collaboration-rules";

type MandateSideRow = { id: string; profile_id: string; mandate_type: MandateType; client_code: string };

function mandateLabel(m: MandateSideRow): string {
  return `${MANDATE_TYPE_LABELS[m.mandate_type]} «\u00a0${m.client_code}\u00a0»`;
}

/**
 * Opens the file of a connection just confirmed (idempotent: one file per pair of mandates), with
 * the introduction log copied as the start of its timeline. Runs in the caller's transaction.
 */
export async function openCollaborationFile(tx: Db, mandateX: string, mandateY: string): Promise<string> {
  const [aId, bId] = mandateX < mandateY ? [mandateX, mandateY] : [mandateY, mandateX];
  const sides = await queryRows<MandateSideRow>(
    sql`select id, profile_id, mandate_type::text as mandate_type, client_code from mandates where id in (${aId}::uuid, ${bId}::uuid)`,
    tx,
  );
  const a = sides.find((s) => s.id === aId);
  const b = sides.find((s) => s.id === bId);
  if (!a || !b) throw new Error("openCollaborationFile: mandate missing");
  const [opened] = await queryRows<{ id: string }>(sql`select id from collaboration_files where pair_key = ${pairKey(aId, bId)}`, tx);
  if (opened) return opened.id;
  // The year's counter row stays locked until this transaction ends: numbers have no gaps.
  const [counter] = await queryRows<{ year: number; last_number: number }>(
    sql`insert into collaboration_file_counters (year, last_number) values (extract(year from now() at time zone 'Europe/Paris')::integer, 1)
      on conflict (year) do update set last_number = collaboration_file_counters.last_number + 1
      returning year, last_number`,
    tx,
  );
  const [created] = await tx
    .insert(collaborationFiles)
    .values({
      reference: fileReference(Number(counter.year), Number(counter.last_number)),
      pairKey: pairKey(aId, bId),
      mandateAId: aId,
      mandateBId: bId,
      memberAId: a.profile_id,
      memberBId: b.profile_id,
      mandateALabel: mandateLabel(a),
      mandateBLabel: mandateLabel(b),
    })
    .onConflictDoNothing()
    .returning({ id: collaborationFiles.id });
  if (!created) {
    // Opened meanwhile by a transaction that held the counter before this one: the number goes back.
    await tx.execute(sql`update collaboration_file_counters set last_number = last_number - 1 where year = ${counter.year}`);
    const [existing] = await queryRows<{ id: string }>(sql`select id from collaboration_files where pair_key = ${pairKey(aId, bId)}`, tx);
    return existing.id;
  }
  // The introduction log becomes the beginning of the file's timeline.
  await tx.execute(sql`
    insert into collaboration_events (file_id, actor_profile_id, actor_name, kind, details, created_at)
    select ${created.id}::uuid, e.actor_profile_id, nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), ''),
      'connection:' || e.event::text, null, e.created_at
    from connection_events e
    join mandate_match_requests r on r.id = e.match_request_id
    left join profiles p on p.id = e.actor_profile_id
    where (r.requester_mandate_id = ${aId}::uuid and r.target_mandate_id = ${bId}::uuid)
       or (r.requester_mandate_id = ${bId}::uuid and r.target_mandate_id = ${aId}::uuid)`);
  await tx.execute(sql`
    insert into collaboration_events (file_id, actor_profile_id, actor_name, kind, details, created_at)
    values (${created.id}::uuid, null, null, 'file_opened', null, clock_timestamp())`);
  return created.id;
}

/**
 * The undertaking signed after the file was opened joins its timeline (with the reveal), so that
 * the file shows the counterpart's client identity exactly when the matching panel does.
 */
export async function recordUndertakingInFile(tx: Db, mandateX: string, mandateY: string, profileId: string): Promise<void> {
  await tx.execute(sql`
    insert into collaboration_events (file_id, actor_profile_id, actor_name, kind, created_at)
    select f.id, p.id, trim(p.first_name || ' ' || p.last_name), k.kind, clock_timestamp()
    from collaboration_files f
    cross join (values ('connection:undertaking_signed', 1), ('connection:revealed', 2)) as k(kind, n)
    join profiles p on p.id = ${profileId}::uuid
    where f.pair_key = ${pairKey(mandateX, mandateY)}
    order by k.n`);
  await tx.execute(sql`update collaboration_files set last_activity_at = clock_timestamp() where pair_key = ${pairKey(mandateX, mandateY)}`);
}


// « Mes dossiers »: a member's files, newest activity first, with what awaits them in each.
import { sql } from "drizzle-orm";
import { queryRows, withReusablePlan } from "~/db/query.server";
import { pendingAction, STAGE_LABELS, type PendingAction, type Stage } from "./collaboration-rules";
import type { FileActor } from "./file-access.server";
import type { FileHeader } from "./file-view.server";
import { memberNameOrGone } from "./member-names";

export const FILES_PAGE_SIZE = 20;

/** A file's header, with its last activity and what awaits the member in it. */
export type FileListItem = FileHeader & {
  lastActivityAt: string;
  unread: number;
  pending: PendingAction;
};

export type FileList = { items: FileListItem[]; total: number; page: number; pageCount: number; awaiting: number };

type ListRow = {
  id: string;
  reference: string;
  stage: Stage;
  side: "a" | "b";
  counterpart_first: string | null;
  counterpart_last: string | null;
  counterpart_company: string | null;
  my_label: string;
  their_label: string;
  closing_proposed_by: string | null;
  last_activity_at: Date | string;
  unread: number | string;
  awaiting_signature: boolean;
  total: number | string;
};

/** The actor's files, newest activity first, with what awaits them in each. */
export async function listMyFiles(actor: Pick<FileActor, "profileId">, page = 1): Promise<FileList> {
  const p = Math.max(1, Math.min(Math.floor(page) || 1, 10_000));
  const me = sql`${actor.profileId}::uuid`;
  // One branch per side, each on its own index (member_x_id, last_activity_at desc). Keyed by
  // the member: prepared, its plan reused.
  const rows = await queryRows<ListRow>(withReusablePlan(sql`
    with mine as (
      select f.*, 'a' as side, f.member_b_id as other_id from collaboration_files f where f.member_a_id = ${me}
      union all
      select f.*, 'b' as side, f.member_a_id as other_id from collaboration_files f where f.member_b_id = ${me}
    ), counted as (select count(*) as total from mine)
    select m.id, m.reference, m.stage::text as stage, m.side, o.first_name as counterpart_first, o.last_name as counterpart_last,
      o.company as counterpart_company,
      case when m.side = 'a' then m.mandate_a_label else m.mandate_b_label end as my_label,
      case when m.side = 'a' then m.mandate_b_label else m.mandate_a_label end as their_label,
      m.closing_proposed_by, m.last_activity_at,
      (select count(*) from collaboration_messages cm
        where cm.file_id = m.id and cm.sender_profile_id is distinct from ${me}
          and not exists (select 1 from message_reads r where r.file_message_id = cm.id and r.profile_id = ${me})) as unread,
      exists (select 1 from fee_agreements fa where fa.file_id = m.id and fa.status = 'pending'
        and not exists (select 1 from fee_agreement_signatures s where s.agreement_id = fa.id and s.profile_id = ${me})) as awaiting_signature,
      counted.total
    from mine m cross join counted
    left join profiles o on o.id = m.other_id
    order by m.last_activity_at desc, m.id
    limit ${FILES_PAGE_SIZE} offset ${(p - 1) * FILES_PAGE_SIZE}`));
  // No row on the first page: no file at all (the count is needed only past the last page).
  const total = rows.length ? Number(rows[0].total) : p === 1 ? 0 : await countMyFiles(actor);
  const items = rows.map((r): FileListItem => {
    const unread = Number(r.unread);
    return {
      id: r.id,
      reference: r.reference,
      stage: r.stage,
      stageLabel: STAGE_LABELS[r.stage],
      counterpartName: memberNameOrGone(r.counterpart_first, r.counterpart_last),
      counterpartCompany: r.counterpart_company,
      myMandateLabel: r.my_label,
      theirMandateLabel: r.their_label,
      lastActivityAt: new Date(r.last_activity_at).toISOString(),
      unread,
      pending: pendingAction({
        stage: r.stage,
        closingProposedBy: r.closing_proposed_by,
        actorProfileId: actor.profileId,
        unreadMessages: unread,
        agreementAwaitingMySignature: r.awaiting_signature,
      }),
    };
  });
  return {
    items,
    total,
    page: p,
    pageCount: Math.max(1, Math.ceil(total / FILES_PAGE_SIZE)),
    awaiting: items.filter((i) => i.pending !== null).length,
  };
}

async function countMyFiles(actor: Pick<FileActor, "profileId">): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(sql`
    select (select count(*) from collaboration_files where member_a_id = ${actor.profileId}::uuid)
         + (select count(*) from collaboration_files where member_b_id = ${actor.profileId}::uuid) as n`);
  return Number(row?.n ?? 0);
}


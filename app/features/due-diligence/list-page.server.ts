// What both readers of the list (founders, participants) page through: its order and its counts
// over every item, so that a page of a long list still shows the whole list's progress.
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { pageWindow, type PageWindow } from "~/lib/paging";
import { DD_PAGE_SIZE, listProgress, type DdCategory, type DdProgress, type DdStatus } from "./due-diligence-rules";

/** The list's order: by category (the template's order), then position (alias r). */
export const DD_ORDER = sql`array_position(array['juridique','social','fiscal','financier','immobilier','contrats']::dd_category[], r.category), r.position, r.id`;

/**
 * SQL: the name of a request's owner (alias r), a founding member or a participant (a member
 * participant by their profile, a guest by the name it gave), null without one.
 */
export const OWNER_NAME = sql`(case when r.owner_profile_id is not null then
    (select nullif(trim(concat(op.first_name, ' ', op.last_name)), '') from profiles op where op.id = r.owner_profile_id)
  when r.owner_participant_id is not null then
    (select coalesce(nullif(trim(concat(opp.first_name, ' ', opp.last_name)), ''), nullif(trim(concat(ocp.first_name, ' ', ocp.last_name)), ''), ocp.email)
      from collaboration_participants ocp left join profiles opp on opp.id = ocp.profile_id where ocp.id = r.owner_participant_id) end)`;

export type DdListCounts = { window: PageWindow; progress: DdProgress | null; byCategory: Partial<Record<DdCategory, number>> };

/** The counts of the whole list (one grouped statement) and the page asked for within it. */
export async function listCounts(handle: Db, fileId: string, requested: number): Promise<DdListCounts> {
  const rows = await queryRows<{ category: DdCategory; status: DdStatus; n: number | string }>(
    sql`select category::text as category, status::text as status, count(*) as n from due_diligence_requests where file_id = ${fileId}::uuid group by 1, 2`,
    handle,
  );
  const statuses: DdStatus[] = [];
  const byCategory: Partial<Record<DdCategory, number>> = {};
  for (const r of rows) {
    const n = Number(r.n);
    for (let i = 0; i < n; i++) statuses.push(r.status);
    byCategory[r.category] = (byCategory[r.category] ?? 0) + n;
  }
  return { window: pageWindow(requested, statuses.length, DD_PAGE_SIZE), progress: statuses.length ? listProgress(statuses) : null, byCategory };
}

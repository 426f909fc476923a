// The document room's list as a founder reads it: one page of logical documents with their earlier
// versions, who opened their own, « Nouveau » on those they have not opened.
import { sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows, withReusablePlan } from "~/db/query.server";
import { pageWindow } from "~/lib/paging";
import { isClosed } from "./collaboration-rules";
import { GONE_MEMBER_NAME, memberNameOrGone } from "./member-names";
import { groupVersions } from "./document-versions-rules";
import { documentUnreadSql } from "./document-reads.server";
import {
  accessLabel,
  DOCUMENT_FORMATS,
  DOCUMENT_LIMITS,
  DOCUMENT_ACCESSES_SHOWN,
  DOCUMENTS_PAGE_SIZE,
  DOCUMENT_TYPE_LABELS,
  type AccessAction,
  type DocumentType,
} from "./documents-rules";
import { requireFileAccess, type FileActor } from "./file-access.server";
import { TYPE_BY_CONTENT_TYPE } from "./document-checks.server";

// ---------------------------------------------------------------------------------------------
// The list

/**
 * A document's folder (alias fo, with the file f or d.file_id) is seen by this founder: the
 * general folder, a shared one, or one of their side (participant-rules' folderVisibleTo).
 */
export function folderSeenByFounder(profileId: string): SQL {
  return sql`(d.folder_id is null or fo.visibility = 'both' or fo.visibility = (
    select case when (case when cf.member_a_id = ${profileId}::uuid then cf.mandate_a_label else cf.mandate_b_label end) like 'Mandat cédant%'
      then 'cedant' else 'acquereur' end from collaboration_files cf where cf.id = d.file_id))`;
}

export type DocumentAccessEntry = { id: string; action: AccessAction; at: string; label: string; byMe: boolean };

/** An earlier version of a document, listed under its latest one. */
export type FileDocumentVersion = { id: string; version: number; name: string; sharedAt: string; sizeBytes: number; isPdf: boolean; withdrawn: boolean };

export type FileDocument = {
  id: string;
  /** Its version number (1 for a document never replaced) and the earlier versions, newest first. */
  version: number;
  earlierVersions: FileDocumentVersion[];
  /** Its folder's name; null for the general folder. */
  folderName: string | null;
  name: string;
  type: DocumentType | null;
  typeLabel: string;
  sizeBytes: number;
  sharedAt: string;
  byMe: boolean;
  uploaderName: string;
  isPdf: boolean;
  withdrawnAt: string | null;
  /** Who withdrew it (only its uploader may): "vous" or their name; null while shared. */
  withdrawnBy: string | null;
  /** Who opened it, the latest DOCUMENT_ACCESSES_SHOWN: for the uploader only. */
  accesses: DocumentAccessEntry[];
  /** How many openings it has in all (the evidence export lists each one): for the uploader only. */
  accessCount: number;
  /** Shared by the other side and never opened by this member: « Nouveau ». */
  unread: boolean;
};

export type DocumentRoom = {
  fileId: string;
  closed: boolean;
  /** One page of the logical documents (DOCUMENTS_PAGE_SIZE), newest first. */
  documents: FileDocument[];
  page: number;
  pageCount: number;
  /** Logical documents the founder sees, every page. */
  total: number;
  /** Folders this founder may choose when sharing (the general one is the empty choice). */
  folders: { id: string; name: string }[];
  usedBytes: number;
  quotaBytes: number;
  maxBytes: number;
};

type DocumentRow = {
  id: string;
  name: string;
  content_type: string;
  size_bytes: number | string;
  created_at: Date | string;
  withdrawn_at: Date | string | null;
  uploader_profile_id: string | null;
  uploader_first: string | null;
  uploader_last: string | null;
  lineage_id: string | null;
  version: number;
  folder_name: string | null;
  unread: boolean | null;
};

type AccessLogEntry = { id: string; viewer_profile_id: string | null; viewer_name: string | null; action: AccessAction; created_at: string };

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * The file's documents as one member sees them: every document ever shared, the withdrawn ones
 * too for both members (« Retiré le … » with who withdrew it, their content gone);
 * for their own, who opened them and when.
 */
export async function listDocuments(actor: Pick<FileActor, "profileId">, fileId: string, page = 1): Promise<DocumentRoom> {
  const access = await requireFileAccess(db, actor, fileId);
  // One statement: the documents, the openings of the actor's own, the file's used space and the
  // folders the actor sees (one row even without documents).
  // A page of logical documents (latest versions, newest first) with their earlier versions; the
  // count of logical documents rides on every row.
  const requested = Math.min(Math.max(1, Math.floor(page) || 1), 10_000);
  const result = await queryRows<
    DocumentRow & { used: string | number; accesses: AccessLogEntry[] | null; access_count: string | number | null; folders: Array<{ id: string; name: string }>; total: string | number }
  >(withReusablePlan(sql`
    with side as (
      -- The founder's side, once: the folders they see are the general one, shared ones and their side's.
      select case when (case when cf.member_a_id = ${actor.profileId}::uuid then cf.mandate_a_label else cf.mandate_b_label end) like 'Mandat cédant%'
        then 'cedant' else 'acquereur' end as side
      from collaboration_files cf where cf.id = ${access.id}::uuid
    ), seen as (
      select d.id, coalesce(d.lineage_id, d.id) as lineage, d.version, d.created_at
      from collaboration_documents d left join collaboration_folders fo on fo.id = d.folder_id
      where d.file_id = ${access.id}::uuid and (d.folder_id is null or fo.visibility = 'both' or fo.visibility = (select side from side))
    ), latest as (
      select distinct on (lineage) lineage, created_at, id from seen order by lineage, version desc
    ), counted as (
      select count(*) as total from latest
    ), paged as (
      select l.lineage from latest l order by l.created_at desc, l.id
      limit ${DOCUMENTS_PAGE_SIZE}
      offset ${DOCUMENTS_PAGE_SIZE} * (least(${requested}, greatest(1, ceil((select total from counted)::numeric / ${DOCUMENTS_PAGE_SIZE})))::int - 1)
    ), page_rows as materialized (
      -- The page's versions only (by id and by lineage, both indexed): the per-row lookups below run for them, not the file.
      select d.* from collaboration_documents d
      where d.file_id = ${access.id}::uuid and (d.id in (select lineage from paged) or d.lineage_id in (select lineage from paged))
    ), used as (
      select coalesce(sum(size_bytes), 0) as used from collaboration_documents where file_id = ${access.id}::uuid and withdrawn_at is null
    ), folders as (
      select coalesce(json_agg(json_build_object('id', fo.id, 'name', fo.name) order by fo.name, fo.id), '[]'::json) as folders
      from collaboration_folders fo
      where fo.file_id = ${access.id}::uuid and (fo.visibility = 'both' or fo.visibility = (select side from side))
    )
    select used.used, folders.folders, counted.total, d.id, d.name, d.content_type, d.size_bytes, d.created_at, d.withdrawn_at, d.uploader_profile_id,
      d.uploader_first, d.uploader_last, d.accesses, d.access_count, d.lineage_id, d.version, d.folder_name, d.unread
    from used cross join folders cross join counted left join lateral (
      select d.id, d.name, d.content_type, d.size_bytes, d.created_at, d.withdrawn_at, d.uploader_profile_id,
        coalesce(p.first_name, cp.first_name) as uploader_first, coalesce(p.last_name, cp.last_name) as uploader_last,
        d.lineage_id, d.version, fo.name as folder_name,
        ${documentUnreadSql(sql`(select rp.user_id from profiles rp where rp.id = ${actor.profileId}::uuid)`, sql`d.uploader_profile_id is not distinct from ${actor.profileId}::uuid`)} as unread,
        case when d.uploader_profile_id = ${actor.profileId}::uuid then coalesce((
          select json_agg(l order by l.created_at desc, l.id) from (
            select id, viewer_profile_id, viewer_name, action, created_at from document_access_log where document_id = d.id
            order by created_at desc, id limit ${DOCUMENT_ACCESSES_SHOWN}) l
        ), '[]'::json) end as accesses,
        case when d.uploader_profile_id = ${actor.profileId}::uuid then (select count(*) from document_access_log where document_id = d.id) end as access_count
      from page_rows d
      left join profiles p on p.id = d.uploader_profile_id
      -- A participant's upload (a guest has no profile) is named after the participant.
      left join collaboration_participants cp on cp.id = d.uploader_participant_id
      left join collaboration_folders fo on fo.id = d.folder_id
      where d.folder_id is null or fo.visibility = 'both' or fo.visibility = (select side from side)
    ) d on true
    order by d.created_at desc, d.id`));
  const rows = result.filter((r) => r.id !== null);
  const window = pageWindow(requested, Number(result[0]?.total ?? 0), DOCUMENTS_PAGE_SIZE);
  const folders = result[0]?.folders ?? [];
  const groups = groupVersions(rows.map((r) => ({ ...r, lineageId: r.lineage_id, version: Number(r.version) })));
  const documents = groups.map(({ latest: r, earlier }): FileDocument => {
    const byMe = r.uploader_profile_id === actor.profileId;
    const type = TYPE_BY_CONTENT_TYPE.get(r.content_type) ?? null;
    return {
      id: r.id,
      version: r.version,
      folderName: r.folder_name,
      earlierVersions: earlier.map((v) => ({
        id: v.id,
        version: v.version,
        name: v.name,
        sharedAt: iso(v.created_at),
        sizeBytes: Number(v.size_bytes),
        isPdf: v.content_type === DOCUMENT_FORMATS.pdf.contentType,
        withdrawn: v.withdrawn_at !== null,
      })),
      name: r.name,
      type,
      typeLabel: type ? DOCUMENT_TYPE_LABELS[type] : "Document",
      sizeBytes: Number(r.size_bytes),
      sharedAt: iso(r.created_at),
      byMe,
      uploaderName: memberNameOrGone(r.uploader_first, r.uploader_last),
      isPdf: type === "pdf",
      withdrawnAt: r.withdrawn_at ? iso(r.withdrawn_at) : null,
      withdrawnBy: r.withdrawn_at ? (byMe ? "vous" : memberNameOrGone(r.uploader_first, r.uploader_last)) : null,
      unread: r.unread === true && r.withdrawn_at === null,
      accesses: byMe
        ? (r.accesses ?? []).map((l) => {
              const own = l.viewer_profile_id === actor.profileId;
              return {
                id: l.id,
                action: l.action,
                at: iso(l.created_at),
                byMe: own,
                label: accessLabel(l.action, own ? "vous" : (l.viewer_name ?? GONE_MEMBER_NAME), l.created_at),
              };
            })
        : [],
      accessCount: byMe ? Number(r.access_count ?? 0) : 0,
    };
  });
  return {
    fileId: access.id,
    closed: isClosed(access.stage),
    documents,
    page: window.page,
    pageCount: window.pageCount,
    total: window.total,
    folders,
    usedBytes: Number(result[0]?.used ?? 0),
    quotaBytes: DOCUMENT_LIMITS.quotaBytes,
    maxBytes: DOCUMENT_LIMITS.maxBytes,
  };
}

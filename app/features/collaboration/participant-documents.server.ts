// The document room as a participant sees it: folders their side sees, documents
// opened and added as their rights allow, every opening watermarked and logged as for the
// founders. Everything goes through requireFileParticipant and participant-rules' isAllowed.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { isUuid } from "~/lib/uuid";
import { pageWindow } from "~/lib/paging";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit } from "~/lib/rate-limit.server";
import { getStorage } from "~/lib/storage/storage.server";
import { isClosed } from "./collaboration-rules";
import { watermarkPdf } from "./document-watermark.server";
import { documentReadInsert, documentUnreadSql } from "./document-reads.server";
import { documentSharedFounderNotice, documentSharedNotice, notifyFounders, notifyParticipants } from "./participant-notifications.server";
import {
  contentDisposition,
  DOCUMENT_FORMATS,
  DOCUMENT_LIMITS,
  DOCUMENT_MESSAGES,
  DOCUMENT_TYPE_LABELS,
  DOCUMENTS_PAGE_SIZE,
  documentSizeMessage,
  documentSizeProblem,
  watermarkLine,
  type AccessAction,
} from "./documents-rules";
import { groupVersions } from "./document-versions-rules";
import {
  documentNotFound,
  OPEN_RATE,
  prepareDocument,
  TYPE_BY_CONTENT_TYPE,
  untrustedPdf,
  UPLOAD_RATE,
  usedBytes,
  withStoredDocument,
} from "./document-checks.server";
import type { FileDocumentVersion } from "./document-list.server";
import type { OpenedContent, OpenedDocument } from "./document-opening.server";
import { fileConflict } from "./file-access.server";
import { isAllowed, PARTICIPANT_MESSAGES as M, type FolderVisibility, type Right } from "./participant-rules";
import { appendParticipantEvent, refuseUndertaking, requireFileParticipant, type FileParticipantAccess } from "./participant-access.server";
import { listVisibleFolders } from "./participants.server";

/** The folder of the documents shared outside any folder. */
const GENERAL_FOLDER_NAME = "Général";

function may(access: FileParticipantAccess, visibility: FolderVisibility, right: Right): boolean {
  return isAllowed({ role: access.role, side: access.side, visibility, rights: access.rights, right });
}

export type SharedDocument = {
  id: string;
  name: string;
  typeLabel: string;
  sizeBytes: number;
  sharedAt: string;
  isPdf: boolean;
  uploaderName: string;
  version: number;
  earlierVersions: FileDocumentVersion[];
  /** Shared by someone else and never opened by this person: « Nouveau ». */
  unread: boolean;
};
export type SharedFolder = {
  id: string | null;
  name: string;
  visibility: FolderVisibility;
  canDownload: boolean;
  canUpload: boolean;
  /** This page's documents of the folder. */
  documents: SharedDocument[];
  /** The folder's logical documents, every page. */
  total: number;
};

export type SharedDocuments = { folders: SharedFolder[]; page: number; pageCount: number; total: number };

/**
 * The folders (the general one first) and one page of their documents, as this person may see
 * them: logical documents folder after folder, newest first within a folder (DOCUMENTS_PAGE_SIZE).
 */
export async function listParticipantDocuments(access: FileParticipantAccess, page = 1): Promise<SharedDocuments> {
  // The folders this person's side is shown, with their logical documents (latest versions)
  // counted, in one statement. Every version of a document sits in its first version's folder,
  // so counting over the file's documents gives each folder's own count.
  const listed = await queryRows<{ id: string | null; name: string; visibility: FolderVisibility; n: number | string }>(sql`
    with latest as (
      select distinct on (coalesce(d.lineage_id, d.id)) d.folder_id
      from collaboration_documents d
      where d.file_id = ${access.fileId}::uuid and d.withdrawn_at is null
      order by coalesce(d.lineage_id, d.id), d.version desc
    ), counts as (select folder_id, count(*) as n from latest group by folder_id)
    select fo.id, fo.name, fo.visibility, coalesce(c.n, 0) as n
    from (
      select null::uuid as id, ${GENERAL_FOLDER_NAME}::text as name, 'both' as visibility, 0 as rank
      union all
      select id, name, visibility::text, 1 from collaboration_folders
      where file_id = ${access.fileId}::uuid and (visibility = 'both' or visibility = ${access.side})
    ) fo
    left join counts c on c.folder_id is not distinct from fo.id
    order by fo.rank, fo.name, fo.id`);
  const seen = listed.filter((f) => may(access, f.visibility, "voir"));
  if (seen.length === 0) return { folders: [], page: 1, pageCount: 1, total: 0 };
  const ids = seen.flatMap((f) => (f.id === null ? [] : [f.id]));
  const general = seen.some((f) => f.id === null);
  const idArray = sql`array[${sql.join([sql`null::uuid`, ...ids.map((id) => sql`${id}::uuid`)], sql`, `)}]::uuid[]`;
  // The logical documents (latest versions) of the folders seen, for the page.
  const latest = sql`select distinct on (coalesce(d.lineage_id, d.id)) coalesce(d.lineage_id, d.id) as lineage, d.folder_id, d.created_at, d.id
    from collaboration_documents d
    where d.file_id = ${access.fileId}::uuid and d.withdrawn_at is null
      and (${general ? sql`d.folder_id is null or ` : sql``}d.folder_id = any(${idArray}))
    order by coalesce(d.lineage_id, d.id), d.version desc`;
  const totals = new Map(seen.map((f) => [f.id, Number(f.n)]));
  const window = pageWindow(page, [...totals.values()].reduce((x, y) => x + y, 0), DOCUMENTS_PAGE_SIZE);
  const rows = window.total === 0 ? [] : await queryRows<{
    id: string;
    folder_id: string | null;
    name: string;
    content_type: string;
    size_bytes: number | string;
    created_at: Date | string;
    uploader: string | null;
    lineage_id: string | null;
    version: number;
    unread: boolean;
  }>(sql`
    with paged as (
      select l.lineage from (${latest}) l
      order by l.folder_id is not null, array_position(${idArray}, l.folder_id), l.created_at desc, l.id
      limit ${window.limit} offset ${window.offset}
    )
    select d.id, d.folder_id, d.name, d.content_type, d.size_bytes, d.created_at, d.lineage_id, d.version,
      coalesce(p.first_name || ' ' || p.last_name, cp.first_name || ' ' || cp.last_name) as uploader,
      ${documentUnreadSql(sql`${access.userId}::text`, access.participantId ? sql`d.uploader_participant_id is not distinct from ${access.participantId}::uuid` : sql`d.uploader_profile_id is not distinct from ${access.profileId}::uuid`)} as unread
    from collaboration_documents d
    left join profiles p on p.id = d.uploader_profile_id
    left join collaboration_participants cp on cp.id = d.uploader_participant_id
    where d.file_id = ${access.fileId}::uuid and d.withdrawn_at is null and coalesce(d.lineage_id, d.id) in (select lineage from paged)
    order by d.created_at desc, d.id`);
  const closed = isClosed(access.stage);
  const groups = groupVersions(rows.map((r) => ({ ...r, lineageId: r.lineage_id, version: Number(r.version) })));
  const shown = seen.map((f) => ({
    id: f.id,
    name: f.name,
    visibility: f.visibility,
    canDownload: may(access, f.visibility, "telecharger"),
    canUpload: !closed && may(access, f.visibility, "deposer"),
    total: totals.get(f.id) ?? 0,
    documents: groups
      .filter((g) => g.latest.folder_id === f.id)
      .map(({ latest: r, earlier }) => {
        const type = TYPE_BY_CONTENT_TYPE.get(r.content_type) ?? null;
        return {
          id: r.id,
          version: r.version,
          earlierVersions: earlier.map((v) => ({
            id: v.id,
            version: v.version,
            name: v.name,
            sharedAt: new Date(v.created_at).toISOString(),
            sizeBytes: Number(v.size_bytes),
            isPdf: v.content_type === DOCUMENT_FORMATS.pdf.contentType,
            withdrawn: false,
          })),
          name: r.name,
          typeLabel: type ? DOCUMENT_TYPE_LABELS[type] : "Document",
          sizeBytes: Number(r.size_bytes),
          sharedAt: new Date(r.created_at).toISOString(),
          isPdf: type === "pdf",
          uploaderName: r.uploader?.trim() || "Participant",
          unread: r.unread === true,
        };
      }),
  }));
  return { folders: shown, page: window.page, pageCount: window.pageCount, total: window.total };
}


/**
 * Opens a document for a participant: « voir » shows a PDF (watermarked) in the browser;
 * « télécharger » gives the file. Logged in the access log under the participant's name.
 */
export async function openParticipantDocument(userId: string, fileId: string, documentId: string, mode: "view" | "download", now = new Date()): Promise<OpenedDocument> {
  const access = await requireFileParticipant(db, userId, fileId);
  if (!isUuid(documentId)) documentNotFound();
  const [doc] = await queryRows<{ id: string; name: string; content_type: string; storage_key: string; sha256: string; visibility: FolderVisibility }>(sql`
    select d.id, d.name, d.content_type, d.storage_key, d.sha256, coalesce(fo.visibility, 'both') as visibility
    from collaboration_documents d left join collaboration_folders fo on fo.id = d.folder_id
    where d.id = ${documentId}::uuid and d.file_id = ${access.fileId}::uuid and d.withdrawn_at is null`);
  // A folder this side does not see holds nothing for them: a 404, as for a missing document.
  if (!doc || !may(access, doc.visibility, "voir")) documentNotFound();
  const isPdf = doc.content_type === DOCUMENT_FORMATS.pdf.contentType;
  const action: AccessAction = isPdf && mode === "view" ? "view" : "download";
  if (action === "download" && !may(access, doc.visibility, "telecharger")) fileConflict(M.noRight, "forbidden");
  const rate = await consumeRateLimit(`document-open:${userId}`, OPEN_RATE);
  if (!rate.allowed) fileConflict(DOCUMENT_MESSAGES.tooManyOpens, "rate-limited");
  const openingId = randomUUID();
  let opened: OpenedContent | null;
  if (isPdf) {
    const original = (await getStorage().getObject(doc.storage_key))?.bytes;
    opened = original
      ? { kind: "stamped", bytes: await untrustedPdf(() => watermarkPdf(original, { line: watermarkLine({ name: access.name, company: access.company }, now), openingId })) }
      : null;
  } else {
    const object = await getStorage().openObject(doc.storage_key, { sha256: doc.sha256 });
    opened = object ? { kind: "stored", object } : null;
  }
  if (!opened) {
    logger.error({ documentId: doc.id }, "stored document missing");
    documentNotFound();
  }
  // The opening is logged and the document marked read for this person, in one statement.
  await queryRows(sql`with opened as (insert into document_access_log (id, document_id, viewer_profile_id, viewer_name, action, created_at)
      values (${openingId}::uuid, ${doc.id}::uuid, ${access.profileId}::uuid, ${access.name}, ${action}, clock_timestamp()) returning id),
    marked as (${documentReadInsert(sql`${access.userId}::text`, doc.id)})
    select (select count(*) from opened) as opened, (select count(*) from marked) as marked`);
  return { ...opened, contentType: doc.content_type, disposition: contentDisposition(action === "view" ? "inline" : "attachment", doc.name), action, name: doc.name, openingId };
}

/** A participant with « déposer » adds a document to a folder their side sees. */
export async function shareParticipantDocument(
  userId: string,
  fileId: string,
  folderId: string | null,
  input: { name: string; bytes: Uint8Array },
  options: { toFounders?: boolean } = {},
): Promise<{ documentId: string; name: string }> {
  const access = await requireFileParticipant(db, userId, fileId);
  if (isClosed(access.stage)) fileConflict(M.closed, "conflict");
  const folders = await listVisibleFolders(access);
  const folder = folderId === null ? { id: null, visibility: "both" as const } : folders.find((f) => f.id === folderId);
  // A folder id the form could not have offered (another file's, the other side's, made up) is bad input: the page keeps the form.
  if (!folder) fileConflict(DOCUMENT_MESSAGES.badFolder, "invalid");
  if (!may(access, folder.visibility, "deposer")) fileConflict(M.noRight, "forbidden");
  const rate = await consumeRateLimit(`document-upload:${userId}`, UPLOAD_RATE);
  if (!rate.allowed) fileConflict(DOCUMENT_MESSAGES.tooManyUploads, "rate-limited");
  const doc = await prepareDocument(input);
  return withStoredDocument(access.fileId, doc, ({ key, contentType }) =>
    db.transaction(async (tx) => {
      // Rights and quota read again under the file's lock.
      const locked = await requireFileParticipant(tx, userId, fileId, { lock: true });
      if (!may(locked, folder.visibility, "deposer")) fileConflict(M.noRight, "forbidden");
      const problem = documentSizeProblem(doc.bytes.byteLength, await usedBytes(tx, locked.fileId), DOCUMENT_LIMITS);
      if (problem) fileConflict(documentSizeMessage(problem, DOCUMENT_LIMITS), "too-large");
      const [row] = await queryRows<{ id: string }>(
        sql`insert into collaboration_documents (file_id, uploader_profile_id, uploader_participant_id, folder_id, name, content_type, size_bytes, sha256, storage_key, created_at)
          values (${locked.fileId}::uuid, ${locked.profileId}::uuid, ${locked.participantId}::uuid, ${folder.id}::uuid, ${doc.name}, ${contentType},
            ${doc.bytes.byteLength}, ${doc.sha256}, ${key}, clock_timestamp()) returning id`,
        tx,
      );
      await appendParticipantEvent(tx, locked, "document_shared", { name: doc.name });
      await notifyParticipants(tx, locked.fileId, { ...documentSharedNotice(locked.name, folder.id), exceptParticipantId: locked.participantId });
      if (options.toFounders !== false) await notifyFounders(tx, locked.fileId, documentSharedFounderNotice(locked.fileId, locked.name, folder.id));
      return { documentId: row.id, name: doc.name };
    }),
  );
}

export type SharedFileView = {
  access: FileParticipantAccess;
  /** The clients of the deal: shown only once this participant signed the undertaking. */
  clients: { side: "cedant" | "acquereur"; name: string; address: string }[];
} & SharedDocuments;

/** The file as a participant reads it; the client identities only after their undertaking. */
export async function getSharedFileView(userId: string, fileId: string, page = 1): Promise<SharedFileView> {
  return sharedFileView(await requireFileParticipant(db, userId, fileId), page);
}

/** The same for an access its page has just checked (requireFileParticipant), refused before the undertaking. */
export async function sharedFileView(access: FileParticipantAccess, page = 1): Promise<SharedFileView> {
  if (!access.undertakingSigned) refuseUndertaking();
  const clients = await queryRows<{ side: "cedant" | "acquereur"; name: string; address: string }>(sql`
    select case when m.mandate_type = 'seller' then 'cedant' else 'acquereur' end as side, m.client_name as name, m.client_address as address
    from collaboration_files f join mandates m on m.id in (f.mandate_a_id, f.mandate_b_id)
    where f.id = ${access.fileId}::uuid and ${access.undertakingSigned} and m.client_name is not null
    order by m.mandate_type desc`);
  return { access, clients, ...(await listParticipantDocuments(access, page)) };
}

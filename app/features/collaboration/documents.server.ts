// The document room of a collaboration file: its two members share PDF, images and
// office files, see who opened what, and withdraw what they shared. Documents are private: they
// are stored under "documents/{fileId}/" (never a public /uploads/ URL) and served only through
// openDocument, which checks the file's membership, logs the access and watermarks PDFs.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import sharp from "sharp";
import { db } from "~/db/client.server";
import { collaborationDocuments } from "~/db/schema";
import { queryRows } from "~/db/query.server";
import { isUuid } from "~/lib/uuid";
import { pageWindow } from "~/lib/paging";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { getStorage, type ObjectStream } from "~/lib/storage/storage.server";
import { PRIVATE_DOCUMENTS_PREFIX } from "~/lib/storage/keys";
import { MAX_INPUT_PIXELS } from "~/lib/storage/image.server";
import { pdfPool, UntrustedPdfError, type PdfProblem } from "~/lib/untrusted/pdf-pool.server";
import { COLLABORATION_MESSAGES, isClosed } from "./collaboration-rules";
import { GONE_MEMBER_NAME, memberNameOrGone, notifyCounterpart } from "./collaboration.server";
import { groupVersions } from "./document-versions-rules";
import { documentSharedNotice, notifyParticipants } from "./participant-notifications.server";
import { watermarkPdf } from "./document-watermark.server";
import {
  accessLabel,
  contentDisposition,
  detectDocumentType,
  DOCUMENT_FORMATS,
  DOCUMENT_LIMITS,
  DOCUMENT_MESSAGES,
  DOCUMENTS_PAGE_SIZE,
  DOCUMENT_TYPE_LABELS,
  documentSizeMessage,
  documentSizeProblem,
  sanitizeDocumentName,
  watermarkLine,
  type AccessAction,
  type DocumentLimits,
  type DocumentType,
} from "./documents-rules";
import { actorName, appendFileEvent, fileConflict, fileNotFound, requireFileAccess, withFile, type FileActor } from "./file-access.server";
import { type AppErrorCode } from "~/lib/errors/app-error";

// Parsing and watermarking cost CPU: generous for a person, a wall for a script.
const UPLOAD_RATE: RateLimitRule = { limit: 60, windowSeconds: 60 * 60 };
const OPEN_RATE: RateLimitRule = { limit: 300, windowSeconds: 60 * 60 };

function refuse(message: string, code: AppErrorCode): never {
  fileConflict(message, code);
}

function documentNotFound(): never {
  refuse(DOCUMENT_MESSAGES.notFound, "not-found");
}

const TYPE_BY_CONTENT_TYPE = new Map(Object.entries(DOCUMENT_FORMATS).map(([type, f]) => [f.contentType, type as DocumentType]));

// ---------------------------------------------------------------------------------------------
// Checking an upload

export type PreparedDocument = { type: DocumentType; name: string; bytes: Uint8Array; sha256: string };

/** The refusal of an untrusted PDF, in the words and status of the document room. */
const PDF_REFUSALS: Record<PdfProblem, { message: string; code: AppErrorCode }> = {
  "inflated-too-large": { message: DOCUMENT_MESSAGES.inflatedTooLarge, code: "unprocessable" },
  encrypted: { message: DOCUMENT_MESSAGES.encryptedPdf, code: "unsupported-type" },
  unreadable: { message: DOCUMENT_MESSAGES.notPdf, code: "unsupported-type" },
  "no-pages": { message: DOCUMENT_MESSAGES.notPdf, code: "unsupported-type" },
  "time-limit": { message: DOCUMENT_MESSAGES.pdfTooComplex, code: "unprocessable" },
  "memory-limit": { message: DOCUMENT_MESSAGES.pdfTooComplex, code: "unprocessable" },
  busy: { message: DOCUMENT_MESSAGES.pdfBusy, code: "unavailable" },
};

/** Runs a PDF job of the worker pool; its refusal becomes the room's 4xx (or 503 when busy). */
export async function untrustedPdf<T>(job: () => Promise<T>): Promise<T> {
  try {
    return await job();
  } catch (error) {
    if (!(error instanceof UntrustedPdfError)) throw error;
    if (error.problem === "time-limit" || error.problem === "memory-limit") logger.warn({ problem: error.problem }, "untrusted PDF stopped by its worker's limits");
    const refusal = PDF_REFUSALS[error.problem];
    refuse(refusal.message, refusal.code);
  }
}

/**
 * Checks a file before anything is stored: size, type from the bytes, a PDF that pdf-lib can
 * read (the watermark needs it), is not password-protected and whose decompressed content stays
 * within its bound — inspected in the PDF worker pool, never on this thread —, an image sharp
 * can read within its pixel limit, a name. Throws a 4xx with a French message. DOCX and XLSX are
 * recognised from their first bytes and never unpacked.
 */
export async function prepareDocument(
  input: { name: string; bytes: Uint8Array },
  limits: DocumentLimits = DOCUMENT_LIMITS,
): Promise<PreparedDocument> {
  const sizeProblem = documentSizeProblem(input.bytes.byteLength, 0, limits);
  if (sizeProblem) refuse(documentSizeMessage(sizeProblem, limits), sizeProblem === "empty" ? "invalid" : "too-large");
  const type = detectDocumentType(input.bytes);
  if (!type) refuse(DOCUMENT_MESSAGES.unsupported, "unsupported-type");
  if (type === "pdf") {
    await untrustedPdf(() => pdfPool().inspect(input.bytes));
  } else if (type === "jpeg" || type === "png") {
    // The pixel limit: a small file announcing a huge canvas is refused before it is decoded.
    const format = await sharp(input.bytes, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS })
      .metadata()
      .then((m) => m.format)
      .catch(() => null);
    if (format !== type) refuse(DOCUMENT_MESSAGES.notImage, "unsupported-type");
  }
  const name = sanitizeDocumentName(input.name, type);
  if (!name) refuse(DOCUMENT_MESSAGES.badName, "invalid");
  return { type, name, bytes: input.bytes, sha256: createHash("sha256").update(input.bytes).digest("hex") };
}

export async function usedBytes(handle: typeof db, fileId: string): Promise<number> {
  const [row] = await queryRows<{ used: string | number | null }>(
    sql`select coalesce(sum(size_bytes), 0) as used from collaboration_documents where file_id = ${fileId}::uuid and withdrawn_at is null`,
    handle,
  );
  return Number(row?.used ?? 0);
}

export function newDocumentKey(fileId: string, type: DocumentType): string {
  return `${PRIVATE_DOCUMENTS_PREFIX}${fileId}/${randomBytes(16).toString("hex")}.${DOCUMENT_FORMATS[type].extension}`;
}

// ---------------------------------------------------------------------------------------------
// Sharing

export type ShareOptions = { limits?: DocumentLimits; /** A folder the founder sees; null or absent: the general folder. */ folderId?: string | null };

/** A folder of the file that this founder sees (their side or shared), locked by the caller's transaction; null otherwise. */
async function founderFolder(handle: typeof db, fileId: string, profileId: string, folderId: string): Promise<string | null> {
  if (!isUuid(folderId)) return null;
  const [row] = await queryRows<{ id: string }>(
    sql`select fo.id from collaboration_folders fo join collaboration_files cf on cf.id = fo.file_id
      where fo.id = ${folderId}::uuid and fo.file_id = ${fileId}::uuid and (fo.visibility = 'both' or fo.visibility = (
        case when (case when cf.member_a_id = ${profileId}::uuid then cf.mandate_a_label else cf.mandate_b_label end) like 'Mandat cédant%'
          then 'cedant' else 'acquereur' end))`,
    handle,
  );
  return row?.id ?? null;
}

/**
 * Shares a document in the file. The bytes are stored first under a new random key, then the
 * row, its timeline event and the counterpart's e-mail are written in one transaction (quota
 * checked again under the file's lock); if that fails the stored bytes are deleted, so nothing
 * is ever half-shared.
 */
export async function shareDocument(
  actor: FileActor,
  fileId: string,
  input: { name: string; bytes: Uint8Array },
  options: ShareOptions = {},
): Promise<{ documentId: string; name: string }> {
  const limits = options.limits ?? DOCUMENT_LIMITS;
  // A non-member learns nothing, not even whether the file exists or the file is valid.
  const access = await requireFileAccess(db, actor, fileId);
  const rate = await consumeRateLimit(`document-upload:${actor.profileId}`, UPLOAD_RATE);
  if (!rate.allowed) refuse(DOCUMENT_MESSAGES.tooManyUploads, "rate-limited");
  if (isClosed(access.stage)) refuse(COLLABORATION_MESSAGES.closed, "conflict");
  if (!access.counterpartId) refuse(COLLABORATION_MESSAGES.counterpartGone, "conflict");
  const folderId = options.folderId ?? null;
  if (folderId !== null && !(await founderFolder(db, access.id, actor.profileId, folderId))) refuse(DOCUMENT_MESSAGES.badFolder, "not-found");
  const doc = await prepareDocument(input, limits);
  const quotaFirst = documentSizeProblem(doc.bytes.byteLength, await usedBytes(db, access.id), limits);
  if (quotaFirst) refuse(documentSizeMessage(quotaFirst, limits), "too-large");

  const storage = getStorage();
  const key = newDocumentKey(access.id, doc.type);
  const { contentType } = DOCUMENT_FORMATS[doc.type];
  try {
    await storage.putObject(key, doc.bytes, contentType);
  } catch (error) {
    logger.error({ err: error, key }, "document could not be stored");
    refuse(DOCUMENT_MESSAGES.storeFailed, "failed");
  }
  try {
    return await withFile(actor, access.id, async (tx, file) => {
      if (isClosed(file.stage)) refuse(COLLABORATION_MESSAGES.closed, "conflict");
      // Two uploads at once: the second one sees the first under the lock.
      const problem = documentSizeProblem(doc.bytes.byteLength, await usedBytes(tx, file.id), limits);
      if (problem) refuse(documentSizeMessage(problem, limits), "too-large");
      if (folderId !== null && !(await founderFolder(tx, file.id, actor.profileId, folderId))) refuse(DOCUMENT_MESSAGES.badFolder, "not-found");
      const [row] = await tx
        .insert(collaborationDocuments)
        .values({
          fileId: file.id,
          uploaderProfileId: actor.profileId,
          folderId,
          name: doc.name,
          contentType,
          sizeBytes: doc.bytes.byteLength,
          sha256: doc.sha256,
          storageKey: key,
          createdAt: sql`clock_timestamp()`,
        })
        .returning({ id: collaborationDocuments.id });
      await appendFileEvent(tx, file.id, actor, "document_shared", { name: doc.name });
      // The e-mail names the sender, never the document: its name may carry the client's.
      await notifyCounterpart(tx, file.counterpartId, file.id, {
        title: "Nouveau document dans un dossier de rapprochement",
        intro: `${actorName(actor)} a partagé un document dans votre dossier de rapprochement commun.`,
        line: "Pour préserver la confidentialité, le document se consulte dans le dossier, sur la plateforme.",
        kind: "collaboration-document",
        // Several documents shared at once make one e-mail (one per quarter of an hour).
        dedupeKey: `collaboration-document:${file.id}:${file.counterpartId}:${Math.floor(Date.now() / (15 * 60_000))}`,
      });
      await notifyParticipants(tx, file.id, documentSharedNotice(actorName(actor), folderId));
      return { documentId: row.id, name: doc.name };
    });
  } catch (error) {
    await storage.deleteObject(key).catch((e: unknown) => logger.warn({ err: e, key }, "orphan document could not be deleted"));
    throw error;
  }
}

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
  /** Who opened it: for the uploader only. */
  accesses: DocumentAccessEntry[];
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
    DocumentRow & { used: string | number; accesses: AccessLogEntry[] | null; folders: Array<{ id: string; name: string }>; total: string | number }
  >(sql`
    with seen as (
      select d.id, coalesce(d.lineage_id, d.id) as lineage, d.version, d.created_at
      from collaboration_documents d left join collaboration_folders fo on fo.id = d.folder_id
      where d.file_id = ${access.id}::uuid and ${folderSeenByFounder(actor.profileId)}
    ), latest as (
      select distinct on (lineage) lineage, created_at, id from seen order by lineage, version desc
    ), counted as (
      select count(*) as total from latest
    ), paged as (
      select l.lineage from latest l order by l.created_at desc, l.id
      limit ${DOCUMENTS_PAGE_SIZE}
      offset ${DOCUMENTS_PAGE_SIZE} * (least(${requested}, greatest(1, ceil((select total from counted)::numeric / ${DOCUMENTS_PAGE_SIZE})))::int - 1)
    ), used as (
      select coalesce(sum(size_bytes), 0) as used from collaboration_documents where file_id = ${access.id}::uuid and withdrawn_at is null
    ), folders as (
      select coalesce(json_agg(json_build_object('id', fo.id, 'name', fo.name) order by fo.name, fo.id), '[]'::json) as folders
      from collaboration_folders fo join collaboration_files cf on cf.id = fo.file_id
      where fo.file_id = ${access.id}::uuid and (fo.visibility = 'both' or fo.visibility = (
        case when (case when cf.member_a_id = ${actor.profileId}::uuid then cf.mandate_a_label else cf.mandate_b_label end) like 'Mandat cédant%'
          then 'cedant' else 'acquereur' end))
    )
    select used.used, folders.folders, counted.total, d.id, d.name, d.content_type, d.size_bytes, d.created_at, d.withdrawn_at, d.uploader_profile_id,
      d.uploader_first, d.uploader_last, d.accesses, d.lineage_id, d.version, d.folder_name
    from used cross join folders cross join counted left join lateral (
      select d.id, d.name, d.content_type, d.size_bytes, d.created_at, d.withdrawn_at, d.uploader_profile_id,
        coalesce(p.first_name, cp.first_name) as uploader_first, coalesce(p.last_name, cp.last_name) as uploader_last,
        d.lineage_id, d.version, fo.name as folder_name,
        case when d.uploader_profile_id = ${actor.profileId}::uuid then coalesce((
          select json_agg(l order by l.created_at desc, l.id) from (
            select id, viewer_profile_id, viewer_name, action, created_at from document_access_log where document_id = d.id) l
        ), '[]'::json) end as accesses
      from collaboration_documents d
      left join profiles p on p.id = d.uploader_profile_id
      -- A participant's upload (a guest has no profile) is named after the participant.
      left join collaboration_participants cp on cp.id = d.uploader_participant_id
      left join collaboration_folders fo on fo.id = d.folder_id
      where d.file_id = ${access.id}::uuid and ${folderSeenByFounder(actor.profileId)}
        and coalesce(d.lineage_id, d.id) in (select lineage from paged)
    ) d on true
    order by d.created_at desc, d.id`);
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

// ---------------------------------------------------------------------------------------------
// Opening

export type OpenedContent =
  | { kind: "stamped"; bytes: Uint8Array } // a PDF, stamped for this opening
  | { kind: "stored"; object: ObjectStream }; // any other document, streamed from storage as stored

export type OpenedDocument = OpenedContent & {
  contentType: string;
  disposition: string;
  action: AccessAction;
  name: string;
  /** The access log row of this opening, woven into a PDF's stamp. */
  openingId: string;
};

/** A stored PDF stamped for one opening; null when its bytes are missing. */
async function stampedPdf(key: string, actor: FileActor, openingId: string, now: Date): Promise<OpenedContent | null> {
  const original = (await getStorage().getObject(key))?.bytes;
  if (!original) return null;
  const company =
    actor.company !== undefined
      ? actor.company
      : ((await queryRows<{ company: string | null }>(sql`select company from profiles where id = ${actor.profileId}::uuid`))[0]?.company ?? null);
  const line = watermarkLine({ name: actorName(actor), company }, now);
  return { kind: "stamped", bytes: await untrustedPdf(() => watermarkPdf(original, { line, openingId })) };
}

/**
 * A document for one of the file's members: a PDF viewed in the browser (mode "view") or any
 * document downloaded, PDFs stamped with the viewer's name and the date on every page and marked
 * with the opening's id (the access log row's). Each opening is logged; the counterpart's first
 * opening also joins the file's timeline. A withdrawn
 * document is gone for everyone (its bytes are deleted).
 */
export async function openDocument(
  actor: FileActor,
  fileId: string,
  documentId: string,
  mode: "view" | "download",
  now: Date = new Date(),
): Promise<OpenedDocument> {
  if (!isUuid(fileId)) fileNotFound();
  if (!isUuid(documentId)) documentNotFound();
  // The file (one of its two members, else a 404) and the document, in one statement.
  const [row] = await queryRows<{ file_id: string; id: string | null; name: string; content_type: string; storage_key: string; sha256: string; uploader_profile_id: string | null }>(sql`
    select f.id as file_id, d.id, d.name, d.content_type, d.storage_key, d.sha256, d.uploader_profile_id
    from collaboration_files f
    left join (collaboration_documents d left join collaboration_folders fo on fo.id = d.folder_id)
      on d.file_id = f.id and d.id = ${documentId}::uuid and d.withdrawn_at is null and ${folderSeenByFounder(actor.profileId)}
    where f.id = ${fileId}::uuid and (f.member_a_id = ${actor.profileId}::uuid or f.member_b_id = ${actor.profileId}::uuid)`);
  if (!row) fileNotFound();
  if (!row.id) documentNotFound();
  const doc = { ...row, id: row.id };
  const rate = await consumeRateLimit(`document-open:${actor.profileId}`, OPEN_RATE);
  if (!rate.allowed) refuse(DOCUMENT_MESSAGES.tooManyOpens, "rate-limited");
  const isPdf = doc.content_type === DOCUMENT_FORMATS.pdf.contentType;
  // Only PDFs are shown in the browser; images and office files are always downloaded.
  const action: AccessAction = isPdf && mode === "view" ? "view" : "download";
  // The opening's id, known before the stamp: the access log row's id and the copy's mark.
  const openingId = randomUUID();
  // A PDF is read whole to be stamped; any other document streams from storage, verified as it goes.
  const content: OpenedContent | null = isPdf
    ? await stampedPdf(doc.storage_key, actor, openingId, now)
    : await getStorage()
        .openObject(doc.storage_key, { sha256: doc.sha256 })
        .then((object) => object && { kind: "stored" as const, object });
  if (!content) {
    logger.error({ documentId: doc.id, key: doc.storage_key }, "stored document missing");
    documentNotFound();
  }
  try {
    await logOpening(actor, { ...doc, fileId: row.file_id }, openingId, action);
  } catch (error) {
    if (content.kind === "stored") content.object.body.destroy();
    throw error;
  }
  return {
    ...content,
    contentType: doc.content_type,
    disposition: contentDisposition(action === "view" ? "inline" : "attachment", doc.name),
    action,
    name: doc.name,
    openingId,
  };
}

/** Logs an opening; the counterpart's first one also joins the file's timeline. */
async function logOpening(
  actor: FileActor,
  doc: { id: string; fileId: string; name: string; uploader_profile_id: string | null },
  openingId: string,
  action: AccessAction,
): Promise<void> {
  // The opening is logged, and the count of this member's earlier openings read, in one statement
  // (the CTE's read sees the log as it was before the insert).
  const [logged] = await queryRows<{ earlier: number | string }>(sql`
    with earlier as (
      select count(*) as n from document_access_log where document_id = ${doc.id}::uuid and viewer_profile_id = ${actor.profileId}::uuid
    ), opened as (
      insert into document_access_log (id, document_id, viewer_profile_id, viewer_name, action, created_at)
      values (${openingId}::uuid, ${doc.id}::uuid, ${actor.profileId}::uuid, ${actorName(actor)}, ${action}, clock_timestamp())
      returning 1
    )
    select (select n from earlier) as earlier, (select count(*) from opened) as inserted`);
  // The counterpart's first opening joins the file's timeline.
  if (doc.uploader_profile_id !== actor.profileId && Number(logged?.earlier ?? 0) === 0) {
    await db.transaction((tx) => appendFileEvent(tx, doc.fileId, actor, "document_viewed", { name: doc.name }));
  }
}

// ---------------------------------------------------------------------------------------------
// Withdrawing

/**
 * The uploader withdraws a document: it is gone for the other member (a 404 on its address),
 * its bytes are deleted, its row and access log stay (the uploader sees "Retiré le …").
 */
export async function withdrawDocument(actor: FileActor, fileId: string, documentId: string): Promise<void> {
  // Allowed on a closed file too: a member may always take back what they shared.
  if (!isUuid(documentId)) {
    await requireFileAccess(db, actor, fileId);
    documentNotFound();
  }
  const key = await withFile(actor, fileId, async (tx, file) => {
    const [doc] = await queryRows<{ id: string; name: string; storage_key: string; uploader_profile_id: string | null; withdrawn_at: Date | string | null }>(
      sql`select id, name, storage_key, uploader_profile_id, withdrawn_at from collaboration_documents
        where id = ${documentId}::uuid and file_id = ${file.id}::uuid for update`,
      tx,
    );
    if (!doc) documentNotFound();
    if (doc.uploader_profile_id !== actor.profileId) {
      // The other member's withdrawn document does not exist for them.
      if (doc.withdrawn_at) documentNotFound();
      refuse(DOCUMENT_MESSAGES.notUploader, "forbidden");
    }
    if (doc.withdrawn_at) refuse(DOCUMENT_MESSAGES.alreadyWithdrawn, "conflict");
    await tx.execute(sql`update collaboration_documents set withdrawn_at = clock_timestamp() where id = ${doc.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "document_withdrawn", { name: doc.name });
    await notifyCounterpart(tx, file.counterpartId, file.id, {
      title: "Un document a été retiré d’un dossier de rapprochement",
      intro: `${actorName(actor)} a retiré un document de votre dossier de rapprochement commun.`,
      line: "La liste des documents du dossier est à jour sur la plateforme.",
      kind: "collaboration-document-withdrawn",
      dedupeKey: `collaboration-document-withdrawn:${file.id}:${file.counterpartId}:${Math.floor(Date.now() / (15 * 60_000))}`,
    });
    return doc.storage_key;
  });
  // After the commit: a failed deletion leaves an unreachable object, never a listed document without bytes.
  await getStorage()
    .deleteObject(key)
    .catch((error: unknown) => logger.warn({ err: error, key }, "withdrawn document could not be deleted"));
}

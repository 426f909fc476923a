// Opening a document as a founder: the file's membership checked, the opening logged (and the
// document read), a PDF watermarked for this opening; the counterpart's first opening joins the timeline.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { isUuid } from "~/lib/uuid";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit } from "~/lib/rate-limit.server";
import { getStorage, type ObjectStream } from "~/lib/storage/storage.server";
import { documentReadInsert } from "./document-reads.server";
import { watermarkPdf } from "./document-watermark.server";
import { contentDisposition, DOCUMENT_FORMATS, DOCUMENT_MESSAGES, watermarkLine, type AccessAction } from "./documents-rules";
import { actorName, appendFileEvent, fileNotFound, type FileActor } from "./file-access.server";
import { documentNotFound, OPEN_RATE, refuse, untrustedPdf } from "./document-checks.server";
import { folderSeenByFounder } from "./document-list.server";

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
    ), marked as (${documentReadInsert(sql`(select p.user_id from profiles p where p.id = ${actor.profileId}::uuid)`, doc.id)})
    select (select n from earlier) as earlier, (select count(*) from opened) as inserted, (select count(*) from marked) as marked`);
  // The counterpart's first opening joins the file's timeline.
  if (doc.uploader_profile_id !== actor.profileId && Number(logged?.earlier ?? 0) === 0) {
    await db.transaction((tx) => appendFileEvent(tx, doc.fileId, actor, "document_viewed", { name: doc.name }));
  }
}

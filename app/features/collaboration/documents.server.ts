// The document room of a collaboration file: its two members share PDF, images and office files
// and withdraw what they shared. Documents are private: they are stored under "documents/{fileId}/"
// (never a public /uploads/ URL) and served only through openDocument (document-opening), which
// checks the file's membership, logs the access and watermarks PDFs. The checks of an upload, the
// list and the opening have their own modules, re-exported here.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { collaborationDocuments } from "~/db/schema";
import { queryRows } from "~/db/query.server";
import { isUuid } from "~/lib/uuid";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit } from "~/lib/rate-limit.server";
import { getStorage } from "~/lib/storage/storage.server";
import { COLLABORATION_MESSAGES, isClosed } from "./collaboration-rules";
import { notifyCounterpart } from "./file-notify.server";
import { documentSharedNotice, notifyParticipants } from "./participant-notifications.server";
import {
  DOCUMENT_LIMITS,
  DOCUMENT_MESSAGES,
  documentSizeMessage,
  documentSizeProblem,
  type DocumentLimits,
} from "./documents-rules";
import { actorName, appendFileEvent, requireFileAccess, withFile, type FileActor } from "./file-access.server";
import { documentNotFound, prepareDocument, refuse, UPLOAD_RATE, usedBytes, withStoredDocument } from "./document-checks.server";


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

  return withStoredDocument(access.id, doc, ({ key, contentType }) =>
    withFile(actor, access.id, async (tx, file) => {
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
    }),
  );
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

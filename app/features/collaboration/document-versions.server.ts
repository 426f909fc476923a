// A new version of a shared document: the same logical document, version n+1, in
// the same folder; the earlier versions stay listed and open as their readers' rights allow
// (watermark and access log as for any document). Founders and participants with « déposer » on
// the document's folder, through requireFileParticipant.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { type AppErrorCode } from "~/lib/errors/app-error";
import { isUuid } from "~/lib/uuid";
import { consumeRateLimit } from "~/lib/rate-limit.server";
import { isClosed } from "./collaboration-rules";
import { lineageOf, VERSION_MESSAGES, versionRefusal, type VersionRefusal } from "./document-versions-rules";
import { DOCUMENT_LIMITS, DOCUMENT_MESSAGES, documentSizeMessage, documentSizeProblem } from "./documents-rules";
import { prepareDocument, UPLOAD_RATE, usedBytes, withStoredDocument } from "./document-checks.server";
import { fileConflict } from "./file-access.server";
import { isAllowed, type FolderVisibility } from "./participant-rules";
import { appendParticipantEvent, requireFileParticipant, type FileParticipantAccess } from "./participant-access.server";
import { documentSharedFounderNotice, documentSharedNotice, notifyFounders, notifyParticipants } from "./participant-notifications.server";


const REFUSAL_CODE: Record<VersionRefusal, AppErrorCode> = { closed: "conflict", "not-found": "not-found", "no-right": "forbidden", "not-latest": "conflict", withdrawn: "conflict" };

type CurrentRow = {
  id: string;
  lineage_id: string | null;
  version: number;
  folder_id: string | null;
  visibility: FolderVisibility;
  superseded_at: Date | string | null;
  withdrawn_at: Date | string | null;
};

async function currentRow(handle: typeof db, access: FileParticipantAccess, documentId: string, lock: boolean): Promise<CurrentRow | undefined> {
  if (!isUuid(documentId)) return undefined;
  const [row] = await queryRows<CurrentRow>(
    sql`select d.id, d.lineage_id, d.version, d.folder_id, coalesce(fo.visibility, 'both') as visibility, d.superseded_at, d.withdrawn_at
      from collaboration_documents d left join collaboration_folders fo on fo.id = d.folder_id
      where d.id = ${documentId}::uuid and d.file_id = ${access.fileId}::uuid ${lock ? sql`for update of d` : sql``}`,
    handle,
  );
  return row;
}

function check(access: FileParticipantAccess, row: CurrentRow | undefined): CurrentRow {
  const visible = row !== undefined && isAllowed({ role: access.role, side: access.side, visibility: row.visibility, rights: access.rights, right: "voir" });
  const refusal = versionRefusal({
    closed: isClosed(access.stage),
    visible,
    mayDeposit: row !== undefined && isAllowed({ role: access.role, side: access.side, visibility: row.visibility, rights: access.rights, right: "deposer" }),
    superseded: row?.superseded_at != null,
    withdrawn: row?.withdrawn_at != null,
  });
  if (refusal || !row) fileConflict(VERSION_MESSAGES[refusal ?? "not-found"], REFUSAL_CODE[refusal ?? "not-found"]);
  return row;
}

/**
 * Adds version n+1 of a document: checked and stored first, then the row written under the file's
 * lock (rights, « latest » and quota read again), the earlier version marked superseded; nothing
 * half-stored on failure.
 */
export async function shareDocumentVersion(
  userId: string,
  fileId: string,
  documentId: string,
  input: { name: string; bytes: Uint8Array },
): Promise<{ documentId: string; name: string; version: number }> {
  const access = await requireFileParticipant(db, userId, fileId);
  check(access, await currentRow(db, access, documentId, false));
  const rate = await consumeRateLimit(`document-upload:${userId}`, UPLOAD_RATE);
  if (!rate.allowed) fileConflict(DOCUMENT_MESSAGES.tooManyUploads, "rate-limited");
  const doc = await prepareDocument(input);
  return withStoredDocument(access.fileId, doc, ({ key, contentType }) =>
    db.transaction(async (tx) => {
      const locked = await requireFileParticipant(tx, userId, fileId, { lock: true });
      const previous = check(locked, await currentRow(tx, locked, documentId, true));
      const problem = documentSizeProblem(doc.bytes.byteLength, await usedBytes(tx, locked.fileId), DOCUMENT_LIMITS);
      if (problem) fileConflict(documentSizeMessage(problem, DOCUMENT_LIMITS), "too-large");
      const version = previous.version + 1;
      const [row] = await queryRows<{ id: string }>(
        sql`insert into collaboration_documents (file_id, uploader_profile_id, uploader_participant_id, folder_id, name, content_type, size_bytes, sha256, storage_key, lineage_id, version, created_at)
          values (${locked.fileId}::uuid, ${locked.profileId}::uuid, ${locked.participantId}::uuid, ${previous.folder_id}::uuid, ${doc.name}, ${contentType},
            ${doc.bytes.byteLength}, ${doc.sha256}, ${key}, ${lineageOf({ id: previous.id, lineageId: previous.lineage_id })}::uuid, ${version}, clock_timestamp()) returning id`,
        tx,
      );
      await tx.execute(sql`update collaboration_documents set superseded_at = clock_timestamp() where id = ${previous.id}::uuid`);
      await appendParticipantEvent(tx, locked, "document_shared", { name: `${doc.name} (${VERSION_MESSAGES.label(version)})` });
      const notice = documentSharedFounderNotice(locked.fileId, locked.name, previous.folder_id, version);
      await notifyFounders(tx, locked.fileId, { ...notice, exceptProfileId: locked.kind === "founder" ? locked.profileId : null });
      await notifyParticipants(tx, locked.fileId, { ...documentSharedNotice(locked.name, previous.folder_id), title: notice.title, exceptParticipantId: locked.participantId });
      return { documentId: row!.id, name: doc.name, version };
    }),
  );
}

// The invited participants of a file (members and guest accounts) hear of what reaches them, through
// the one notification model (decision 053): a request added to the list, a question answered on
// their side, a document shared in a folder they see. Written in the use case's own transaction;
// the link is always one of the participant's own pages of that file (/dossiers-partages/…), so a
// guest is never sent anywhere else of the network.
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { notify } from "~/features/notifications/notifications.server";
import type { NotificationKind } from "~/features/notifications/notification-rules";
import { sharedFileUrl, type FileSide } from "./participant-rules";

export type ParticipantNotice = {
  kind: NotificationKind;
  title: string;
  body: string;
  /** Below the participant's file page: "" (the file), "/diligences", "/diligences/{id}". */
  path: "" | `/diligences${string}`;
  /**
   * Who sees it: one side only (a side's question), the side(s) that see a folder (a document;
   * null: the general folder), or every side.
   */
  seenBy: { side: Exclude<FileSide, "commun"> } | { folderId: string | null } | "all";
  /** The participant who acted, never told of their own act. */
  exceptParticipantId?: string | null;
};

/**
 * Notifies every participant who sees it: active, undertaking signed, « voir », of a side that sees
 * it (a « commun » participant sees what every side sees, no side's own), a member participant with
 * a validated profile or a guest account. Returns how many were told.
 */
export async function notifyParticipants(tx: Db, fileId: string, notice: ParticipantNotice): Promise<number> {
  const seen = notice.seenBy;
  const sees =
    seen === "all"
      ? sql``
      : "side" in seen
        ? sql`and cp.side::text = ${seen.side}`
        : seen.folderId === null
          ? sql``
          : sql`and exists (select 1 from collaboration_folders fo where fo.id = ${seen.folderId}::uuid and fo.file_id = cp.file_id
              and (fo.visibility::text = 'both' or fo.visibility::text = cp.side::text))`;
  const rows = await queryRows<{ user_id: string; reference: string }>(
    sql`select cp.user_id, f.reference from collaboration_participants cp join collaboration_files f on f.id = cp.file_id
      where cp.file_id = ${fileId}::uuid and cp.status = 'active' and cp.user_id is not null and cp.undertaking_signed_at is not null and cp.can_view
        ${sees}
        ${notice.exceptParticipantId ? sql`and cp.id <> ${notice.exceptParticipantId}::uuid` : sql``}
        and (case when cp.is_guest then exists (select 1 from guest_accounts g where g.user_id = cp.user_id)
          else exists (select 1 from profiles p where p.user_id = cp.user_id and p.profile_status = 'validated') end)
      order by cp.created_at, cp.id`,
    tx,
  );
  for (const r of rows) {
    await notify(r.user_id, notice.kind, { title: `${notice.title} (${r.reference})`, body: notice.body, link: `${sharedFileUrl(fileId)}${notice.path}` }, tx);
  }
  return rows.length;
}

/** A document shared: told to the participants who see its folder, on their file page (never its name: it may carry a client's). */
export function documentSharedNotice(sharer: string, folderId: string | null): ParticipantNotice {
  return {
    kind: "document_shared",
    title: "Nouveau document dans un dossier partagé",
    body: `${sharer} a partagé un document dans le dossier.`,
    path: "",
    seenBy: { folderId },
  };
}

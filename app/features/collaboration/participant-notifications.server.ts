// The people of a file hear of one another's acts through the one notification model (decision
// 053), both ways: the invited participants (members and guest accounts) of a request added, a
// question asked or answered on their side, a document shared in a folder they see; the two
// founders of what a participant does there. Written in the use case's own transaction; a
// participant's link is always one of their own pages of that file (/dossiers-partages/…), so a
// guest is never sent anywhere else of the network.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { notify, notifyProfile } from "~/features/notifications/notifications.server";
import type { NotificationKind } from "~/features/notifications/notification-rules";
import { fileUrl } from "./collaboration-rules";
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
  /** Only this participant (still if they see it), e.g. a request's owner. */
  onlyParticipantId?: string;
  /** The to-do it opens (event-rules' `taskKey`). */
  task?: string;
  /** Only those who may validate a provided request: the buyer's side, with « déposer », never a bank. */
  validators?: true;
};

/**
 * Notifies every participant who sees it: active, undertaking signed, « voir », of a side that sees
 * it (a « commun » participant sees what every side sees, no side's own), a member participant with
 * a validated profile or a guest account. Returns how many were told.
 */
export async function notifyParticipants(tx: Db, fileId: string, notice: ParticipantNotice): Promise<number> {
  const sees = seenBySql(notice.seenBy, sql`cp.side::text`, sql`cp.file_id`);
  const rows = await queryRows<{ user_id: string; reference: string }>(
    sql`select cp.user_id, f.reference from collaboration_participants cp join collaboration_files f on f.id = cp.file_id
      where cp.file_id = ${fileId}::uuid and cp.status = 'active' and cp.user_id is not null and cp.undertaking_signed_at is not null and cp.can_view
        ${sees}
        ${notice.exceptParticipantId ? sql`and cp.id <> ${notice.exceptParticipantId}::uuid` : sql``}
        ${notice.onlyParticipantId ? sql`and cp.id = ${notice.onlyParticipantId}::uuid` : sql``}
        ${notice.validators ? sql`and cp.side = 'acquereur' and cp.role <> 'banque' and cp.can_upload` : sql``}
        and (case when cp.is_guest then exists (select 1 from guest_accounts g where g.user_id = cp.user_id)
          else exists (select 1 from profiles p where p.user_id = cp.user_id and p.profile_status = 'validated') end)
      order by cp.created_at, cp.id`,
    tx,
  );
  for (const r of rows) {
    await notify(r.user_id, notice.kind, { title: `${notice.title} (${r.reference})`, body: notice.body, link: `${sharedFileUrl(fileId)}${notice.path}` }, tx, notice.task ? { task: notice.task } : {});
  }
  return rows.length;
}

/** SQL: the person whose side is `side` sees it (the folder's side, or the side named, or anything). */
function seenBySql(seen: ParticipantNotice["seenBy"], side: SQL, fileId: SQL): SQL {
  if (seen === "all") return sql``;
  if ("side" in seen) return sql`and ${side} = ${seen.side}`;
  if (seen.folderId === null) return sql``;
  return sql`and exists (select 1 from collaboration_folders fo where fo.id = ${seen.folderId}::uuid and fo.file_id = ${fileId}
    and (fo.visibility::text = 'both' or fo.visibility::text = ${side}))`;
}

export type FounderNotice = Omit<ParticipantNotice, "path" | "exceptParticipantId" | "onlyParticipantId" | "task" | "validators"> & {
  /** The founder's own page of the file it concerns. */
  link: string;
  /** The founder who acted, never told of their own act. */
  exceptProfileId?: string | null;
  /** The to-do it opens for each founder told (event-rules' `taskKey`), when it asks something of them. */
  task?: string;
};

/**
 * Notifies the file's founding members who see it (validated profiles; their side is their
 * mandate's, as `requireFileParticipant` says). Returns how many were told.
 */
export async function notifyFounders(tx: Db, fileId: string, notice: FounderNotice): Promise<number> {
  const side = sql`(case when x.label like 'Mandat cédant%' then 'cedant' else 'acquereur' end)`;
  const rows = await queryRows<{ profile_id: string; reference: string }>(
    sql`select x.profile_id, f.reference from collaboration_files f
      cross join lateral (values (f.member_a_id, f.mandate_a_label, 1), (f.member_b_id, f.mandate_b_label, 2)) as x(profile_id, label, n)
      join profiles p on p.id = x.profile_id and p.profile_status = 'validated'
      where f.id = ${fileId}::uuid ${seenBySql(notice.seenBy, side, sql`f.id`)}
        ${notice.exceptProfileId ? sql`and x.profile_id <> ${notice.exceptProfileId}::uuid` : sql``}
      order by x.n`,
    tx,
  );
  for (const r of rows) {
    await notifyProfile(r.profile_id, notice.kind, { title: `${notice.title} (${r.reference})`, body: notice.body, link: notice.link }, tx, notice.task ? { task: notice.task } : {});
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

/** A participant's document (or a new version): told to the founders who see its folder, on their documents tab. */
export function documentSharedFounderNotice(fileId: string, sharer: string, folderId: string | null, version?: number): FounderNotice {
  return {
    kind: "document_shared",
    title: version && version > 1 ? "Nouvelle version d’un document" : "Nouveau document dans un dossier de rapprochement",
    body: version && version > 1 ? `${sharer} a déposé une nouvelle version d’un document.` : `${sharer} a partagé un document dans le dossier.`,
    link: `${fileUrl(fileId)}/documents`,
    seenBy: { folderId },
  };
}

// Participants of a collaboration file beyond its two founding members: the founders' list of
// them, the files a participant was admitted to, and the document folders. The access function
// (participant-access), the invitations (participant-invitations) and answering one
// (participant-joining) have their own modules, re-exported here for the tests that import them.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { fileConflict } from "./file-access.server";
import {
  canApprove,
  canCreateFolder,
  participantState,
  PARTICIPANT_MESSAGES as M,
  ROLE_LABELS,
  SIDE_LABELS,
  STATE_LABELS,
  type FileSide,
  type FolderVisibility,
  type ParticipantRole,
  type ParticipantStatus,
  type Rights,
} from "./participant-rules";
import { appendParticipantEvent, asFounder, requireFileParticipant, type FileParticipantAccess } from "./participant-access.server";

// ---------------------------------------------------------------------------------------------
// Lists

export type ParticipantEntry = {
  id: string;
  email: string;
  name: string | null;
  company: string | null;
  role: ParticipantRole;
  roleLabel: string;
  side: FileSide;
  sideLabel: string;
  state: ParticipantStatus | "expired";
  stateLabel: string;
  isGuest: boolean;
  rights: Rights;
  expiresAt: string;
  undertakingSigned: boolean;
  /** The acting founder may approve this guest (the other founder invited them). */
  canApprove: boolean;
};

/** The participants of a file, for a founder (every invitation) or a participant (the active ones, no e-mails). */
export async function listParticipants(userId: string, fileId: string, now = new Date()): Promise<{ access: FileParticipantAccess; participants: ParticipantEntry[] }> {
  const access = await requireFileParticipant(db, userId, fileId);
  const founder = access.kind === "founder";
  const rows = await queryRows<{
    id: string;
    email: string;
    first_name: string | null;
    last_name: string | null;
    company: string | null;
    role: ParticipantRole;
    side: FileSide;
    status: ParticipantStatus;
    is_guest: boolean;
    can_view: boolean;
    can_download: boolean;
    can_upload: boolean;
    expires_at: Date | string;
    invited_by: string | null;
    undertaking_signed_at: Date | string | null;
  }>(sql`select id, email, first_name, last_name, company, role, side, status, is_guest, can_view, can_download, can_upload, expires_at, invited_by, undertaking_signed_at
    from collaboration_participants where file_id = ${access.fileId}::uuid ${founder ? sql`` : sql`and status = 'active'`}
    order by created_at, id`);
  const participants = rows.map((r): ParticipantEntry => {
    const state = participantState(r.status, new Date(r.expires_at), now);
    const name = r.first_name || r.last_name ? `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim() : null;
    return {
      id: r.id,
      email: founder ? r.email : "",
      name,
      company: r.company,
      role: r.role,
      roleLabel: ROLE_LABELS[r.role],
      side: r.side,
      sideLabel: SIDE_LABELS[r.side],
      state,
      stateLabel: STATE_LABELS[state],
      isGuest: r.is_guest,
      rights: { voir: r.can_view, telecharger: r.can_download, deposer: r.can_upload },
      expiresAt: new Date(r.expires_at).toISOString(),
      undertakingSigned: r.undertaking_signed_at !== null,
      canApprove: founder && state === "awaiting_approval" && access.profileId !== null && canApprove(access.profileId, r.invited_by),
    };
  });
  return { access, participants };
}

export type SharedFileEntry = { fileId: string; reference: string; status: ParticipantStatus; stateLabel: string; roleLabel: string; sideLabel: string };

/** The files a user was admitted to or awaits, for the shared files' home. */
export async function listSharedFiles(userId: string): Promise<SharedFileEntry[]> {
  const rows = await queryRows<{ file_id: string; reference: string; status: ParticipantStatus; role: ParticipantRole; side: FileSide }>(
    sql`select cp.file_id, f.reference, cp.status, cp.role, cp.side from collaboration_participants cp join collaboration_files f on f.id = cp.file_id
      where cp.user_id = ${userId} and cp.status in ('active', 'awaiting_approval') order by cp.created_at desc`,
  );
  return rows.map((r) => ({
    fileId: r.file_id,
    reference: r.reference,
    status: r.status,
    stateLabel: STATE_LABELS[r.status],
    roleLabel: ROLE_LABELS[r.role],
    sideLabel: SIDE_LABELS[r.side],
  }));
}

// ---------------------------------------------------------------------------------------------
// Folders

export type FolderEntry = { id: string; name: string; visibility: FolderVisibility };

/** A founder creates a folder, shared or for their own side. */
export async function createFolder(userId: string, fileId: string, input: { name: string; visibility: FolderVisibility }): Promise<string> {
  return asFounder(userId, fileId, async (tx, access) => {
    if (!canCreateFolder(access.role, access.side, input.visibility)) fileConflict(M.folderSide, "forbidden");
    const rows = await queryRows<{ id: string }>(
      sql`insert into collaboration_folders (file_id, name, visibility, created_by) values (${access.fileId}::uuid, ${input.name}, ${input.visibility}, ${access.profileId}::uuid)
        on conflict do nothing returning id`,
      tx,
    );
    if (!rows[0]) fileConflict(M.folderExists, "conflict");
    await appendParticipantEvent(tx, access, "folder_created", { name: input.name });
    return rows[0].id;
  });
}

/** The folders this person's side sees (the general folder, id null, is implied and seen by all). */
export async function listVisibleFolders(access: FileParticipantAccess, handle: Db = db): Promise<FolderEntry[]> {
  return queryRows<FolderEntry>(
    sql`select id, name, visibility from collaboration_folders
      where file_id = ${access.fileId}::uuid and (visibility = 'both' or visibility = ${access.side}) order by name, id`,
    handle,
  );
}

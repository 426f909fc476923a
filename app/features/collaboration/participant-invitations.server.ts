// Managing a file's participants, by its founders: invitations by e-mail (7 days), withdrawal,
// the other founder's approval of a guest, removal (access ends at once), rights.
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { isUuid } from "~/lib/uuid";
import { getEnv } from "~/lib/env.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { fileConflict } from "./file-access.server";
import {
  canApprove,
  invitationExpiry,
  invitationUrl,
  sharedFileUrl,
  PARTICIPANT_MESSAGES as M,
  ROLE_LABELS,
  SIDE_LABELS,
  type FileSide,
  type ParticipantRole,
  type ParticipantStatus,
  type Rights,
} from "./participant-rules";
import { appendParticipantEvent, asFounder } from "./participant-access.server";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const describeInvitee = (email: string, role: ParticipantRole, side: FileSide) => `${email} · ${ROLE_LABELS[role]} · ${SIDE_LABELS[side]}`;

// ---------------------------------------------------------------------------------------------
// Invitations

export type InviteInput = { email: string; role: ParticipantRole; side: FileSide; rights: Rights };

/** A founder invites someone by e-mail; returns the link's secret (in the e-mail only, hashed in the row). */
export async function inviteParticipant(userId: string, fileId: string, input: InviteInput, now = new Date()): Promise<{ participantId: string; token: string }> {
  const email = input.email.trim().toLowerCase();
  return asFounder(userId, fileId, async (tx, access) => {
    const [founderEmail] = await queryRows<{ n: number }>(
      sql`select count(*)::int as n from collaboration_files f join profiles p on p.id in (f.member_a_id, f.member_b_id) join "user" u on u.id = p.user_id
        where f.id = ${access.fileId}::uuid and lower(u.email) = ${email}`,
      tx,
    );
    if ((founderEmail?.n ?? 0) > 0) fileConflict(M.founderEmail, "conflict");
    // An open invitation past its date no longer blocks a new one.
    await tx.execute(sql`update collaboration_participants set status = 'withdrawn', ended_at = clock_timestamp()
      where file_id = ${access.fileId}::uuid and lower(email) = ${email} and status = 'invited' and expires_at <= ${now.toISOString()}::timestamptz`);
    const token = randomBytes(32).toString("base64url");
    const rows = await queryRows<{ id: string }>(
      sql`insert into collaboration_participants (file_id, email, role, side, token_hash, expires_at, invited_by, invited_by_name, can_view, can_download, can_upload)
        values (${access.fileId}::uuid, ${email}, ${input.role}, ${input.side}, ${hashToken(token)}, ${invitationExpiry(now).toISOString()}::timestamptz,
          ${access.profileId}::uuid, ${access.name}, ${input.rights.voir}, ${input.rights.voir && input.rights.telecharger}, ${input.rights.voir && input.rights.deposer})
        on conflict do nothing returning id`,
      tx,
    );
    const row = rows[0];
    if (!row) fileConflict(M.alreadyInvited, "conflict");
    await appendParticipantEvent(tx, access, "participant_invited", { name: describeInvitee(email, input.role, input.side) });
    // The e-mail names the inviter and the file's reference, never a client.
    await sendNotificationEmail(
      email,
      {
        title: `Invitation à un dossier de transmission (${access.reference})`,
        intro: `${access.name} vous invite à rejoindre le dossier ${access.reference} en tant que ${ROLE_LABELS[input.role].toLowerCase()} (${SIDE_LABELS[input.side].toLowerCase()}).`,
        lines: [
          "Membre du réseau, vous rejoignez le dossier avec votre compte. Sinon, un compte invité limité à ce dossier vous sera créé.",
          `Cette invitation est valable ${7}\u00a0jours.`,
        ],
        ctaLabel: "Voir l’invitation",
        ctaUrl: `${getEnv().APP_URL}${invitationUrl(token)}`,
        footer: "Vous recevez cet e-mail car un membre du réseau vous a invité à un dossier.",
      },
      { kind: "collaboration-invitation", tx },
    );
    return { participantId: row.id, token };
  });
}

async function participantRow(tx: Db, fileId: string, participantId: string) {
  if (!isUuid(participantId)) fileConflict(M.notOpen, "not-found");
  const [row] = await queryRows<{
    id: string;
    email: string;
    role: ParticipantRole;
    side: FileSide;
    status: ParticipantStatus;
    is_guest: boolean;
    user_id: string | null;
    invited_by: string | null;
  }>(
    sql`select id, email, role, side, status, is_guest, user_id, invited_by from collaboration_participants
      where id = ${participantId}::uuid and file_id = ${fileId}::uuid for update`,
    tx,
  );
  if (!row) fileConflict(M.notOpen, "not-found");
  return row;
}

/** A founder withdraws an invitation not yet answered. */
export async function withdrawInvitation(userId: string, fileId: string, participantId: string): Promise<void> {
  await asFounder(userId, fileId, async (tx, access) => {
    const row = await participantRow(tx, access.fileId, participantId);
    if (row.status !== "invited") fileConflict(M.notOpen, "conflict");
    await tx.execute(sql`update collaboration_participants set status = 'withdrawn', ended_at = clock_timestamp() where id = ${row.id}::uuid`);
    await appendParticipantEvent(tx, access, "participant_invitation_withdrawn", { name: describeInvitee(row.email, row.role, row.side) });
  });
}

/** The other founder approves a guest; only then does the guest see the file. */
export async function approveParticipant(userId: string, fileId: string, participantId: string): Promise<void> {
  await asFounder(userId, fileId, async (tx, access) => {
    const row = await participantRow(tx, access.fileId, participantId);
    if (row.status !== "awaiting_approval") fileConflict(M.notAwaiting, "conflict");
    if (!canApprove(access.profileId, row.invited_by)) fileConflict(M.cannotApprove, "forbidden");
    await tx.execute(sql`update collaboration_participants set status = 'active', approved_at = clock_timestamp(), approved_by = ${access.profileId}::uuid
      where id = ${row.id}::uuid`);
    await appendParticipantEvent(tx, access, "participant_approved", { name: describeInvitee(row.email, row.role, row.side) });
    await sendNotificationEmail(
      row.email,
      {
        title: `Accès au dossier ${access.reference} approuvé`,
        intro: "Votre accès au dossier a été approuvé. Signez l’engagement de confidentialité pour le consulter.",
        ctaLabel: "Ouvrir le dossier",
        ctaUrl: `${getEnv().APP_URL}${sharedFileUrl(access.fileId)}`,
        footer: "Vous recevez cet e-mail car vous participez à un dossier sur la plateforme.",
      },
      { kind: "collaboration-participant-approved", tx },
    );
  });
}

/**
 * A founder removes a participant (or refuses a guest awaiting approval): the row ends at once,
 * every later request is refused by requireFileParticipant, and a guest's sessions are deleted —
 * which ends their open live streams too (the session triggers of migration 0015).
 */
export async function removeParticipant(userId: string, fileId: string, participantId: string): Promise<void> {
  await asFounder(userId, fileId, async (tx, access) => {
    const row = await participantRow(tx, access.fileId, participantId);
    if (row.status !== "active" && row.status !== "awaiting_approval") fileConflict(M.notOpen, "conflict");
    await tx.execute(sql`update collaboration_participants set status = 'removed', ended_at = clock_timestamp() where id = ${row.id}::uuid`);
    if (row.is_guest && row.user_id) {
      await tx.execute(sql`delete from session where user_id = ${row.user_id}`);
    }
    await appendParticipantEvent(tx, access, "participant_removed", { name: describeInvitee(row.email, row.role, row.side) });
  });
}

/** A founder sets a participant's rights (a right without « voir » is not kept). */
export async function setParticipantRights(userId: string, fileId: string, participantId: string, rights: Rights): Promise<void> {
  await asFounder(userId, fileId, async (tx, access) => {
    const row = await participantRow(tx, access.fileId, participantId);
    if (row.status === "withdrawn" || row.status === "removed") fileConflict(M.notOpen, "conflict");
    await tx.execute(sql`update collaboration_participants set can_view = ${rights.voir}, can_download = ${rights.voir && rights.telecharger},
      can_upload = ${rights.voir && rights.deposer} where id = ${row.id}::uuid`);
    await appendParticipantEvent(tx, access, "participant_rights_changed", { name: describeInvitee(row.email, row.role, row.side) });
  });
}

// What both sides of a mediation read: the rows, their exchange and attachments as the viewer
// may see them. The member's actions are in mediation.server.ts, the team's in
// mediation-admin.server.ts.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { requireFileAccess, type FileActor } from "~/features/collaboration/file-access.server";
import { formatDatePattern } from "~/lib/format";
import { BREACH_KIND_LABELS, isActive, MEDIATION_STATUS_LABELS, type BreachKind, type MediationStatus } from "./mediation-rules";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Handle = Db | Tx;

export const TEAM_NAME = "L’équipe du réseau";

export type MediationMessageView = { id: string; body: string; at: string; authorName: string; fromTeam: boolean; byMe: boolean };
export type MediationAttachmentView = { id: string; name: string; sizeBytes: number; url: string; at: string };
export type MediationDecisionView = { text: string; at: string; outcomeLabel: string; upheld: string | null };

export type MediationView = {
  id: string;
  fileId: string;
  status: MediationStatus;
  statusLabel: string;
  active: boolean;
  subject: string;
  facts: string;
  openedByName: string;
  respondentName: string;
  openedByMe: boolean;
  createdAt: string;
  updatedAt: string;
  messages: MediationMessageView[];
  attachments: MediationAttachmentView[];
  decision: MediationDecisionView | null;
};

export type MediationRow = {
  id: string;
  file_id: string;
  status: MediationStatus;
  subject: string;
  facts: string;
  opened_by: string | null;
  opened_by_name: string;
  respondent_id: string | null;
  respondent_name: string;
  decision: string | null;
  decided_at: Date | string | null;
  upheld: boolean;
  upheld_against_id: string | null;
  breach_kind: BreachKind | null;
  created_at: Date | string;
  updated_at: Date | string;
};

export const MEDIATION_COLUMNS = sql`m.id, m.file_id, m.status::text as status, m.subject, m.facts, m.opened_by, m.opened_by_name,
  m.respondent_id, m.respondent_name, m.decision, m.decided_at, m.upheld, m.upheld_against_id, m.breach_kind, m.created_at, m.updated_at`;

const iso = (v: Date | string) => new Date(v).toISOString();

export function formatMediationDate(at: string): string {
  return formatDatePattern(at, "dd/MM/yyyy 'à' HH:mm");
}

/**
 * Builds the view of some mediations: their exchange and, for the given viewer, the attachments
 * they may open (their own; the team sees all of them: viewerProfileId null).
 */
export async function mediationViews(rows: MediationRow[], viewer: { profileId: string | null }, handle: Handle = db): Promise<MediationView[]> {
  if (rows.length === 0) return [];
  const ids = sql.join(
    rows.map((r) => sql`${r.id}::uuid`),
    sql`, `,
  );
  const [messages, attachments] = await Promise.all([
    queryRows<MediationMessageRow>(
      sql`select id, mediation_id, body, author_role, author_profile_id, author_name, created_at from mediation_messages
        where mediation_id in (${ids}) order by created_at, id`,
      handle,
    ),
    queryRows<MediationAttachmentRow>(
      sql`select id, mediation_id, name, size_bytes, uploader_profile_id, created_at from mediation_attachments
        where mediation_id in (${ids}) ${viewer.profileId ? sql`and uploader_profile_id = ${viewer.profileId}::uuid` : sql``} order by created_at, id`,
      handle,
    ),
  ]);
  return buildMediationViews(rows, messages, attachments, viewer);
}

export type MediationMessageRow = { id: string; mediation_id: string; body: string; author_role: string; author_profile_id: string | null; author_name: string; created_at: Date | string };
export type MediationAttachmentRow = { id: string; mediation_id: string; name: string; size_bytes: number | string; uploader_profile_id: string | null; created_at: Date | string };

/**
 * The views of some mediations from their rows, messages and attachments (each in time order,
 * the attachments already limited to those the viewer may open): the team's page reads all of
 * them in one statement (mediation-admin.server.ts).
 */
export function buildMediationViews(
  rows: MediationRow[],
  messages: MediationMessageRow[],
  attachments: MediationAttachmentRow[],
  viewer: { profileId: string | null },
): MediationView[] {
  return rows.map((r) => {
    const upheldName = r.upheld ? (r.upheld_against_id && r.upheld_against_id === r.opened_by ? r.opened_by_name : r.respondent_name) : null;
    return {
      id: r.id,
      fileId: r.file_id,
      status: r.status,
      statusLabel: MEDIATION_STATUS_LABELS[r.status],
      active: isActive(r.status),
      subject: r.subject,
      facts: r.facts,
      openedByName: r.opened_by_name,
      respondentName: r.respondent_name,
      openedByMe: viewer.profileId !== null && r.opened_by === viewer.profileId,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
      messages: messages
        .filter((m) => m.mediation_id === r.id)
        .map((m) => ({
          id: m.id,
          body: m.body,
          at: iso(m.created_at),
          authorName: m.author_role === "admin" ? TEAM_NAME : viewer.profileId && m.author_profile_id === viewer.profileId ? "Vous" : m.author_name,
          fromTeam: m.author_role === "admin",
          byMe: viewer.profileId !== null && m.author_profile_id === viewer.profileId,
        })),
      attachments: attachments
        .filter((a) => a.mediation_id === r.id)
        .map((a) => ({ id: a.id, name: a.name, sizeBytes: Number(a.size_bytes), url: `/mediations/pieces/${a.id}`, at: iso(a.created_at) })),
      decision:
        r.decision && r.decided_at
          ? {
              text: r.decision,
              at: iso(r.decided_at),
              outcomeLabel: MEDIATION_STATUS_LABELS[r.status],
              upheld: upheldName ? `Réclamation fondée à l’encontre de ${upheldName}${r.breach_kind ? `\u00a0: ${BREACH_KIND_LABELS[r.breach_kind].toLowerCase()}` : ""}` : null,
            }
          : null,
    };
  });
}

/** The mediations of a file, newest first, for one of its two members (404 for anyone else). */
export async function listFileMediations(actor: Pick<FileActor, "profileId">, fileId: string): Promise<{ fileId: string; mediations: MediationView[]; canOpen: boolean }> {
  const access = await requireFileAccess(db, actor, fileId);
  const rows = await queryRows<MediationRow>(sql`select ${MEDIATION_COLUMNS} from mediations m where m.file_id = ${access.id}::uuid order by m.created_at desc`);
  const views = await mediationViews(rows, { profileId: actor.profileId });
  return { fileId: access.id, mediations: views, canOpen: access.counterpartId !== null && !views.some((v) => v.active) };
}

/** The member's mediations, as they read them (data export): every file they are a member of. */
export async function mediationsOfMember(profileId: string): Promise<MediationView[]> {
  const rows = await queryRows<MediationRow>(sql`
    select ${MEDIATION_COLUMNS} from mediations m join collaboration_files f on f.id = m.file_id
    where f.member_a_id = ${profileId}::uuid or f.member_b_id = ${profileId}::uuid
    order by m.created_at`);
  return mediationViews(rows, { profileId });
}

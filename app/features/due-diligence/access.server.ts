// Who acts in a file's due-diligence list, and from which side. Today a file has its two founding
// members; their side comes from their mandates. This is the ONE function every
// query of the list goes through: the participants' access function replaces it at merge.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { isAppError } from "~/lib/errors/app-error";
import { queryRows } from "~/db/query.server";
import { isClosed } from "~/features/collaboration/collaboration-rules";
import { requireFileParticipant } from "~/features/collaboration/participant-access.server";
import { requireFileAccess, type FileAccess, type FileActor } from "~/features/collaboration/file-access.server";
import { foundingSide, mayOwnRequest, type DdActor, type DdRole, type DdSide } from "./due-diligence-rules";

/** Someone a request may be given to: a founder (by profile id) or an admitted participant (by participant id). */
export type DdOwnerChoice = { id: string; kind: "founder" | "participant"; name: string; side: DdSide; role: DdRole; userId: string | null };

export type DdAccess = {
  file: FileAccess;
  actor: DdActor;
  closed: boolean;
  /** The founding members of the file, with their side. */
  participants: { profileId: string; name: string; side: DdSide }[];
  /** Whom a request may be given to now (`mayOwnRequest`): the founders, then the admitted participants. */
  owners: DdOwnerChoice[];
};

type SideRow = {
  mandate_a: "buyer" | "seller" | null;
  mandate_b: "buyer" | "seller" | null;
  seller_side: "a" | "b" | null;
  a_id: string | null;
  a_name: string | null;
  b_id: string | null;
  b_name: string | null;
  people: unknown;
};

type PersonRow = { id: string; user_id: string | null; side: DdSide; role: DdRole; active: boolean; signed: boolean; view: boolean; name: string };

/** The file seen by the actor with their side, role and rights in the list (404 for anyone else). */
export async function requireDueDiligenceAccess(handle: Db, actor: Pick<FileActor, "profileId">, fileId: string, lock = false): Promise<DdAccess> {
  const file = await requireFileAccess(handle, actor, fileId, lock);
  const [row] = await queryRows<SideRow>(
    sql`select ma.mandate_type::text as mandate_a, mb.mandate_type::text as mandate_b,
        (select a.terms->>'sellerSide' from fee_agreements a where a.file_id = f.id and a.status <> 'cancelled' order by a.version desc limit 1) as seller_side,
        pa.id as a_id, nullif(trim(concat(pa.first_name, ' ', pa.last_name)), '') as a_name,
        pb.id as b_id, nullif(trim(concat(pb.first_name, ' ', pb.last_name)), '') as b_name,
        (select coalesce(json_agg(json_build_object('id', cp.id, 'user_id', cp.user_id, 'side', cp.side, 'role', cp.role, 'active', cp.status = 'active',
            'signed', cp.undertaking_signed_at is not null, 'view', cp.can_view,
            'name', coalesce(nullif(trim(concat(pp.first_name, ' ', pp.last_name)), ''), nullif(trim(concat(cp.first_name, ' ', cp.last_name)), ''), cp.email))
            order by cp.created_at, cp.id), '[]'::json)
          from collaboration_participants cp left join profiles pp on pp.id = cp.profile_id
          where cp.file_id = f.id and cp.status = 'active') as people
      from collaboration_files f
      left join mandates ma on ma.id = f.mandate_a_id
      left join mandates mb on mb.id = f.mandate_b_id
      left join profiles pa on pa.id = f.member_a_id
      left join profiles pb on pb.id = f.member_b_id
      where f.id = ${file.id}::uuid`,
    handle,
  );
  const sellerSide = row?.seller_side === "a" || row?.seller_side === "b" ? row.seller_side : null;
  const sideOf = (s: "a" | "b") =>
    foundingSide({
      mine: (s === "a" ? row?.mandate_a : row?.mandate_b) ?? null,
      theirs: (s === "a" ? row?.mandate_b : row?.mandate_a) ?? null,
      agreementSellerSide: sellerSide,
      mySide: s,
    });
  const participants: DdAccess["participants"] = [];
  if (row?.a_id) participants.push({ profileId: row.a_id, name: row.a_name ?? "Membre", side: sideOf("a") });
  if (row?.b_id) participants.push({ profileId: row.b_id, name: row.b_name ?? "Membre", side: sideOf("b") });
  const raw = row?.people;
  const people = ((typeof raw === "string" ? JSON.parse(raw) : raw) ?? []) as PersonRow[];
  const owners: DdOwnerChoice[] = [
    ...participants.map((p) => ({ id: p.profileId, kind: "founder" as const, name: p.name, side: p.side, role: "conseil" as const, userId: null })),
    ...people
      .filter((p) => mayOwnRequest({ founder: false, role: p.role, active: p.active, undertakingSigned: p.signed, canView: p.view }))
      .map((p) => ({ id: p.id, kind: "participant" as const, name: p.name, side: p.side, role: p.role, userId: p.user_id })),
  ];
  return {
    file,
    actor: { profileId: actor.profileId, side: sideOf(file.side), role: "conseil", founder: true },
    closed: isClosed(file.stage),
    participants,
    owners,
  };
}

/**
 * The founders' pages of the list ask THE participant-aware guard first: a stranger or a removed
 * participant gets its 404, an admitted participant is told apart so the page can send them to
 * their own pages (which ask for the undertaking), and only a founder goes on.
 */
export async function founderOrParticipant(userId: string, fileId: string): Promise<"founder" | "participant"> {
  const access = await requireFileParticipant(db, userId, fileId, { beforeUndertaking: true });
  return access.kind === "founder" ? "founder" : "participant";
}

/**
 * A founders' read of the file; when it finds no file (or nothing in it), whether the reader is one
 * of the file's participants, whose own pages serve them: asked only then, not on every page.
 */
export async function readAsFounder<T>(userId: string, fileId: string, read: () => Promise<T>): Promise<{ participant: true } | { participant: false; value: T }> {
  try {
    return { participant: false, value: await read() };
  } catch (error) {
    if (isAppError(error) && error.code === "not-found" && (await founderOrParticipant(userId, fileId)) === "participant") return { participant: true };
    throw error;
  }
}

/** Runs a command on the list: transaction, file row locked, access checked. */
export function withDueDiligence<T>(actor: FileActor, fileId: string, run: (tx: Db, access: DdAccess) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => run(tx, await requireDueDiligenceAccess(tx, actor, fileId, true)));
}

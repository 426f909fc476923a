// After the offer (items 7 and 8): a member puts their mandate of a file in negotiation
// (out of the matching) or back in the search, a concluded file concludes both its mandates,
// and a concluded file can be proposed as a certified deal. The state rules are pure
// (negotiation-rules.ts); each command here locks its rows, writes, and
// records its step in the file's timeline in the same transaction.
import type { FileEventKind } from "./timeline";
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { dealSchema } from "~/features/deals/deal.schema";
import { createOwnDeal } from "~/features/deals/deals.server";
import type { MandateStatus, MandateType } from "~/features/mandates/mandate-rules";
import { notFound as mandateNotFound } from "~/features/mandates/mandates.server";
import { isUuid } from "~/lib/uuid";
import type { MemberActor } from "~/auth/actor";
import { DEAL_FROM_FILE_TEXT, dealSector } from "./collaboration-rules";
import { appendFileEvent, fileConflict, withFile, type FileAccess, type FileActor } from "./file-access.server";
import {
  mandateStatusAfterClosing,
  mandateTransition,
  NEGOTIATION_MESSAGES,
  refusalMessage,
  type MandateCommand,
} from "./negotiation-rules";
import { invalidate } from "~/lib/cache.server";
import { AppError } from "~/lib/errors/app-error";

// ---------------------------------------------------------------------------------------------
// Negotiation

const COMMAND_EVENTS = {
  negotiate: "mandate_negotiating",
  resume: "mandate_resumed",
  conclude: "mandate_concluded",
} as const satisfies Record<MandateCommand, FileEventKind>;

async function myMandateLabel(tx: Db, file: FileAccess): Promise<string> {
  const [r] = await queryRows<{ mandate_a_label: string; mandate_b_label: string }>(
    sql`select mandate_a_label, mandate_b_label from collaboration_files where id = ${file.id}::uuid`,
    tx,
  );
  return (file.side === "a" ? r?.mandate_a_label : r?.mandate_b_label) ?? "";
}

/**
 * « Passer en négociation », « Remettre en recherche active » or « Marquer mon mandat comme
 * conclu » on the actor's own mandate of a file (404 for anyone but the file's two members; the
 * counterpart's mandate is never reachable: the command acts on the actor's side only).
 */
export async function changeMandateFromFile(actor: FileActor, fileId: string, command: MandateCommand): Promise<MandateStatus> {
  return withFile(actor, fileId, async (tx, file) => {
    if (!file.myMandateId) fileConflict(NEGOTIATION_MESSAGES.mandateGone);
    const [mandate] = await queryRows<{ status: MandateStatus }>(
      sql`select status::text as status from mandates where id = ${file.myMandateId}::uuid and profile_id = ${actor.profileId}::uuid for update`,
      tx,
    );
    if (!mandate) fileConflict(NEGOTIATION_MESSAGES.mandateGone);
    const transition = mandateTransition(command, mandate.status, file.stage);
    if (!transition.ok) fileConflict(refusalMessage(command, transition.reason));
    invalidate("mandates");
    await tx.execute(sql`update mandates set status = ${transition.to}::mandate_status, updated_at = now()
      where id = ${file.myMandateId}::uuid and profile_id = ${actor.profileId}::uuid`);
    await appendFileEvent(tx, file.id, actor, COMMAND_EVENTS[command], { name: await myMandateLabel(tx, file) });
    return transition.to;
  });
}

/**
 * « Remettre en recherche active » from the mandate's card: one of the actor's mandates in
 * negotiation goes back to the matching (404 for anyone else's mandate).
 */
export async function resumeMandateSearch(actor: Pick<FileActor, "profileId">, mandateId: string): Promise<void> {
  if (!isUuid(mandateId)) mandateNotFound();
  await db.transaction(async (tx) => {
    const [mandate] = await queryRows<{ status: MandateStatus }>(
      sql`select status::text as status from mandates where id = ${mandateId}::uuid and profile_id = ${actor.profileId}::uuid for update`,
      tx,
    );
    if (!mandate) mandateNotFound();
    const transition = mandateTransition("resume", mandate.status, null);
    if (!transition.ok) throw new AppError("conflict", refusalMessage("resume", transition.reason));
    invalidate("mandates");
    await tx.execute(sql`update mandates set status = ${transition.to}::mandate_status, updated_at = now() where id = ${mandateId}::uuid`);
  });
}

/**
 * The closing of a file concludes both of its mandates (the rule is
 * `mandateStatusAfterClosing`): they leave the matching at the moment the file is concluded. Runs in the
 * confirmation's transaction.
 */
export async function concludeMandatesOfFile(tx: Db, fileId: string): Promise<void> {
  const rows = await queryRows<{ id: string; status: MandateStatus; label: string }>(
    sql`select m.id, m.status::text as status,
        case when m.id = f.mandate_a_id then f.mandate_a_label else f.mandate_b_label end as label
      from collaboration_files f join mandates m on m.id in (f.mandate_a_id, f.mandate_b_id)
      where f.id = ${fileId}::uuid
      order by m.id
      for update of m`,
    tx,
  );
  for (const m of rows) {
    const to = mandateStatusAfterClosing(m.status);
    if (to === m.status) continue;
    invalidate("mandates");
    await tx.execute(sql`update mandates set status = ${to}::mandate_status, updated_at = now() where id = ${m.id}::uuid`);
    await appendFileEvent(tx, fileId, null, "mandate_concluded", { name: m.label });
  }
}

// ---------------------------------------------------------------------------------------------
// Certified deal

export const DEAL_PROPOSAL_MESSAGES = {
  notConcluded: "Seul un dossier conclu par les deux membres peut être proposé comme transaction certifiée.",
  already: "Vous avez déjà proposé ce dossier comme transaction certifiée.",
  noSector: "Le secteur de l’opération ne peut pas être déduit des mandats du dossier\u00a0: ajoutez la référence depuis votre profil.",
  yearOutOfRange: "L’année de signature est en dehors des 20 dernières années\u00a0: ce dossier ne peut pas devenir une transaction certifiée.",
  proposed: "Transaction certifiée proposée\u00a0: elle sera visible sur votre profil après validation par un administrateur. Vous pouvez la compléter depuis votre profil.",
} as const;

export type DealProposalActor = FileActor & MemberActor;

/**
 * « Proposer comme deal certifié »: a pending certified deal prefilled from a concluded file (year
 * of the closing, sector from the mandates, generic texts), under the rules of any new reference
 * (premium members, per-member limit, admin validation). Once per member per file: the proposal is
 * a timeline event, and a second one is a 409.
 */
export async function proposeFileAsDeal(actor: DealProposalActor, fileId: string, now: Date = new Date()): Promise<{ dealId: string }> {
  return withFile(actor, fileId, async (tx, file) => {
    if (file.stage !== "concluded") fileConflict(DEAL_PROPOSAL_MESSAGES.notConcluded);
    const [done] = await queryRows<{ id: string }>(
      sql`select id from collaboration_events where file_id = ${file.id}::uuid and kind = 'deal_proposed' and actor_profile_id = ${actor.profileId}::uuid limit 1`,
      tx,
    );
    if (done) fileConflict(DEAL_PROPOSAL_MESSAGES.already);
    const [f] = await queryRows<{ closing_date: string | null; concluded_at: Date | string | null }>(
      sql`select closing_date::text as closing_date, concluded_at from collaboration_files where id = ${file.id}::uuid`,
      tx,
    );
    const ids = [file.myMandateId, file.theirMandateId].filter((id): id is string => id !== null);
    const sides = ids.length
      ? await queryRows<{ id: string; mandate_type: MandateType; company_sector: string | null; search_sectors: string[] | null }>(
          sql`select id, mandate_type::text as mandate_type, company_sector, search_sectors from mandates
            where id in (${sql.join(
              ids.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`,
          tx,
        )
      : [];
    const sector = dealSector(sides.map((m) => ({ mandateType: m.mandate_type, companySector: m.company_sector, searchSectors: m.search_sectors })));
    if (!sector) fileConflict(DEAL_PROPOSAL_MESSAGES.noSector);
    const year = f?.closing_date ? Number(f.closing_date.slice(0, 4)) : new Date(f?.concluded_at ?? now).getFullYear();
    const mySide = sides.find((s) => s.id === file.myMandateId)?.mandate_type ?? null;
    const parsed = dealSchema(now).safeParse({
      year,
      sector,
      acquirerCedant: DEAL_FROM_FILE_TEXT.acquirerCedant,
      dealDescription: DEAL_FROM_FILE_TEXT.description(mySide),
    });
    if (!parsed.success) {
      const yearIssue = parsed.error.issues.some((i) => i.path[0] === "year");
      fileConflict(yearIssue ? DEAL_PROPOSAL_MESSAGES.yearOutOfRange : DEAL_PROPOSAL_MESSAGES.noSector);
    }
    const { id } = await createOwnDeal(actor, parsed.data, tx);
    await appendFileEvent(tx, file.id, actor, "deal_proposed", { dealId: id, year: parsed.data.year });
    return { dealId: id };
  });
}

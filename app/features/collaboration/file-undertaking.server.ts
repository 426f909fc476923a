// The confidentiality undertaking signed from the file itself: the same use case as the matching
// panel's, found through the pair of mandates the file joins, so both places record one signature.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import type { MandateActor } from "~/features/mandates/mandates.server";
import { signUndertaking } from "~/features/connections/connections.server";
import { fileConflict, requireFileAccess } from "./file-access.server";

export async function signFileUndertaking(actor: MandateActor, fileId: string): Promise<void> {
  const access = await requireFileAccess(db, actor, fileId);
  if (!access.myMandateId || !access.theirMandateId) fileConflict("L’un des mandats du dossier a été supprimé\u00a0: l’engagement ne peut plus être signé.");
  const [request] = await queryRows<{ id: string }>(
    sql`select id from mandate_match_requests
      where (requester_mandate_id = ${access.myMandateId}::uuid and target_mandate_id = ${access.theirMandateId}::uuid)
         or (requester_mandate_id = ${access.theirMandateId}::uuid and target_mandate_id = ${access.myMandateId}::uuid)
      limit 1`,
  );
  if (!request) fileConflict("La mise en relation de ce dossier est introuvable\u00a0: l’engagement ne peut pas être signé.");
  await signUndertaking(actor, request.id);
}

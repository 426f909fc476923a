// GET /dashboard/dossiers/:fileId/diligences/export?format=xlsx|pdf: the file's due-diligence
// list as its member's side sees it. The two founding members only (404 for anyone else,
// participants included).
import { requireMember } from "~/auth/session.server";
import { fileActor, fileNotFound } from "~/features/collaboration/file-access.server";
import { founderOrParticipant } from "~/features/due-diligence/access.server";
import { exportDueDiligence } from "~/features/due-diligence/export.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload } from "~/lib/private-download.server";
import type { Route } from "./+types/due-diligence-export";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { user, profile } = await requireMember(request);
  const format = new URL(request.url).searchParams.get("format");
  try {
    if ((await founderOrParticipant(user.id, params.fileId)) === "participant") fileNotFound();
    if (format !== "xlsx" && format !== "pdf") {
      return new Response("Format d’export inconnu (xlsx ou pdf).", { status: 400, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
    }
    const file = await exportDueDiligence(fileActor(profile), params.fileId, format);
    return privateDownload({ bytes: file.bytes }, { contentType: file.contentType, disposition: file.disposition });
  } catch (error) {
    return expectedFailureResponse(error, "Dossier introuvable");
  }
});

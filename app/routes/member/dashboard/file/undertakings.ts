// GET /dashboard/dossiers/:fileId/engagements: the file's confidentiality undertakings as a PDF
// sealed by the platform. Two members only.
import { requireMember } from "~/auth/session.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { undertakingsPdf } from "~/features/collaboration/undertakings-pdf.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload } from "~/lib/private-download.server";
import type { Route } from "./+types/undertakings";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  try {
    const pdf = await undertakingsPdf(fileActor(profile), params.fileId);
    return privateDownload({ bytes: pdf.bytes }, { contentType: "application/pdf", disposition: pdf.disposition, sha256: pdf.sha256 });
  } catch (error) {
    return expectedFailureResponse(error, "Dossier introuvable");
  }
});

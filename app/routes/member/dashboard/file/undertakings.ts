// GET /dashboard/dossiers/:fileId/engagements: the file's confidentiality undertakings as a PDF
// sealed by the platform. Two members only.
import { requireMember } from "~/auth/session.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { undertakingsPdf } from "~/features/collaboration/undertakings-pdf.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import type { Route } from "./+types/undertakings";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  try {
    const pdf = await undertakingsPdf(fileActor(profile), params.fileId);
    return new Response(new Uint8Array(pdf.bytes), {
      headers: {
        "content-type": "application/pdf",
        "content-length": String(pdf.bytes.byteLength),
        "content-disposition": pdf.disposition,
        "cache-control": "private, no-store",
        "x-content-sha256": pdf.sha256,
      },
    });
  } catch (error) {
    return expectedFailureResponse(error, "Dossier introuvable");
  }
});

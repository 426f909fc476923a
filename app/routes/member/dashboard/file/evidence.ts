// GET /dashboard/dossiers/:fileId/historique: the evidence export of a collaboration file, a
// dated PDF of its whole timeline. Its SHA-256 is sent in X-Content-SHA256 (and Repr-Digest,
// RFC 9530) and recorded in the file's timeline, where the member reads it. Two members only.
import { requireMember } from "~/auth/session.server";
import { exportEvidence } from "~/features/collaboration/evidence.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload } from "~/lib/private-download.server";
import type { Route } from "./+types/evidence";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  try {
    const pdf = await exportEvidence(fileActor(profile), params.fileId);
    return privateDownload(
      { bytes: pdf.bytes },
      {
        contentType: "application/pdf",
        disposition: pdf.disposition,
        sha256: pdf.sha256,
        headers: { "repr-digest": `sha-256=:${Buffer.from(pdf.sha256, "hex").toString("base64")}:` },
      },
    );
  } catch (error) {
    return expectedFailureResponse(error, "Dossier introuvable");
  }
});

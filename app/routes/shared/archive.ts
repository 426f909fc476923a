// GET /dossiers-partages/:fileId/archive: a concluded file's closing archive as a participant's
// folders and rights allow: a ZIP with its manifest and sealed manifest.
import { Readable } from "node:stream";
import { requireUser } from "~/auth/session.server";
import { openParticipantArchive } from "~/features/due-diligence/participant-archive.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload } from "~/lib/private-download.server";
import type { Route } from "./+types/archive";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  try {
    const archive = await openParticipantArchive(user.id, params.fileId);
    return privateDownload(
      { stream: Readable.toWeb(archive.stream) as ReadableStream<Uint8Array> },
      { contentType: "application/zip", disposition: archive.disposition, headers: { "x-manifest-sha256": archive.manifestSha256 } },
    );
  } catch (error) {
    return expectedFailureResponse(error, "Dossier introuvable");
  }
});

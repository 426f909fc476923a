// GET /dashboard/dossiers/:fileId/archive: the closing archive of a concluded file, a ZIP streamed
// with its manifest of SHA-256 hashes and the sealed manifest PDF, the due-diligence
// list and its questions included. Two members only.
import { Readable } from "node:stream";
import { requireMember } from "~/auth/session.server";
import { openClosingArchive } from "~/features/collaboration/closing-archive.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { dueDiligenceArchiveSection } from "~/features/due-diligence/archive.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import type { Route } from "./+types/archive";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  try {
    const archive = await openClosingArchive(fileActor(profile), params.fileId, [dueDiligenceArchiveSection]);
    return new Response(Readable.toWeb(archive.stream) as ReadableStream<Uint8Array>, {
      headers: {
        "content-type": "application/zip",
        "content-disposition": archive.disposition,
        "cache-control": "private, no-store",
        "x-manifest-sha256": archive.manifestSha256,
      },
    });
  } catch (error) {
    return expectedFailureResponse(error, "Dossier introuvable");
  }
});

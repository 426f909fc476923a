// GET /dossiers-partages/:fileId/archive: a concluded file's closing archive as a participant's
// folders and rights allow: a ZIP with its manifest and sealed manifest.
import { Readable } from "node:stream";
import { requireUser } from "~/auth/session.server";
import { openParticipantArchive } from "~/features/due-diligence/participant-archive.server";
import { expectedMessage, expectedStatus, retryAfterOf } from "~/features/messages/errors";
import type { Route } from "./+types/archive";

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  try {
    const archive = await openParticipantArchive(user.id, params.fileId);
    return new Response(Readable.toWeb(archive.stream) as ReadableStream<Uint8Array>, {
      headers: {
        "content-type": "application/zip",
        "content-disposition": archive.disposition,
        "cache-control": "private, no-store",
        "x-manifest-sha256": archive.manifestSha256,
      },
    });
  } catch (error) {
    const status = expectedStatus(error);
    if (status === null) throw error;
    const headers = new Headers({ "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
    const retryAfter = retryAfterOf(error);
    if (retryAfter) headers.set("retry-after", retryAfter);
    return new Response(expectedMessage(error, "Dossier introuvable"), { status, headers });
  }
}

// GET /dashboard/dossiers/:fileId/archive: the closing archive of a concluded file, a ZIP streamed
// with its manifest of SHA-256 hashes and the sealed manifest PDF, the due-diligence
// list and its questions included. Two members only.
import { Readable } from "node:stream";
import { requireMember } from "~/auth/session.server";
import { openClosingArchive } from "~/features/collaboration/closing-archive.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { dueDiligenceArchiveSection } from "~/features/due-diligence/archive.server";
import { expectedMessage, expectedStatus, retryAfterOf } from "~/features/messages/errors";
import type { Route } from "./+types/archive";

export async function loader({ request, params }: Route.LoaderArgs) {
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
    const status = expectedStatus(error);
    if (status === null) throw error;
    const headers = new Headers({ "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
    const retryAfter = retryAfterOf(error);
    if (retryAfter) headers.set("retry-after", retryAfter);
    return new Response(expectedMessage(error, "Dossier introuvable"), { status, headers });
  }
}

// GET /dashboard/dossiers/:fileId/archive: the closing archive of a concluded file, a ZIP streamed
// with its manifest of SHA-256 hashes and the sealed manifest PDF, the due-diligence
// list and its questions included. The two founders; a participant is sent to their own archive,
// which holds what their folders and rights let them see.
import { Readable } from "node:stream";
import { redirect } from "react-router";
import { requireMember } from "~/auth/session.server";
import { sharedFileUrl } from "~/features/collaboration/participant-rules";
import { founderOrParticipant } from "~/features/due-diligence/access.server";
import { openClosingArchive } from "~/features/collaboration/closing-archive.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { dueDiligenceArchiveSection } from "~/features/due-diligence/archive.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload } from "~/lib/private-download.server";
import type { Route } from "./+types/archive";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { user, profile } = await requireMember(request);
  const who = await founderOrParticipant(user.id, params.fileId).catch((error: unknown) => expectedFailureResponse(error, "Dossier introuvable"));
  if (who instanceof Response) return who;
  if (who === "participant") throw redirect(`${sharedFileUrl(params.fileId)}/archive`);
  try {
    const archive = await openClosingArchive(fileActor(profile), params.fileId, [dueDiligenceArchiveSection]);
    return privateDownload(
      { stream: Readable.toWeb(archive.stream) as ReadableStream<Uint8Array> },
      { contentType: "application/zip", disposition: archive.disposition, headers: { "x-manifest-sha256": archive.manifestSha256 } },
    );
  } catch (error) {
    return expectedFailureResponse(error, "Dossier introuvable");
  }
});

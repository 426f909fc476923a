// GET /dossiers-partages/:fileId/documents/:documentId?mode=view|download: one document for a
// participant of the file, as their side and rights allow (404 or 403 otherwise); PDFs watermarked
// with the participant's name, every opening logged.
import { requireUser } from "~/auth/session.server";
import { DOCUMENT_MESSAGES } from "~/features/collaboration/documents-rules";
import { openParticipantDocument } from "~/features/collaboration/participant-documents.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload, privateFileResponse } from "~/lib/private-download.server";
import type { Route } from "./+types/document";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  const mode = new URL(request.url).searchParams.get("mode") === "view" ? "view" : "download";
  try {
    const doc = await openParticipantDocument(user.id, params.fileId, params.documentId, mode);
    if (doc.kind === "stored") return privateFileResponse({ object: doc.object, contentType: doc.contentType, disposition: doc.disposition });
    return privateDownload({ bytes: doc.bytes }, { contentType: doc.contentType, disposition: doc.disposition });
  } catch (error) {
    return expectedFailureResponse(error, DOCUMENT_MESSAGES.notFound);
  }
});

// GET /dossiers-partages/:fileId/documents/:documentId?mode=view|download: one document for a
// participant of the file, as their side and rights allow (404 or 403 otherwise); PDFs watermarked
// with the participant's name, every opening logged.
import { requireUser } from "~/auth/session.server";
import { DOCUMENT_MESSAGES } from "~/features/collaboration/documents-rules";
import { openParticipantDocument } from "~/features/collaboration/participant-documents.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateFileResponse } from "~/features/messages/file-response.server";
import type { Route } from "./+types/document";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  const mode = new URL(request.url).searchParams.get("mode") === "view" ? "view" : "download";
  try {
    const doc = await openParticipantDocument(user.id, params.fileId, params.documentId, mode);
    if (doc.kind === "stored") return privateFileResponse({ object: doc.object, contentType: doc.contentType, disposition: doc.disposition });
    return new Response(new Uint8Array(doc.bytes), {
      headers: {
        "content-type": doc.contentType,
        "content-length": String(doc.bytes.byteLength),
        "content-disposition": doc.disposition,
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    return expectedFailureResponse(error, DOCUMENT_MESSAGES.notFound);
  }
});

// GET /dashboard/dossiers/:fileId/documents/:documentId?mode=view|download: one document of a
// collaboration file, for its two members only (404 for anyone else, admins included). PDFs are
// watermarked with the viewer's name and may be shown inline; images and office files are always
// downloaded, streamed from storage. Never cached: each opening is logged. X-Content-Type-Options: nosniff is set on
// every response by server.ts (repeating it here would send it twice, as the adapter appends).
import { requireMember } from "~/auth/session.server";
import { DOCUMENT_MESSAGES } from "~/features/collaboration/documents-rules";
import { openDocument } from "~/features/collaboration/document-opening.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload, privateFileResponse } from "~/lib/private-download.server";
import type { Route } from "./+types/document";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  const mode = new URL(request.url).searchParams.get("mode") === "view" ? "view" : "download";
  try {
    const doc = await openDocument(fileActor(profile), params.fileId, params.documentId, mode);
    if (doc.kind === "stored") return privateFileResponse({ object: doc.object, contentType: doc.contentType, disposition: doc.disposition });
    return privateDownload({ bytes: doc.bytes }, { contentType: doc.contentType, disposition: doc.disposition });
  } catch (error) {
    return expectedFailureResponse(error, DOCUMENT_MESSAGES.notFound);
  }
});

// GET /dashboard/dossiers/:fileId/engagements: the file's confidentiality undertakings as a PDF
// sealed by the platform. Two members only.
import { requireMember } from "~/auth/session.server";
import { fileActor } from "~/features/collaboration/file-access.server";
import { undertakingsPdf } from "~/features/collaboration/undertakings-pdf.server";
import { expectedMessage, expectedStatus, retryAfterOf } from "~/features/messages/errors";
import type { Route } from "./+types/undertakings";

export async function loader({ request, params }: Route.LoaderArgs) {
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
    const status = expectedStatus(error);
    if (status === null) throw error;
    const headers = new Headers({ "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
    const retryAfter = retryAfterOf(error);
    if (retryAfter) headers.set("retry-after", retryAfter);
    return new Response(expectedMessage(error, "Dossier introuvable"), { status, headers });
  }
}

// GET /dashboard/dossiers/:fileId/convention/:agreementId?exemplaire=original|signe: the PDF of a
// version of the fee-sharing agreement, byte for byte as stored (no watermark: its SHA-256 is the
// one shown on the page and in the certificate), for the file's two members only (404 otherwise).
import { requireMember } from "~/auth/session.server";
import { AGREEMENT_MESSAGES } from "~/features/collaboration/agreement-rules";
import { openAgreementPdf } from "~/features/collaboration/agreement-seal.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload } from "~/lib/private-download.server";
import type { Route } from "./+types/agreement-pdf";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const { profile } = await requireMember(request);
  const copy = new URL(request.url).searchParams.get("exemplaire") === "signe" ? "signed" : "original";
  try {
    const pdf = await openAgreementPdf({ profileId: profile.id }, params.fileId, params.agreementId, copy);
    return privateDownload({ object: pdf.object }, { contentType: "application/pdf", disposition: pdf.disposition, sha256: pdf.sha256 });
  } catch (error) {
    return expectedFailureResponse(error, AGREEMENT_MESSAGES.notFound);
  }
});

// GET /parametres/facturation/:invoiceId: one of the member's invoices or credit notes as PDF,
// rendered from the stored copy; another member's (or an unknown) id is a 404.
import { getRequestProfile, requireUser } from "~/auth/session.server";
import { BILLING_MESSAGES } from "~/features/billing/billing.schema";
import { renderInvoicePdf } from "~/features/billing/billing.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import { privateDownload } from "~/lib/private-download.server";
import type { Route } from "./+types/invoice-pdf";

const plain = (message: string, status: number) =>
  new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" } });

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const profile = await getRequestProfile(user.id);
  if (!profile) return plain(BILLING_MESSAGES.notFound, 404);
  try {
    const pdf = await renderInvoicePdf({ profileId: profile.id }, params.invoiceId);
    return privateDownload(
      { bytes: pdf.bytes },
      { contentType: "application/pdf", disposition: `attachment; filename="${pdf.fileName}"`, headers: { "x-content-type-options": "nosniff" } },
    );
  } catch (error) {
    return expectedFailureResponse(error, BILLING_MESSAGES.notFound);
  }
});

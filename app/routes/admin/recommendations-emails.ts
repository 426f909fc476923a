// The sponsors' e-mails of the filtered recommendations, for 'Exporter les emails' (fetched by
// the page, which copies them to the clipboard). Audited.
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { parseRecommendationListQuery } from "~/features/admin/admin.schema";
import { exportSponsorEmails } from "~/features/admin/recommendations-admin.server";
import type { Route } from "./+types/recommendations-emails";
import { atEdge } from "~/lib/errors/http";

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminAccess(request);
  const { q } = parseRecommendationListQuery(new URL(request.url).searchParams);
  const emails = await exportSponsorEmails(actor, q);
  return Response.json({ emails }, { headers: { "Cache-Control": "no-store" } });
});

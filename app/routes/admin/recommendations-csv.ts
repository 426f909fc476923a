// CSV download of the filtered recommendations (resource route). UTF-8 with a BOM so that
// Excel reads the accents; formulas are neutralised (app/lib/csv.ts). Audited.
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { parseRecommendationListQuery } from "~/features/admin/admin.schema";
import { exportRecommendationsCsv } from "~/features/admin/recommendations-admin.server";
import { csvFileName } from "~/lib/csv";
import type { Route } from "./+types/recommendations-csv";
import { atEdge } from "~/lib/errors/http";

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminAccess(request);
  const { q } = parseRecommendationListQuery(new URL(request.url).searchParams);
  const { csv } = await exportRecommendationsCsv(actor, q);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName("recommandations")}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});

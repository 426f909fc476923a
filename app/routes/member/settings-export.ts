// "Exporter mes données": the member's data as a JSON file download (GDPR access/portability).
import { requireUser } from "~/auth/session.server";
import { recordAccountEvent } from "~/features/account/account.server";
import { buildDataExport, exportFileName } from "./settings-export.server";
import { consumeRateLimit } from "~/lib/rate-limit.server";
import type { Route } from "./+types/settings-export";
import { atEdge } from "~/lib/errors/http";

const EXPORT_LIMIT = { limit: 10, windowSeconds: 60 * 60 };

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const limit = await consumeRateLimit(`export:account:${user.id}`, EXPORT_LIMIT);
  if (!limit.allowed) {
    // A resource route: a plain answer, not an error page.
    return new Response("Trop d’exports demandés. Veuillez réessayer dans une heure.", {
      status: 429,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(limit.retryAfter) },
    });
  }
  const payload = await buildDataExport(user);
  await recordAccountEvent(user, "account.data_exported", {});
  return new Response(JSON.stringify(payload, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName()}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});

// The signed-in user's notification state as JSON: the polling fallback of the live bell (when
// the event stream cannot be kept open). 401 when signed out, never a redirect.
import { getSessionUser } from "~/auth/session.server";
import { getNotificationState } from "~/features/notifications/notifications.server";
import type { Route } from "./+types/notifications";
import { atEdge } from "~/lib/errors/http";

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) return Response.json({ message: "Authentification requise" }, { status: 401, headers: { "cache-control": "no-store" } });
  return Response.json(await getNotificationState(user.id, { fresh: true }), { headers: { "cache-control": "no-store" } });
});

// The live notification stream of one tab (Server-Sent Events, app/features/notifications/
// live.server.ts). 401 when signed out: the browser's EventSource then stops for good.
import { getSessionUser } from "~/auth/session.server";
import { getStreamSession, notificationStreamResponse } from "~/features/notifications/live.server";
import type { Route } from "./+types/notifications-stream";
import { atEdge } from "~/lib/errors/http";

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const session = user ? await getStreamSession(request) : null;
  if (!user || !session || session.userId !== user.id) {
    return new Response("Authentification requise", { status: 401, headers: { "cache-control": "no-store" } });
  }
  return notificationStreamResponse(request, session);
});

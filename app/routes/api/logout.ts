import { redirect } from "react-router";
import { getAuth } from "~/auth/auth.server";
import { announceSignOut } from "~/features/notifications/live.server";
import type { Route } from "./+types/logout";
import { atEdge } from "~/lib/errors/http";

export const loader = atEdge(async function loader() {
  return redirect("/");
});

export const action = atEdge(async function action({ request }: Route.ActionArgs) {
  const headers = new Headers();
  // The session's live notification streams end with it, on every instance.
  await announceSignOut(request);
  try {
    const result = await getAuth().api.signOut({ headers: request.headers, returnHeaders: true });
    for (const cookie of result.headers.getSetCookie()) headers.append("set-cookie", cookie);
  } catch {
    // No session: nothing to end.
  }
  return redirect("/", { headers });
});

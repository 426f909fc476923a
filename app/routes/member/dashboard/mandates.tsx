// The dashboard's 'Mandats' tab and /mandates are one place: the tab's
// URL stays valid and leads to /mandates, with its query (a dialog, a filter) kept.
import { redirect } from "react-router";
import { requireMember } from "~/auth/session.server";
import type { Route } from "./+types/mandates";

export async function loader({ request }: Route.LoaderArgs) {
  await requireMember(request);
  throw redirect(`/mandates${new URL(request.url).search}`);
}

export default function MandatesTab() {
  return null;
}

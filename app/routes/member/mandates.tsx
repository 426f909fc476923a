import { UpcomingPage } from "~/components/page";
import { requireMember } from "~/auth/session.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/mandates";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Gestion des Mandats");

export async function loader({ request }: Route.LoaderArgs) {
  await requireMember(request);
  return null;
}

export default function Page() {
  return <UpcomingPage title="Gestion des Mandats" />;
}

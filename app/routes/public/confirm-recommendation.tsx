import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/confirm-recommendation";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Confirmation de recommandation");

export default function Page() {
  return <UpcomingPage title="Confirmation de recommandation" />;
}

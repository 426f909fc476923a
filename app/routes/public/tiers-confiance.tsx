import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/tiers-confiance";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Tiers de confiance");

export default function Page() {
  return <UpcomingPage title="Tiers de confiance" />;
}

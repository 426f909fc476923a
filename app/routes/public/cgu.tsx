import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/cgu";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Conditions générales d'utilisation");

export default function Page() {
  return <UpcomingPage title="Conditions générales d'utilisation" />;
}

import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/support";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Support");

export default function Page() {
  return <UpcomingPage title="Support" />;
}

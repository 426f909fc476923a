import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/concept";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Le concept");

export default function Page() {
  return <UpcomingPage title="Le concept" />;
}

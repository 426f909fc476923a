import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/join-founder";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Devenir membre fondateur");

export default function Page() {
  return <UpcomingPage title="Devenir membre fondateur" />;
}

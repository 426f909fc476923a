import { UpcomingPage } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Contact");

export default function Page() {
  return <UpcomingPage title="Contact" />;
}

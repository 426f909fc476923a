import { UpcomingPage } from "~/components/page";
import { requireUser } from "~/auth/session.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Paramètres du compte");

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export default function Page() {
  return <UpcomingPage title="Paramètres du compte" />;
}

import { redirect } from "react-router";
import { UpcomingPage } from "~/components/page";
import { getProfileByUserId, requireUser } from "~/auth/session.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/onboarding";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Adhésion");

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const profile = await getProfileByUserId(user.id);
  if (profile?.profileStatus === "validated") throw redirect("/dashboard");
  return { email: user.email };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <UpcomingPage title="Votre adhésion">
      <p>
        Vous êtes connecté avec l'adresse <strong>{loaderData.email}</strong>. Le parcours d'adhésion (profil, charte,
        recommandations, paiement) s'affichera ici.
      </p>
    </UpcomingPage>
  );
}

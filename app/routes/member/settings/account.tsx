// /parametres: the account itself — its address, the public profile, and whether the ratings
// received show on it.
import { Email } from "~/components/email";
import { Link } from "react-router";
import { getRequestProfile, requireUser } from "~/auth/session.server";
import { type SettingsActionData, SettingsSection } from "~/features/account/components/settings-form";
import { RatingsConsentSection } from "~/features/trust/components/ratings-consent-section";
import { atEdge } from "~/lib/errors/http";
import type { Route } from "./+types/account";
import { settingsAction } from "./action.server";

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  const profile = await getRequestProfile(user.id);
  return {
    email: user.email,
    validated: profile?.profileStatus === "validated",
    ratingsConsent: profile ? profile.showRatingsPublicly : null,
  };
});

export const action = settingsAction;

export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <SettingsSection id="compte" title="Profil du compte" description="L’adresse avec laquelle vous vous connectez et recevez les e-mails du réseau.">
        <dl className="grid gap-1 text-sm">
          <dt className="text-muted-foreground">Adresse e-mail</dt>
          <dd className="font-medium">
            <Email address={loaderData.email} />
          </dd>
        </dl>
        {loaderData.validated ? (
          <p className="text-sm">
            Votre présentation, vos spécialités et vos références se modifient depuis{" "}
            <Link to="/dashboard/profil" className="font-medium text-primary underline underline-offset-2">
              votre profil professionnel
            </Link>
            .
          </p>
        ) : null}
      </SettingsSection>
      <RatingsConsentSection consent={loaderData.ratingsConsent} actionData={actionData as SettingsActionData | undefined} />
    </div>
  );
}

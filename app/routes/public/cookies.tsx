import { Link, useRouteLoaderData } from "react-router";
import { LegalPageHeader, LegalSection, textLinkClass } from "~/components/public-sections";
import { PageContainer } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/cookies";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Politique de cookies",
    "Les cookies utilisés par le site\u00a0: uniquement des cookies strictement nécessaires (session de connexion, message de confirmation), leurs finalités et leurs durées.",
  );

const COOKIE_KINDS: { name: string; description: string }[] = [
  {
    name: "Cookies de session",
    description: "Ils sont supprimés automatiquement à la fermeture du navigateur.",
  },
  {
    name: "Cookies persistants",
    description: "Ils restent sur votre terminal jusqu’à leur date d’expiration, qui ne peut dépasser 13 mois.",
  },
  {
    name: "Cookies de mesure d’audience",
    description:
      "Ils permettent de produire des statistiques de fréquentation\u00a0; leur durée de conservation ne peut dépasser 25 mois.",
  },
];

const SITE_COOKIES: { name: string; purpose: string; duration: string }[] = [
  {
    name: "Cookie de session de connexion",
    purpose:
      "Maintenir votre connexion à l’espace membre de manière sécurisée et protéger votre compte contre les usages frauduleux.",
    duration: "14 jours au maximum\u00a0; supprimé dès que vous vous déconnectez.",
  },
  {
    name: "Cookie de message de confirmation",
    purpose:
      "Afficher, sur la page suivante, le message confirmant une action (par exemple l’envoi d’un message ou l’enregistrement de votre profil).",
    duration: "Cookie de session\u00a0: effacé dès que le message est affiché, et au plus tard à la fermeture du navigateur.",
  },
];

export default function Cookies() {
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  const appName = root?.appName ?? "Réseau Transmission";

  return (
    <PageContainer className="max-w-3xl">
      <LegalPageHeader title="Politique de cookies" />

      <div className="mt-10 space-y-10 text-foreground">
        <LegalSection id="cookies-what" title={<>Qu’est-ce qu’un cookie&nbsp;?</>}>
          <p>
            Un cookie est un petit fichier texte déposé sur votre ordinateur, votre tablette ou votre téléphone lors de
            la consultation d’un site. Il permet au site de reconnaître votre navigateur pendant une durée limitée.
          </p>
        </LegalSection>

        <LegalSection id="cookies-kinds" title="Types de cookies et durées maximales">
          <ul className="list-disc space-y-2 pl-6">
            {COOKIE_KINDS.map((kind) => (
              <li key={kind.name}>
                <strong>{kind.name}</strong>&nbsp;: {kind.description}
              </li>
            ))}
          </ul>
        </LegalSection>

        <LegalSection id="cookies-site" title={<>Les cookies utilisés par {appName}</>}>
          <p>
            Le site n’utilise que des cookies strictement nécessaires à son fonctionnement. Il ne dépose aucun cookie
            publicitaire, de mesure d’audience ou de réseau social, et aucun cookie tiers.
          </p>
          <ul className="space-y-4">
            {SITE_COOKIES.map((cookie) => (
              <li key={cookie.name} className="rounded-lg border p-4">
                <h3 className="font-semibold">{cookie.name}</h3>
                <dl className="mt-2 space-y-2 text-sm">
                  <div>
                    <dt className="font-medium">Finalité</dt>
                    <dd className="text-muted-foreground">{cookie.purpose}</dd>
                  </div>
                  <div>
                    <dt className="font-medium">Durée</dt>
                    <dd className="text-muted-foreground">{cookie.duration}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        </LegalSection>

        <LegalSection id="cookies-consent" title="Consentement">
          <p>
            Conformément à l’article 82 de la loi «&nbsp;Informatique et Libertés&nbsp;» et aux recommandations de la CNIL, les
            cookies strictement nécessaires sont dispensés de consentement. C’est pourquoi aucun bandeau ne vous est
            présenté. Si le site venait à utiliser d’autres cookies, votre accord serait recueilli au préalable et
            cette page serait mise à jour.
          </p>
        </LegalSection>

        <LegalSection id="cookies-settings" title="Paramétrer votre navigateur">
          <p>
            Vous pouvez à tout moment supprimer les cookies ou les bloquer depuis les réglages de votre navigateur. Le
            blocage des cookies strictement nécessaires empêche toutefois la connexion à l’espace membre.
          </p>
          <p>
            Pour en savoir plus sur le traitement de vos données, consultez notre{" "}
            <Link to="/politique-confidentialite" className={textLinkClass}>
              politique de confidentialité
            </Link>
            .
          </p>
        </LegalSection>
      </div>
    </PageContainer>
  );
}

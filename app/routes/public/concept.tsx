import {
  FolderLock,
  Handshake,
  HandCoins,
  Network,
  Search,
  ShieldCheck,
  Upload,
  Users,
} from "lucide-react";
import { CallToAction, CheckList, IconCardGrid, type IconItem, PageSection, PresentationHeader, SupportFigures } from "~/components/public-sections";
import { useRouteLoaderData } from "react-router";
import { PageContainer } from "~/components/page";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { pageMeta } from "~/lib/meta";
import { FOUNDING_TERMS, OFFER_SETTINGS } from "~/features/membership/offers";
import type { Route } from "./+types/concept";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Le concept",
    "Un réseau collaboratif où les professionnels de la transmission partagent leurs mandats exclusifs, rapprochent acquéreurs et cédants et partagent la commission.",
  );

const PILLARS: IconItem[] = [
  {
    icon: ShieldCheck,
    title: "Un cercle de confiance",
    text: "L’accès est réservé aux professionnels vérifiés, cooptés par deux confrères et signataires de la charte d’engagement. Vous savez toujours avec qui vous travaillez.",
  },
  {
    icon: Network,
    title: "Des mandats partagés",
    text: "Les mandats exclusifs d’acquéreurs et de cédants sont mis en commun\u00a0: chaque dossier bénéficie de tout le réseau, et non plus du seul carnet d’adresses de son conseil.",
  },
  {
    icon: FolderLock,
    title: "Une confidentialité absolue",
    text: "Vos clients n’apparaissent que sous un code. Leur nom et leurs coordonnées ne sont transmis qu’une fois la mise en relation acceptée par les deux professionnels.",
  },
];

const STEPS: IconItem[] = [
  {
    icon: Upload,
    title: "Déposez un mandat",
    text: "Enregistrez votre mandat exclusif, acquéreur ou cédant\u00a0: secteurs, territoires, fourchettes de valorisation et d’apport. Votre client reste identifié par un simple code.",
  },
  {
    icon: Search,
    title: "Accédez aux mandats du réseau",
    text: "Le moteur de rapprochement calcule un score de compatibilité et vous présente les mandats de vos confrères qui correspondent à votre dossier.",
  },
  {
    icon: Handshake,
    title: "Collaborez et cédez",
    text: "Proposez une mise en relation. Dès que les deux professionnels l’acceptent, un dossier partagé s’ouvre\u00a0: messages, documents filigranés et étapes suivies ensemble jusqu’à la signature.",
  },
  {
    icon: HandCoins,
    title: "Partagez la commission",
    text: "Les honoraires de l’opération sont répartis entre les deux conseils selon une convention de partage qu’ils signent dans leur dossier, conservée avec l’historique de la collaboration.",
  },
];

const BENEFITS = [
  "Élargir instantanément votre vivier d’acquéreurs et de cibles au-delà de votre zone géographique",
  "Valoriser les mandats qui ne trouvent pas preneur dans votre seul portefeuille",
  "Réduire le temps consacré à la prospection grâce aux propositions du moteur de rapprochement",
  "Gagner en visibilité auprès des chefs d’entreprise grâce à l’annuaire public des professionnels agréés",
  "Faire certifier vos transactions et affirmer votre expertise sectorielle",
  "Échanger avec des confrères de confiance, avocats, notaires, experts-comptables et conseils en fusions-acquisitions",
];

export default function Concept() {
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  const appName = root?.appName ?? "Réseau Transmission";

  return (
    <PageContainer className="space-y-16">
      <PresentationHeader kicker="Le concept" title="Un réseau collaboratif au service de la transmission">
        Chaque année, de nombreuses entreprises saines ne trouvent pas de repreneur faute d’avoir rencontré la bonne
        contrepartie. {appName} permet aux professionnels de la transmission de mettre leurs mandats en commun pour
        que chaque cédant rencontre son acquéreur, quel que soit le conseil qui l’accompagne.
      </PresentationHeader>

      <section aria-labelledby="collaborative-title" className="grid gap-8 md:grid-cols-2 md:items-center">
        <div>
          <h2 id="collaborative-title" className="text-2xl font-bold tracking-tight break-words text-foreground">
            Collaborer plutôt que se concurrencer
          </h2>
          <p className="mt-4 text-muted-foreground">
            Un conseil seul ne connaît qu’une partie du marché. En partageant ses mandats avec des confrères de
            confiance, il multiplie les chances de conclure, sans jamais céder la relation avec son client.
          </p>
          <p className="mt-4 text-muted-foreground">
            Le réseau réunit deux collèges, la transmission d’entreprises et la transmission de commerces, afin que
            chaque dossier soit traité par les professionnels les plus compétents.
          </p>
        </div>
        <Card>
          <CardContent className="flex items-start gap-4 pt-6">
            <Users className="h-10 w-10 shrink-0 text-primary" aria-hidden="true" />
            <p className="text-foreground">
              «&nbsp;Le mandat reste le vôtre. Le réseau vous apporte la contrepartie, vous conservez votre client et vous
              partagez la réussite.&nbsp;»
            </p>
          </CardContent>
        </Card>
      </section>

      <PageSection id="pillars-title" title="Les trois piliers du réseau">
        <IconCardGrid items={PILLARS} className="mt-8 grid gap-6 md:grid-cols-3" />
      </PageSection>

      <PageSection id="process-title" title="Comment ça marche, en quatre étapes">
        <ol className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step.title}>
              <Card className="h-full">
                <CardHeader>
                  <div className="flex items-center gap-3">
                    <span
                      className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground"
                      aria-hidden="true"
                    >
                      {index + 1}
                    </span>
                    <step.icon className="h-6 w-6 text-primary" aria-hidden="true" />
                  </div>
                  <h3 className="mt-2 text-lg font-semibold break-words">
                    <span className="sr-only">Étape {index + 1}&nbsp;: </span>
                    {step.title}
                  </h3>
                </CardHeader>
                <CardContent>
                  <p className="text-sm text-muted-foreground">{step.text}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>
      </PageSection>

      <PageSection id="benefits-title" title="Ce que le réseau apporte à votre cabinet">
        <CheckList items={BENEFITS} className="mt-8 grid gap-4 md:grid-cols-2" />
      </PageSection>

      <PageSection id="stats-title" title="La transmission accompagnée en chiffres">
        <SupportFigures className="mt-8 grid grid-cols-2 gap-4 md:gap-6 lg:grid-cols-4" />
      </PageSection>

      <CallToAction title={<>Prêt à partager vos mandats avec des confrères de confiance&nbsp;?</>} links={[{ to: "/tiers-confiance", label: "Découvrir nos garanties" }]}>
        Les {OFFER_SETTINGS.foundingPlaces} premiers membres bénéficient du tarif fondateur de {FOUNDING_TERMS.price} ({FOUNDING_TERMS.guaranteeShort}) et
        d’une mise en avant dans l’annuaire.
      </CallToAction>
    </PageContainer>
  );
}

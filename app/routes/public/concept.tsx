import {
  ArrowRight,
  CircleCheck,
  FolderLock,
  Handshake,
  HandCoins,
  Network,
  Search,
  ShieldCheck,
  Upload,
  Users,
  type LucideIcon,
} from "lucide-react";
import { IconCard, PageSection } from "~/components/public-sections";
import { Link, useRouteLoaderData } from "react-router";
import { PageContainer, PageTitle } from "~/components/page";
import { Button } from "~/components/ui/button";
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

type Item = { icon: LucideIcon; title: string; text: string };

const PILLARS: Item[] = [
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

const STEPS: Item[] = [
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

// Marketing figures of the specification (§1), displayed as they are stated.
const STATS = [
  { value: "85\u00a0%", label: "de taux de réussite des opérations accompagnées" },
  { value: "95\u00a0%", label: "de réussite avec un intermédiaire professionnel, contre 35\u00a0% en vente directe" },
  { value: "×3", label: "de chances de réussite avec un conseil professionnel" },
  { value: "−40\u00a0%", label: "sur le délai de cession" },
  { value: "95\u00a0%", label: "de clients satisfaits" },
  { value: "−50\u00a0%", label: "de temps consacré à la prospection" },
  { value: "+300\u00a0%", label: "de croissance" },
];

export default function Concept() {
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  const appName = root?.appName ?? "Réseau Transmission";

  return (
    <PageContainer className="space-y-16">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold uppercase tracking-wide text-accent">Le concept</p>
        <PageTitle className="mt-2 break-words">Un réseau collaboratif au service de la transmission</PageTitle>
        <p className="mt-4 text-lg text-muted-foreground">
          Chaque année, de nombreuses entreprises saines ne trouvent pas de repreneur faute d’avoir rencontré la bonne
          contrepartie. {appName} permet aux professionnels de la transmission de mettre leurs mandats en commun pour
          que chaque cédant rencontre son acquéreur, quel que soit le conseil qui l’accompagne.
        </p>
      </header>

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
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {PILLARS.map((pillar) => (
            <li key={pillar.title}>
              <IconCard icon={pillar.icon} title={pillar.title} text={pillar.text} />
            </li>
          ))}
        </ul>
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
        <ul className="mt-8 grid gap-4 md:grid-cols-2">
          {BENEFITS.map((benefit) => (
            <li key={benefit} className="flex gap-3 text-foreground">
              <CircleCheck className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden="true" />
              <span>{benefit}</span>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection id="stats-title" title="La transmission accompagnée en chiffres">
        <ul className="mt-8 grid grid-cols-2 gap-4 md:gap-6 lg:grid-cols-4">
          {STATS.map((stat) => (
            <li key={stat.value + stat.label}>
              <Card className="h-full">
                <CardContent className="p-4 md:p-6">
                  <p className="text-2xl font-bold break-words text-primary md:text-3xl">{stat.value}</p>
                  <p className="mt-2 text-sm break-words hyphens-auto text-muted-foreground">{stat.label}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-xs text-muted-foreground">
          Indicateurs donnés à titre informatif&nbsp;; ils ne constituent pas une garantie de résultat.
        </p>
      </PageSection>

      <section aria-labelledby="cta-title" className="rounded-lg bg-primary p-8 text-primary-foreground">
        <h2 id="cta-title" className="text-2xl font-bold tracking-tight break-words">
          Prêt à partager vos mandats avec des confrères de confiance&nbsp;?
        </h2>
        <p className="mt-3">
          Les {OFFER_SETTINGS.foundingPlaces} premiers membres bénéficient du tarif fondateur de {FOUNDING_TERMS.price} ({FOUNDING_TERMS.guaranteeShort}) et
          d’une mise en avant dans l’annuaire.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Button asChild size="lg" variant="accent" className="h-auto min-h-11 whitespace-normal py-2 text-center">
            <Link to="/join-founder">
              Rejoindre les membres fondateurs
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline" className="h-auto min-h-11 whitespace-normal py-2 text-center text-foreground">
            <Link to="/tiers-confiance">Découvrir nos garanties</Link>
          </Button>
        </div>
      </section>
    </PageContainer>
  );
}

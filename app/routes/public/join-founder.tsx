import {
  ArrowRight,
  BadgeCheck,
  BarChart3,
  CalendarHeart,
  Crown,
  FileCheck2,
  Infinity as InfinityIcon,
  Megaphone,
  MessagesSquare,
  Rocket,
  ShieldCheck,
  Sparkles,
} from "lucide-react";
import { Link } from "react-router";
import { IconCardGrid, type IconItem } from "~/components/public-sections";
import { PageContainer, PageTitle } from "~/components/page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { getFoundingPlacesLeft } from "~/features/membership/membership.server";
import {
  FOUNDING_PRICE_EUROS,
  FOUNDING_SUMMARY,
  FOUNDING_TERMS,
  foundingSaving,
  OFFER_SETTINGS,
  REGULAR_PRICES,
  ttc,
  ttcPerYear,
  type College,
} from "~/features/membership/offers";
import { placesLeftLabel } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/join-founder";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Devenir membre fondateur",
    `Rejoignez le réseau parmi les ${FOUNDING_PLACES} premiers membres fondateurs\u00a0: ${FOUNDING_SUMMARY}.`,
  );

export const loader = atEdge(async function loader() {
  // Public page: no guard. The figure is computed on the server, or omitted if unavailable.
  return { places: await getFoundingPlacesLeft() };
});

const BENEFITS: IconItem[] = [
  { icon: Crown, title: "Badge de membre fondateur à vie", text: "Votre profil porte pour toujours la mention «\u00a0Founding Member\u00a0», visible de vos confrères et des visiteurs." },
  { icon: Sparkles, title: "Mise en avant automatique dans l’annuaire", text: "Votre profil apparaît en tête des résultats de l’annuaire public et de l’annuaire interne, avec une carte enrichie." },
  { icon: Rocket, title: "Accès en avant-première", text: "Nous vous proposerons les nouvelles fonctionnalités en premier, avant leur ouverture à l’ensemble des membres." },
  { icon: Megaphone, title: "Communication pionnière", text: "Vous êtes présenté comme membre pionnier dans nos communications de lancement." },
  { icon: CalendarHeart, title: "Invitation à l’événement annuel", text: "Chaque année, vous êtes invité à la rencontre des membres du réseau." },
  { icon: InfinityIcon, title: "Mandats illimités", text: "Déposez autant de mandats d’acquéreurs et de cédants que nécessaire, sans quota semestriel." },
  { icon: MessagesSquare, title: "Messagerie interne", text: "Échangez directement et en toute confidentialité avec les autres membres du réseau." },
  { icon: FileCheck2, title: "Transactions certifiées", text: "Vos transactions, vérifiées par notre équipe, sont affichées sur votre profil public." },
  { icon: BarChart3, title: "Statistiques", text: "Suivez l’activité de vos mandats, vos mises en relation et les échéances à venir." },
];

const COLLEGES: { college: College; label: string }[] = [
  { college: "transmission_entreprises", label: "Collège Entreprises" },
  { college: "transmission_commerces", label: "Collège Commerces" },
];

const FOUNDING_PLACES = OFFER_SETTINGS.foundingPlaces;

export default function JoinFounder({ loaderData }: Route.ComponentProps) {
  const { places } = loaderData;
  return (
    <>
      <PageContainer className="py-16">
        <section aria-labelledby="offer-title" className="max-w-3xl">
          <Badge variant="accent">Offre de lancement</Badge>
          <PageTitle id="offer-title" className="mt-3">
            Devenez membre fondateur du réseau
          </PageTitle>
          <p className="mt-6 text-lg text-muted-foreground">
            Les {FOUNDING_PLACES} premiers professionnels admis dans le réseau bénéficient d’un tarif unique de{" "}
            <strong className="text-foreground">{FOUNDING_TERMS.price}</strong>, {FOUNDING_TERMS.guaranteeShort}, et d’avantages réservés à vie.
          </p>
          <p className="mt-2 text-sm text-muted-foreground">
            {FOUNDING_TERMS.payment} {FOUNDING_TERMS.vat[0].toUpperCase() + FOUNDING_TERMS.vat.slice(1)}.
          </p>
          <p className="mt-4 text-base font-semibold text-primary" data-testid="founding-places">
            {places === null
              ? `Offre limitée aux ${FOUNDING_PLACES} premiers membres.`
              : `${placesLeftLabel(places, ["place disponible", "places disponibles"])} sur ${FOUNDING_PLACES}.`}
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button asChild size="lg" variant="accent">
              <Link to="/auth?mode=inscription">
                Devenir membre fondateur
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/auth">Déjà inscrit&nbsp;? Se connecter</Link>
            </Button>
          </div>
        </section>
      </PageContainer>

      <section aria-labelledby="benefits-title" className="bg-muted py-16">
        <PageContainer className="py-0">
          <h2 id="benefits-title" className="text-3xl font-bold tracking-tight break-words">
            Les avantages des membres fondateurs
          </h2>
          <IconCardGrid items={BENEFITS} className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" titleClassName="mt-2 text-lg font-semibold leading-tight break-words" />
        </PageContainer>
      </section>

      <section aria-labelledby="prices-title" className="py-16">
        <PageContainer className="py-0">
          <h2 id="prices-title" className="text-3xl font-bold tracking-tight break-words">
            Comparez les tarifs
          </h2>
          <p className="mt-4 max-w-3xl text-muted-foreground">
            Tarifs annuels TTC appliqués aux nouveaux membres une fois l’offre de lancement close, comparés au tarif membre fondateur.
          </p>
          <div className="scroll-cue mt-8 overflow-x-auto">
            <table className="w-full min-w-[32rem] border-collapse text-left">
              <caption className="sr-only">Tarif futur, tarif membre fondateur et économie annuelle par collège</caption>
              <thead>
                <tr className="border-b text-sm text-muted-foreground">
                  <th scope="col" className="py-3 pr-4 font-medium">Collège</th>
                  <th scope="col" className="py-3 pr-4 font-medium">Tarif futur</th>
                  <th scope="col" className="py-3 pr-4 font-medium">Tarif fondateur</th>
                  <th scope="col" className="py-3 font-medium">Votre économie</th>
                </tr>
              </thead>
              <tbody>
                {COLLEGES.map(({ college, label }) => (
                  <tr key={college} className="border-b">
                    <th scope="row" className="py-4 pr-4 font-semibold">{label}</th>
                    <td className="py-4 pr-4 text-muted-foreground line-through decoration-1">{ttcPerYear(REGULAR_PRICES[college])}</td>
                    <td className="py-4 pr-4 text-lg font-bold text-primary">{ttcPerYear(FOUNDING_PRICE_EUROS)}</td>
                    <td className="py-4">
                      <Badge variant="success">{ttc(foundingSaving(college))} économisés par an</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="mt-10 grid gap-6 md:grid-cols-2">
            {[
              { icon: ShieldCheck, tone: "text-success", title: `Satisfait ou remboursé pendant ${OFFER_SETTINGS.moneyBackDays}\u00a0jours`, text: FOUNDING_TERMS.moneyBack },
              { icon: BadgeCheck, tone: "text-primary", title: `Tarif garanti ${OFFER_SETTINGS.priceGuaranteeYears}\u00a0ans`, text: FOUNDING_TERMS.guarantee },
            ].map(({ icon: Icon, tone, title, text }) => (
              <li key={title}>
                <Card className="h-full">
                  <CardContent className="flex gap-4 p-6">
                    <Icon className={`h-8 w-8 shrink-0 ${tone}`} aria-hidden="true" />
                    <div>
                      <h3 className="font-semibold">{title}</h3>
                      <p className="mt-1 text-sm text-muted-foreground">{text}</p>
                    </div>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        </PageContainer>
      </section>

      <section aria-labelledby="how-title" className="bg-primary py-16 text-primary-foreground">
        <PageContainer className="grid gap-8 py-0 md:grid-cols-[2fr_1fr] md:items-center">
          <div>
            <h2 id="how-title" className="text-3xl font-bold tracking-tight break-words">
              Comment devenir membre fondateur&nbsp;?
            </h2>
            <ol className="mt-4 list-decimal space-y-1 pl-5">
              <li>Créez votre compte et votre profil professionnel.</li>
              <li>Signez la charte d’engagement et présentez votre expérience.</li>
              <li>Faites-vous recommander par deux confrères.</li>
              <li>Réglez votre adhésion de {ttc(FOUNDING_PRICE_EUROS)} pour un an.</li>
              <li>Après la confirmation de vos parrains, notre équipe valide votre profil sous 5 jours ouvrés.</li>
            </ol>
          </div>
          <div className="flex flex-col gap-3 md:items-end">
            <Button asChild size="lg" variant="accent" className="h-auto min-h-11 whitespace-normal py-2 text-center">
              <Link to="/auth?mode=inscription">
                Commencer mon inscription
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
          </div>
        </PageContainer>
      </section>
    </>
  );
}

import {
  ArrowRight,
  Award,
  BadgeCheck,
  Briefcase,
  Building,
  CircleCheck,
  FileSignature,
  FileText,
  Handshake,
  Lock,
  Scale,
  Search,
  Share2,
  ShieldCheck,
  Star,
  UserCheck,
  Users,
} from "lucide-react";
import { Link } from "react-router";
import { PageContainer } from "~/components/page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { CheckList, IconCardGrid, type IconItem, SupportFigures } from "~/components/public-sections";
import { FOUNDING_PLACES } from "~/features/onboarding/onboarding-steps";
import { VERIFIED_MARK_RULE } from "~/features/trust/verification-rules";
import { countLabel } from "~/lib/text";
import { FOUNDING_TERMS, REGULAR_PRICES, ttcPerYear } from "../offers";

const EXPERT_FEATURES: IconItem[] = [
  {
    icon: Share2,
    title: "Partagez vos mandats",
    text: "Déposez vos mandats exclusifs d’acquéreurs et de cédants sous un simple code client\u00a0: vos confrères y accèdent sans jamais connaître l’identité de votre client.",
  },
  {
    icon: Handshake,
    title: "Obtenez des mises en relation qualifiées",
    text: "Notre moteur de rapprochement compare secteurs, territoires, valorisations et capacités d’apport, puis vous propose les mandats compatibles du réseau.",
  },
  {
    icon: BadgeCheck,
    title: "Faites reconnaître votre expertise",
    text: "Chaque membre est vérifié et coopté par deux confrères. Votre profil agréé et vos transactions certifiées rassurent clients et partenaires.",
  },
];

const OWNER_POINTS = [
  "Des avocats, notaires, experts-comptables et conseils en fusions-acquisitions vérifiés un par un",
  "Une recherche par département, secteur d’activité et métier, gratuite et sans inscription",
  "Un premier contact directement auprès du professionnel, sans intermédiaire",
];

const VALUES: IconItem[] = [
  {
    icon: ShieldCheck,
    title: "Confiance",
    text: "Un réseau fermé, fondé sur la cooptation et la vérification de chaque profil.",
  },
  {
    icon: Lock,
    title: "Confidentialité",
    text: "L’identité de vos clients n’est révélée qu’après l’accord des deux professionnels.",
  },
  {
    icon: Users,
    title: "Confraternité",
    text: "Des confrères qui collaborent plutôt que de se concurrencer, au bénéfice des clients.",
  },
  {
    icon: Award,
    title: "Exigence",
    text: "Des transactions certifiées et une charte éthique qui engagent chaque membre.",
  },
];

const ENGAGEMENTS: IconItem[] = [
  {
    icon: UserCheck,
    title: "Vérification en 5 étapes",
    text: VERIFIED_MARK_RULE.steps,
  },
  {
    icon: FileText,
    title: "Charte éthique",
    text: "Chaque membre s’engage par écrit sur la loyauté, la confidentialité et le respect des mandats de ses confrères.",
  },
  {
    icon: ShieldCheck,
    title: "Assurance responsabilité civile professionnelle",
    text: VERIFIED_MARK_RULE.insurance,
  },
  {
    icon: Star,
    title: "Notation des membres",
    text: "À la fin de chaque dossier, les deux confrères se notent (réactivité, professionnalisme, confidentialité)\u00a0; les notes restent cachées jusqu’à ce que les deux aient noté ou que 14 jours soient passés.",
  },
  {
    icon: Scale,
    title: "Médiation",
    text: "En cas de différend, chaque membre peut saisir notre équipe depuis le dossier concerné\u00a0: échanges datés avec les deux confrères, puis décision écrite.",
  },
];

/** Founding-offer availability, with the server-computed remaining places when known. */
function FoundingPlacesNotice({ places }: { places: number | null }) {
  return (
    <p className="mt-4 text-sm font-medium text-primary-foreground" data-testid="founding-places">
      Offre réservée aux {FOUNDING_PLACES} premiers membres du réseau
      {places === null ? "." : `\u00a0: plus que ${countLabel(places, "place disponible", "places disponibles")}.`}
    </p>
  );
}

/** Beside the hero: the confidential path of a mandate, in the words of the product. */
function HeroSteps() {
  const steps = [
    { icon: Lock, title: "Un mandat publié sans nom", text: "Secteur, région, fourchette de prix : l’identité du client reste chez vous." },
    { icon: Handshake, title: "Un rapprochement accepté des deux côtés", text: "Le moteur de rapprochement propose les mandats compatibles, chaque confrère accepte ou non." },
    { icon: FileSignature, title: "L’identité révélée après engagement", text: "Chacun signe l’engagement de confidentialité, puis le dossier partagé s’ouvre." },
  ];
  return (
    <aside aria-labelledby="hero-steps-title" className="hidden lg:block">
    <Card className="border-primary/20 shadow-sm">
      <CardHeader>
        <h2 id="hero-steps-title" className="text-section font-semibold text-primary">
          Un mandat, de la publication au dossier partagé
        </h2>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-5">
          {steps.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3">
              <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                <Icon className="h-4 w-4" aria-hidden="true" />
              </span>
              <span className="grid gap-0.5">
                <span className="font-medium">{title}</span>
                <span className="text-sm text-muted-foreground">{text}</span>
              </span>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
    </aside>
  );
}

/** The hero: what the network is, the two ways in and, beside it, the path of a mandate. */
export function LandingHero() {
  return (
    <PageContainer className="py-16 md:py-20">
      <div className="grid items-center gap-10 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <section aria-labelledby="hero-title">
        <p className="text-sm font-semibold uppercase tracking-wide text-accent">Réseau de confiance, sur cooptation</p>
        <h1 id="hero-title" className="mt-3 text-4xl font-bold tracking-tight break-words text-primary md:text-5xl">
          Le réseau des professionnels de la transmission d’entreprises
        </h1>
        <p className="mt-6 text-lg text-muted-foreground">
          Avocats d’affaires, experts-comptables, notaires, conseils en fusions-acquisitions et évaluateurs partagent
          leurs mandats exclusifs d’acquéreurs et de cédants, en toute confidentialité.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Button asChild size="lg" variant="accent">
            <Link to="/join-founder">Devenir membre fondateur</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/annuaire">Trouver un expert</Link>
          </Button>
        </div>
        <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm text-muted-foreground">
          <li className="flex items-center gap-2">
            <CircleCheck className="h-4 w-4 text-success" aria-hidden="true" />
            Profils vérifiés et cooptés
          </li>
          <li className="flex items-center gap-2">
            <CircleCheck className="h-4 w-4 text-success" aria-hidden="true" />
            Identité des clients protégée
          </li>
          <li className="flex items-center gap-2">
            <CircleCheck className="h-4 w-4 text-success" aria-hidden="true" />
            Annuaire public gratuit
          </li>
        </ul>
      </section>
      <HeroSteps />
      </div>
    </PageContainer>
  );
}

/** For professionals: what sharing a mandate through the network brings. */
export function ExpertsSection({ appName }: { appName: string }) {
  return (
    <section aria-labelledby="experts-title" className="bg-muted py-16">
      <PageContainer className="py-0">
        <div className="max-w-3xl">
          <p className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-primary">
            <Briefcase className="h-4 w-4" aria-hidden="true" />
            Professionnels de la transmission
          </p>
          <h2 id="experts-title" className="mt-2 text-3xl font-bold tracking-tight break-words text-foreground">
            Vos mandats circulent, vos clients restent les vôtres
          </h2>
          <p className="mt-4 text-muted-foreground">
            {appName} réunit les conseils qui accompagnent cédants et repreneurs. Partagez vos dossiers avec des confrères
            de confiance pour trouver plus vite la bonne contrepartie, sans perdre la maîtrise de votre relation client.
          </p>
        </div>
        <IconCardGrid items={EXPERT_FEATURES} className="mt-10 grid gap-6 md:grid-cols-3" titleClassName="mt-2 text-lg font-semibold leading-tight break-words" />
      </PageContainer>
    </section>
  );
}

/** For business owners: the way to a vetted professional. */
export function OwnersSection() {
  return (
    <section aria-labelledby="owners-title" className="py-16">
      <PageContainer className="grid gap-10 py-0 md:grid-cols-2 md:items-center">
        <div>
          <p className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-primary">
            <Building className="h-4 w-4" aria-hidden="true" />
            Chefs d’entreprise et commerçants
          </p>
          <h2 id="owners-title" className="mt-2 text-3xl font-bold tracking-tight break-words text-foreground">
            Vous souhaitez céder ou reprendre une entreprise&nbsp;?
          </h2>
          <p className="mt-4 text-muted-foreground">
            Une transmission se prépare&nbsp;: valorisation, recherche de repreneurs, négociation, montage juridique et
            fiscal. Confiez votre projet à un professionnel agréé du réseau, près de chez vous et spécialiste de votre
            secteur.
          </p>
          <Button asChild size="lg" className="mt-6 h-auto min-h-11 whitespace-normal py-2 text-center">
            <Link to="/annuaire">
              <Search aria-hidden="true" />
              Rechercher un professionnel agréé
            </Link>
          </Button>
        </div>
        <Card>
          <CardHeader>
            <h3 className="text-lg font-semibold">Pourquoi passer par un professionnel du réseau&nbsp;?</h3>
          </CardHeader>
          <CardContent>
            <CheckList items={OWNER_POINTS} className="space-y-3" itemClassName="flex gap-3 text-sm text-foreground" />
          </CardContent>
        </Card>
      </PageContainer>
    </section>
  );
}

/** The four values of the network. */
export function ValuesSection() {
  return (
    <section aria-labelledby="values-title" className="bg-muted py-16">
      <PageContainer className="py-0">
        <h2 id="values-title" className="text-3xl font-bold tracking-tight break-words text-foreground">
          Les valeurs du réseau
        </h2>
        <IconCardGrid items={VALUES} className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4" titleClassName="mt-2 text-lg font-semibold leading-tight break-words" />
      </PageContainer>
    </section>
  );
}

/** The trusted-third-party commitments, with the link to all of them. */
export function EngagementsSection({ appName }: { appName: string }) {
  return (
    <section aria-labelledby="engagements-title" className="py-16">
      <PageContainer className="py-0">
        <div className="max-w-3xl">
          <h2 id="engagements-title" className="text-3xl font-bold tracking-tight break-words text-foreground">
            Nos engagements de tiers de confiance
          </h2>
          <p className="mt-4 text-muted-foreground">
            {appName} n’est partie à aucune opération&nbsp;: nous ne représentons ni cédant ni acquéreur. Notre rôle est
            de garantir un cadre neutre, sûr et loyal à chaque collaboration entre confrères.
          </p>
        </div>
        <IconCardGrid items={ENGAGEMENTS} className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3" titleClassName="mt-2 text-lg font-semibold leading-tight break-words" />
        <p className="mt-8">
          <Link to="/tiers-confiance" className="inline-flex items-center gap-1 font-medium text-primary hover:underline">
            Découvrir toutes nos garanties
            <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </Link>
        </p>
      </PageContainer>
    </section>
  );
}

/** The specification’s figures on professional support, with their caveat. */
export function FiguresSection() {
  return (
    <section aria-labelledby="figures-title" className="bg-muted py-16">
      <PageContainer className="py-0">
        <h2 id="figures-title" className="text-3xl font-bold tracking-tight break-words text-foreground">
          L’accompagnement professionnel fait la différence
        </h2>
        <SupportFigures className="mt-10 grid grid-cols-2 gap-4 md:gap-6 lg:grid-cols-4" />
      </PageContainer>
    </section>
  );
}

/** The founding-member call to action, with the places left when known. */
export function FounderSection({ places }: { places: number | null }) {
  return (
    <section aria-labelledby="founder-title" className="bg-primary py-16 text-primary-foreground">
      <PageContainer className="grid gap-8 py-0 md:grid-cols-[2fr_1fr] md:items-center">
        <div>
          <Badge className="bg-background text-primary">Offre de lancement</Badge>
          <h2 id="founder-title" className="mt-3 text-3xl font-bold tracking-tight break-words">
            Devenez l’un des membres fondateurs
          </h2>
          <p className="mt-4">
            Rejoignez le réseau dès son lancement pour {FOUNDING_TERMS.price}, {FOUNDING_TERMS.guaranteeShort}, au lieu de{" "}
            {ttcPerYear(REGULAR_PRICES.transmission_entreprises)} pour le collège Entreprises et {ttcPerYear(REGULAR_PRICES.transmission_commerces)} pour le
            collège Commerces. Badge de membre fondateur à vie, mise en avant dans l’annuaire et accès en avant-première aux
            nouvelles fonctionnalités.
          </p>
          <FoundingPlacesNotice places={places} />
        </div>
        <div className="flex flex-col gap-3 md:items-end">
          <Button asChild size="lg" variant="accent" className="h-auto min-h-11 whitespace-normal py-2 text-center">
            <Link to="/join-founder">
              Réserver ma place de membre fondateur
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <p className="flex items-center gap-2 text-sm">
            <ShieldCheck className="h-4 w-4" aria-hidden="true" />
            Satisfait ou remboursé pendant 30 jours
          </p>
        </div>
      </PageContainer>
    </section>
  );
}

import { ChevronDown, Mail } from "lucide-react";
import { textLinkClass } from "~/components/public-sections";
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { PageContainer, PageTitle } from "~/components/page";
import { Button } from "~/components/ui/button";
import { pageMeta } from "~/lib/meta";
import { euros, FOUNDING_TERMS, OFFER_SETTINGS } from "~/features/membership/offers";
import type { Route } from "./+types/faq";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Questions fréquentes",
    "Adhésion, parrainage, tarifs, confidentialité des clients, exclusivité des mandats, partage des honoraires, délai de validation et données personnelles\u00a0: nos réponses.",
  );

const QUESTIONS: { question: string; answer: ReactNode }[] = [
  {
    question: "Qui peut rejoindre le réseau\u00a0?",
    answer: (
      <>
        <p>
          Le réseau est réservé aux professionnels qui accompagnent la transmission d’entreprises ou de commerces&nbsp;:
          avocats d’affaires et avocats fiscalistes, notaires, experts-comptables, commissaires aux comptes, conseils en
          gestion de patrimoine, conseils en fusions-acquisitions, conseils en levée de fonds, conseils en cession de
          fonds de commerce, conseils en immobilier commercial et experts en évaluation.
        </p>
        <p>
          Chaque membre rejoint l’un des deux collèges, transmission d’entreprises ou transmission de commerces, signe la
          charte d’engagement et est recommandé par deux confrères.
        </p>
      </>
    ),
  },
  {
    question: "Comment fonctionne le parrainage\u00a0?",
    answer: (
      <p>
        Lors de votre inscription, vous indiquez le nom et l’adresse e-mail de deux confrères qui vous connaissent
        professionnellement. Chacun reçoit un e-mail et confirme sa recommandation d’un simple clic. Votre dossier passe
        ensuite au contrôle de notre équipe.
      </p>
    ),
  },
  {
    question: "Combien coûte l’adhésion\u00a0?",
    answer: (
      <>
        <p>Deux formules sont proposées&nbsp;:</p>
        <ul className="list-disc space-y-1 pl-6">
          <li>
            <strong>Freemium, {euros(0)}</strong>{"\u00a0"}: un profil de base et un accès limité, avec 3 opportunités et 3 créations
            de mandats par semestre.
          </li>
          <li>
            <strong>Membre fondateur, {FOUNDING_TERMS.price}</strong>{"\u00a0"}: réservé aux {OFFER_SETTINGS.foundingPlaces} premiers membres, avec un
            accès complet (opportunités illimitées, profil enrichi, transactions certifiées, messagerie interne, statistiques). {FOUNDING_TERMS.regular}{" "}
            {FOUNDING_TERMS.payment} {FOUNDING_TERMS.guarantee} {FOUNDING_TERMS.moneyBack}
          </li>
        </ul>
        <p>
          Le détail de l’offre est présenté sur la page{" "}
          <Link to="/join-founder" className={textLinkClass}>
            membre fondateur
          </Link>
          .
        </p>
      </>
    ),
  },
  {
    question: "L’identité de mes clients reste-t-elle confidentielle\u00a0?",
    answer: (
      <p>
        Oui. Vos mandats sont diffusés sous un code client que vous choisissez (des initiales ou un nom de code). Le nom
        et l’adresse de votre client ne sont communiqués à un confrère qu’une fois la mise en relation acceptée par vous
        deux. Jusque-là, personne d’autre que vous n’y a accès.
      </p>
    ),
  },
  {
    question: "Les mandats déposés doivent-ils être exclusifs\u00a0?",
    answer: (
      <p>
        Oui. Seuls les mandats exclusifs peuvent être déposés&nbsp;: vous le certifiez lors de chaque dépôt. L’exclusivité
        garantit à vos confrères qu’ils travaillent sur un dossier réel, confié à un seul conseil, et protège la
        relation que vous entretenez avec votre client.
      </p>
    ),
  },
  {
    question: "Comment les honoraires sont-ils partagés\u00a0?",
    answer: (
      <p>
        Le partage des honoraires est convenu librement entre les deux professionnels, et formalisé par écrit avant
        l’échange des coordonnées des clients. Le réseau n’intervient pas dans cette répartition et ne prélève aucune
        commission sur les opérations. En cas de désaccord, une médiation neutre vous est proposée.
      </p>
    ),
  },
  {
    question: "Quel est le délai de validation de mon adhésion\u00a0?",
    answer: (
      <p>
        Votre profil est validé dans un délai de 5 jours ouvrés après la confirmation de vos deux parrains et le contrôle
        de votre dossier par notre équipe. Vous suivez l’avancement de votre dossier depuis votre espace d’inscription.
      </p>
    ),
  },
  {
    question: "Comment mes données personnelles sont-elles protégées\u00a0?",
    answer: (
      <p>
        Vos données sont traitées conformément au RGPD, uniquement pour le fonctionnement du réseau&nbsp;: elles ne sont ni
        vendues ni utilisées à des fins publicitaires. Vous disposez d’un droit d’accès, de rectification, d’effacement,
        de portabilité et d’opposition. Tous les détails figurent dans notre{" "}
        <Link to="/politique-confidentialite" className={textLinkClass}>
          politique de confidentialité
        </Link>
        .
      </p>
    ),
  },
];

export default function Faq() {
  // Exclusive accordion: `name` makes the <details> exclusive natively (Chromium) and without
  // JavaScript; this state gives the same behaviour in every other browser once hydrated.
  const [openIndex, setOpenIndex] = useState<number | null>(null);

  return (
    <PageContainer className="max-w-3xl">
      <PageTitle>Questions fréquentes</PageTitle>
      <p className="mt-4 text-muted-foreground">
        Les réponses aux questions que se posent le plus souvent les professionnels qui souhaitent rejoindre le réseau.
      </p>

      <div className="mt-8 divide-y rounded-lg border">
        {QUESTIONS.map((item, index) => (
          <details
            key={item.question}
            name="faq"
            open={openIndex === index}
            onToggle={(event) => {
              const isOpen = event.currentTarget.open;
              setOpenIndex((current) => (isOpen ? index : current === index ? null : current));
            }}
            className="group"
          >
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 p-4 font-medium text-foreground hover:bg-muted [&::-webkit-details-marker]:hidden">
              <span className="break-words">{item.question}</span>
              <ChevronDown
                className="h-5 w-5 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                aria-hidden="true"
              />
            </summary>
            <div className="space-y-3 px-4 pb-4 text-muted-foreground">{item.answer}</div>
          </details>
        ))}
      </div>

      <section aria-labelledby="faq-contact-title" className="mt-12 rounded-lg bg-muted p-6">
        <h2 id="faq-contact-title" className="text-xl font-semibold text-foreground">
          Vous ne trouvez pas votre réponse&nbsp;?
        </h2>
        <p className="mt-2 text-muted-foreground">
          Notre équipe vous répond par e-mail sous 48 heures ouvrées.
        </p>
        <Button asChild className="mt-4">
          <Link to="/contact">
            <Mail aria-hidden="true" />
            Poser votre question
          </Link>
        </Button>
      </section>
    </PageContainer>
  );
}

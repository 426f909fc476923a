import { Link } from "react-router";
import { textLinkClass } from "~/components/public-sections";
import { PageContainer, PageTitle } from "~/components/page";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/aide";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Aide",
    "Guide pas à pas\u00a0: rejoindre le réseau, déposer un mandat, traiter les mises en relation, suivre un dossier de rapprochement, confidentialité et paiements.",
  );

export function loader() {
  return null;
}

type Section = { id: string; title: string; body: React.ReactNode };

const SECTIONS: Section[] = [
  {
    id: "adhesion",
    title: "Rejoindre le réseau",
    body: (
      <ol className="list-decimal space-y-2 pl-5">
        <li>
          Créez votre compte depuis la page <Link className={textLinkClass} to="/auth?mode=inscription">Inscription</Link>, puis
          confirmez votre adresse e-mail grâce au lien reçu (valable 24 heures&nbsp;; en vous connectant, un nouveau lien vous est
          envoyé s’il a expiré).
        </li>
        <li>Renseignez votre identité, votre profession et votre collège, puis acceptez la charte d’engagement.</li>
        <li>Décrivez votre expérience et deux ou trois opérations récentes, sans nommer les entreprises.</li>
        <li>
          Indiquez deux confrères qui vous recommandent&nbsp;: chacun reçoit un e-mail et confirme sa recommandation d’un clic. Vos
          parrains doivent être deux personnes distinctes, autres que vous-même.
        </li>
        <li>
          Choisissez votre adhésion&nbsp;: démarrage gratuit ou membre fondateur. L’équipe vérifie ensuite votre dossier&nbsp;; votre
          espace membre s’ouvre dès la validation.
        </li>
      </ol>
    ),
  },
  {
    id: "mandats",
    title: "Déposer un mandat et trouver des correspondances",
    body: (
      <>
        <p>
          Depuis l’onglet Mandats de votre espace, créez un mandat acquéreur (secteurs, territoires, montants recherchés) ou
          cédant (secteur, localisation, valorisation, apport requis). Le nom et l’adresse de votre client restent
          confidentiels&nbsp;: seul un code de votre choix est montré à vos confrères.
        </p>
        <p>
          Le bouton «&nbsp;Matching&nbsp;» de chaque mandat affiche les mandats compatibles, classés par score (secteur, territoire,
          valorisation, apport). Demandez une mise en relation&nbsp;; votre confrère l’accepte ou la refuse. Les membres freemium
          créent jusqu’à 3 mandats et envoient jusqu’à 3 demandes de mise en relation par semestre.
        </p>
      </>
    ),
  },
  {
    id: "confidentialite",
    title: "Confidentialité des clients",
    body: (
      <p>
        Une mise en relation est confirmée quand les deux membres ont accepté. Chacun signe alors un engagement de
        confidentialité, et seulement ensuite l’identité du client de son confrère lui est communiquée. Aucun e-mail ne
        contient l’identité d’un client. Chaque étape est datée et conservée dans l’historique de la mise en relation.
      </p>
    ),
  },
  {
    id: "dossiers",
    title: "Suivre un dossier de rapprochement",
    body: (
      <p>
        Chaque mise en relation confirmée ouvre un dossier de rapprochement (onglet Dossiers), partagé par les deux membres
        seulement&nbsp;: étapes de l’opération, messages et historique. La conclusion d’une opération est confirmée par les deux
        membres&nbsp;; elle compte alors dans vos statistiques et sur votre profil public.
      </p>
    ),
  },
  {
    id: "paiements",
    title: "Adhésion et paiements",
    body: (
      <p>
        L’adhésion de membre fondateur est réglée par carte via notre prestataire de paiement&nbsp;; elle est activée lorsque
        votre profil est validé par l’équipe. Les conditions (tarif, durée, remboursement) figurent dans les{" "}
        <Link className={textLinkClass} to="/cgu">
          conditions générales
        </Link>
        . Pour toute question, écrivez-nous depuis la page{" "}
        <Link className={textLinkClass} to="/contact">
          Contact
        </Link>
        .
      </p>
    ),
  },
];

export default function Aide() {
  return (
    <PageContainer className="max-w-3xl">
      <PageTitle>Aide</PageTitle>
      <p className="mt-2 text-muted-foreground">
        Le guide pas à pas du réseau. Une question qui n’est pas traitée ici&nbsp;? Consultez la{" "}
        <Link className={textLinkClass} to="/faq">
          foire aux questions
        </Link>{" "}
        ou{" "}
        <Link className={textLinkClass} to="/contact">
          écrivez-nous
        </Link>
        .
      </p>
      <nav aria-label="Sommaire de l’aide" className="mt-6">
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a className={textLinkClass} href={`#${s.id}`}>
                {s.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8 grid gap-8">
        {SECTIONS.map((s) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="grid gap-3 text-sm leading-relaxed">
            <h2 id={`${s.id}-title`} className="text-xl font-semibold">
              {s.title}
            </h2>
            {s.body}
          </section>
        ))}
      </div>
    </PageContainer>
  );
}

import { Link, useRouteLoaderData } from "react-router";
import { LegalIdentifier, LegalPageHeader, LegalSection, textLinkClass } from "~/components/public-sections";
import { PageContainer } from "~/components/page";
import { useLegalIdentity } from "~/lib/legal";
import { pageMeta } from "~/lib/meta";
import { euros, FOUNDING_TERMS, OFFER_SETTINGS } from "~/features/membership/offers";
import type { Route } from "./+types/cgu";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Conditions générales d’utilisation",
    "Conditions générales d’utilisation du réseau\u00a0: accès, adhésion, formules, engagements des membres, confidentialité des mandats et responsabilité.",
  );

export default function Cgu() {
  const LEGAL_IDENTITY = useLegalIdentity();
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  const appName = root?.appName ?? "Réseau Transmission";

  return (
    <PageContainer className="max-w-3xl">
      <LegalPageHeader title="Conditions générales d’utilisation" />
      <p className="mt-6 text-foreground">
        Les présentes conditions générales d’utilisation («&nbsp;CGU&nbsp;») encadrent l’utilisation du site {appName}, édité par{" "}
        <LegalIdentifier value={LEGAL_IDENTITY.companyName} /> (l'«&nbsp;éditeur&nbsp;»). Toute création de compte vaut acceptation
        sans réserve des présentes CGU.
      </p>

      <div className="mt-10 space-y-10 text-foreground">
        <LegalSection id="cgu-1" title="Article 1 — Objet">
          <p>
            {appName} est un réseau collaboratif et confidentiel réservé aux professionnels de la transmission
            d’entreprises et de commerces&nbsp;: avocats, notaires, experts-comptables, commissaires aux comptes, conseils en
            gestion de patrimoine, conseils en fusions-acquisitions, conseils en levée de fonds, conseils en cession de
            fonds de commerce, conseils en immobilier commercial et experts en évaluation.
          </p>
          <p>
            Le site propose au public un annuaire gratuit des professionnels agréés et un formulaire de contact. Il
            offre aux membres un profil professionnel, une messagerie interne, un annuaire des confrères, le dépôt de
            mandats d’acquéreurs et de cédants, ainsi qu’un service de rapprochement et de mise en relation entre ces
            mandats.
          </p>
        </LegalSection>

        <LegalSection id="cgu-2" title="Article 2 — Accès au service et adhésion">
          <p>
            Les pages publiques sont accessibles librement. L’espace membre est réservé aux professionnels exerçant une
            activité de conseil en transmission, dont la candidature a été acceptée au terme du processus suivant&nbsp;:
          </p>
          <ol className="list-decimal space-y-1 pl-6">
            <li>création d’un compte avec une adresse e-mail vérifiée et d’un profil rattaché à l’un des deux collèges (transmission d’entreprises ou transmission de commerces)&nbsp;;</li>
            <li>acceptation de la charte d’engagement&nbsp;;</li>
            <li>présentation de l’expérience professionnelle et des opérations récentes&nbsp;;</li>
            <li>recommandation par deux confrères, qui confirment leur parrainage par e-mail&nbsp;;</li>
            <li>contrôle du dossier par l’équipe du réseau.</li>
          </ol>
          <p>
            La décision est rendue dans un délai de 5 jours ouvrés à compter de la confirmation des deux parrains et du
            contrôle de l’équipe. L’éditeur peut refuser une candidature qui ne répond pas aux critères du réseau.
          </p>
          <p>
            Les identifiants de connexion sont personnels et confidentiels. Le membre est responsable de leur
            conservation et de toute utilisation de son compte.
          </p>
        </LegalSection>

        <LegalSection id="cgu-3" title="Article 3 — Formules d’adhésion et conditions financières">
          <ul className="list-disc space-y-2 pl-6">
            <li>
              <strong>Formule Freemium ({euros(0)})</strong>&nbsp;: profil de base, 3 opportunités et 3 créations de mandats par
              semestre, sans messagerie interne, statistiques ni transactions certifiées visibles.
            </li>
            <li>
              <strong>Formule Premium et offre membre fondateur</strong>&nbsp;: opportunités illimitées au sein de son
              collège, profil enrichi (présentation, logo, photographie), transactions certifiées,
              messagerie interne et statistiques. L’offre membre fondateur est réservée aux {OFFER_SETTINGS.foundingPlaces} premiers membres au
              tarif de {FOUNDING_TERMS.price} ({FOUNDING_TERMS.vat}). {FOUNDING_TERMS.regular} {FOUNDING_TERMS.guarantee}
            </li>
          </ul>
          <p>
            {FOUNDING_TERMS.payment} Elle est réglée en ligne auprès d’un prestataire de paiement sécurisé{"\u00a0"}; l’éditeur
            n’a jamais accès aux données de carte bancaire. {FOUNDING_TERMS.moneyBack}
          </p>
        </LegalSection>

        <LegalSection id="cgu-4" title="Article 4 — Engagements des membres">
          <p>Chaque membre s’engage à&nbsp;:</p>
          <ul className="list-disc space-y-1 pl-6">
            <li>fournir des informations exactes et à jour sur son identité, son activité et ses références&nbsp;;</li>
            <li>respecter la charte d’engagement et les règles déontologiques propres à sa profession&nbsp;;</li>
            <li>être couvert par une assurance responsabilité civile professionnelle adaptée à son activité&nbsp;;</li>
            <li>ne déposer que des mandats exclusifs qui lui ont effectivement été confiés par ses clients&nbsp;;</li>
            <li>
              ne pas contourner le confrère à l’origine d’une mise en relation et respecter le partage d’honoraires
              convenu par écrit avec lui&nbsp;;
            </li>
            <li>
              ne pas extraire, copier ou utiliser les données du réseau à des fins de prospection non sollicitée ou
              étrangères à son objet.
            </li>
          </ul>
        </LegalSection>

        <LegalSection id="cgu-5" title="Article 5 — Confidentialité des mandats et données personnelles">
          <p>
            Les mandats sont diffusés sous un code client. Le nom et l’adresse du client ne sont visibles que du membre
            qui a déposé le mandat, puis communiqués à son confrère uniquement lorsque la mise en relation a été
            acceptée par les deux parties. Les informations ainsi obtenues ne peuvent être utilisées que pour l’opération
            concernée.
          </p>
          <p>
            Le membre garantit avoir informé ses clients de la diffusion confidentielle de leur projet au sein du
            réseau. Les traitements de données personnelles réalisés par l’éditeur sont décrits dans la{" "}
            <Link to="/politique-confidentialite" className={textLinkClass}>
              politique de confidentialité
            </Link>
            .
          </p>
        </LegalSection>

        <LegalSection id="cgu-6" title="Article 6 — Responsabilité, suspension, résiliation et droit applicable">
          <p>
            L’éditeur agit en tiers de confiance neutre&nbsp;: il n’est partie à aucune opération conclue entre membres ou
            avec leurs clients et ne garantit ni la conclusion ni le résultat d’une opération. Chaque membre demeure
            seul responsable des conseils qu’il délivre.
          </p>
          <p>
            En cas de manquement aux présentes CGU ou à la charte d’engagement, l’éditeur peut, après avoir invité le
            membre à présenter ses observations, suspendre ou clôturer son compte. Le membre peut mettre fin à son
            adhésion à tout moment en écrivant à <LegalIdentifier value={LEGAL_IDENTITY.contactEmail} />.
          </p>
          <p>
            Les différends entre membres font l’objet d’une médiation proposée par le réseau avant tout autre recours.
            Les présentes CGU sont régies par le droit français&nbsp;; à défaut d’accord amiable, les juridictions du ressort
            du siège social de l’éditeur sont compétentes. L’éditeur peut faire évoluer les CGU&nbsp;; les membres sont
            informés de toute modification substantielle avant son entrée en vigueur.
          </p>
        </LegalSection>
      </div>
    </PageContainer>
  );
}

import { Link, useRouteLoaderData } from "react-router";
import { LegalIdentifier, LegalPageHeader, LegalSection, textLinkClass } from "~/components/public-sections";
import { PageContainer } from "~/components/page";
import { type LegalIdentity, useLegalIdentity } from "~/lib/legal";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/mentions-legales";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Mentions légales",
    "Mentions légales du site\u00a0: éditeur, directeur de la publication, hébergeur, propriété intellectuelle et responsabilité.",
  );

const publisherRows = (LEGAL_IDENTITY: LegalIdentity): { label: string; value: string }[] => [
  { label: "Raison sociale", value: LEGAL_IDENTITY.companyName },
  { label: "Forme juridique", value: LEGAL_IDENTITY.legalForm },
  { label: "Capital social", value: LEGAL_IDENTITY.shareCapital },
  { label: "Immatriculation", value: LEGAL_IDENTITY.rcs },
  { label: "SIRET", value: LEGAL_IDENTITY.siret },
  { label: "TVA intracommunautaire", value: LEGAL_IDENTITY.vatNumber },
  { label: "Siège social", value: LEGAL_IDENTITY.headOffice },
  { label: "Directeur de la publication", value: LEGAL_IDENTITY.publicationDirector },
  { label: "Contact", value: LEGAL_IDENTITY.contactEmail },
  { label: "Téléphone", value: LEGAL_IDENTITY.phone },
];

const hostRows = (LEGAL_IDENTITY: LegalIdentity): { label: string; value: string }[] => [
  { label: "Hébergeur", value: LEGAL_IDENTITY.hostName },
  { label: "Adresse", value: LEGAL_IDENTITY.hostAddress },
];

function IdentityList({ rows }: { rows: { label: string; value: string }[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows.map((row) => (
        <div key={row.label} className="contents">
          <dt className="font-medium text-foreground">{row.label}</dt>
          <dd className="break-words text-muted-foreground">
            <LegalIdentifier value={row.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export default function MentionsLegales() {
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  const appName = root?.appName ?? "Réseau Transmission";
  const identity = useLegalIdentity();
  return (
    <PageContainer className="max-w-3xl">
      <LegalPageHeader title="Mentions légales" />
      <p className="mt-6 text-foreground">
        Conformément à l’article 6 de la loi n° 2004-575 du 21 juin 2004 pour la confiance dans l’économie numérique,
        les informations suivantes sont portées à la connaissance des utilisateurs du site {appName}.
      </p>

      <div className="mt-10 space-y-10">
        <section aria-labelledby="publisher-title" className="space-y-4">
          <h2 id="publisher-title" className="text-xl font-semibold text-foreground">
            Éditeur du site
          </h2>
          <IdentityList rows={publisherRows(identity)} />
        </section>

        <section aria-labelledby="host-title" className="space-y-4">
          <h2 id="host-title" className="text-xl font-semibold text-foreground">
            Hébergement
          </h2>
          <IdentityList rows={hostRows(identity)} />
        </section>

        <LegalSection id="ip-title" title="Propriété intellectuelle" className="space-y-3 text-foreground">
          <p>
            La structure du site, ses textes, sa charte graphique, ses logos et ses bases de données sont la propriété
            exclusive de l’éditeur ou font l’objet d’une autorisation d’utilisation. Toute reproduction, représentation
            ou extraction, totale ou partielle, sans autorisation écrite préalable est interdite et constitue une
            contrefaçon sanctionnée par le Code de la propriété intellectuelle.
          </p>
          <p>
            Les contenus publiés par les membres (présentations, logos, photographies, transactions certifiées) restent
            leur propriété&nbsp;; ils en concèdent à l’éditeur le droit de les afficher sur le site pour la durée de leur
            adhésion.
          </p>
        </LegalSection>

        <LegalSection id="liability-title" title="Responsabilité" className="space-y-3 text-foreground">
          <p>
            {appName} est une plateforme de mise en relation entre professionnels. L’éditeur n’est partie à aucune
            opération de cession ou d’acquisition conclue entre membres ou avec leurs clients et n’exerce aucune mission
            de conseil juridique, fiscal, comptable ou financier.
          </p>
          <p>
            Les informations figurant sur les profils et dans les mandats sont publiées sous la seule responsabilité des
            membres qui les renseignent. L’éditeur vérifie les profils avant leur publication mais ne peut garantir
            l’exhaustivité ni l’actualité de chaque information. Les indicateurs chiffrés présentés sur le site sont
            fournis à titre informatif et ne constituent pas une garantie de résultat.
          </p>
          <p>
            L’éditeur s’efforce d’assurer l’accessibilité du site en permanence, sans pouvoir exclure des interruptions
            pour maintenance ou en cas de force majeure.
          </p>
        </LegalSection>

        <LegalSection id="data-title" title="Données personnelles et cookies" className="space-y-3 text-foreground">
          <p>
            Le traitement de vos données personnelles est décrit dans notre{" "}
            <Link to="/politique-confidentialite" className={textLinkClass}>
              politique de confidentialité
            </Link>
            . L’utilisation des cookies est détaillée dans notre{" "}
            <Link to="/cookies" className={textLinkClass}>
              politique de cookies
            </Link>
            . L’usage du site est régi par les{" "}
            <Link to="/cgu" className={textLinkClass}>
              conditions générales d’utilisation
            </Link>
            .
          </p>
        </LegalSection>

        <LegalSection id="law-title" title="Droit applicable" className="space-y-3 text-foreground">
          <p>
            Les présentes mentions légales sont régies par le droit français. Tout litige relatif à l’utilisation du
            site relève, à défaut de résolution amiable, de la compétence des juridictions du ressort du siège social
            de l’éditeur, sous réserve des règles impératives contraires.
          </p>
        </LegalSection>
      </div>
    </PageContainer>
  );
}

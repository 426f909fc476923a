import { Link, useRouteLoaderData } from "react-router";
import { LegalIdentifier, LegalPageHeader, LegalSection, textLinkClass } from "~/components/public-sections";
import { PageContainer } from "~/components/page";
import { useLegalIdentity } from "~/lib/legal";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/politique-confidentialite";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Politique de confidentialité",
    "Quelles données personnelles nous traitons, pourquoi, pendant combien de temps, avec quels sous-traitants, et comment exercer vos droits RGPD.",
  );

const RETENTION: { data: string; duration: string }[] = [
  {
    data: "Compte, profil professionnel, mandats et messages",
    duration: "pendant toute la durée de l’adhésion, puis suppression à la clôture du compte",
  },
  {
    data: "Dossiers de rapprochement (historique, messages, documents partagés, conventions d’honoraires signées)",
    duration:
      "tant que l’un des deux membres du dossier conserve son compte\u00a0: à la clôture du compte d’un membre, son confrère garde le dossier, qui fait preuve de leur accord (les noms des signataires et des auteurs de chaque étape y restent)\u00a0; le dossier et ses documents sont supprimés quand les deux comptes sont clos. L’archive de clôture d’un dossier conclu est constituée à chaque téléchargement à partir de ces données et n’est pas conservée à part",
  },
  {
    data: "Candidatures non abouties",
    duration: "12 mois à compter du dernier échange avec le candidat",
  },
  {
    data: "Recommandations (nom et e-mail des parrains)",
    duration: "pendant la durée de l’adhésion du membre recommandé",
  },
  {
    data: "Messages reçus via les formulaires de contact",
    duration: "3 ans à compter du dernier échange",
  },
  {
    data: "Factures et données comptables d’adhésion",
    duration:
      "10 ans, conformément aux obligations comptables (article L.\u00a0123-22 du Code de commerce)\u00a0: chaque facture et chaque avoir gardent une copie de l’identité et de l’adresse de facturation de l’acheteur au jour de leur émission, et sont conservés même après la suppression du compte.",
  },
  {
    data: "Journaux de connexion et de sécurité",
    duration: "12 mois",
  },
];

export default function PolitiqueConfidentialite() {
  const LEGAL_IDENTITY = useLegalIdentity();
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  const appName = root?.appName ?? "Réseau Transmission";

  return (
    <PageContainer className="max-w-3xl">
      <LegalPageHeader title="Politique de confidentialité" />
      <p className="mt-6 text-foreground">
        La confidentialité est au cœur de {appName}. Cette politique explique comment vos données personnelles sont
        traitées, conformément au règlement (UE) 2016/679 du 27 avril 2016 (RGPD) et à la loi n° 78-17 du 6 janvier
        1978 modifiée, dite «&nbsp;Informatique et Libertés&nbsp;».
      </p>

      <div className="mt-10 space-y-10 text-foreground">
        <LegalSection id="privacy-1" title="1. Responsable du traitement">
          <p>
            Le responsable du traitement est <LegalIdentifier value={LEGAL_IDENTITY.companyName} />,{" "}
            <LegalIdentifier value={LEGAL_IDENTITY.legalForm} /> dont le siège social est situé{" "}
            <LegalIdentifier value={LEGAL_IDENTITY.headOffice} />, immatriculée sous le numéro{" "}
            <LegalIdentifier value={LEGAL_IDENTITY.rcs} />.
          </p>
          <p>
            Pour toute question relative à vos données, écrivez à <LegalIdentifier value={LEGAL_IDENTITY.privacyEmail} />.
          </p>
        </LegalSection>

        <LegalSection id="privacy-2" title="2. Données collectées et finalités">
          <ul className="list-disc space-y-2 pl-6">
            <li>
              <strong>Compte et adhésion</strong>&nbsp;: adresse e-mail, mot de passe (conservé uniquement sous forme
              de condensat irréversible), nom, prénom, cabinet, profession, collège, acceptation de la charte, formule d’adhésion. Base
              légale&nbsp;: exécution du contrat d’adhésion.
            </li>
            <li>
              <strong>Profil professionnel</strong>&nbsp;: ville, département, adresse, secteurs d’expertise, expérience,
              opérations récentes, présentations, lien LinkedIn, logo, photographie, transactions certifiées. Les
              informations du profil public sont publiées dans l’annuaire. Base légale&nbsp;: exécution du contrat.
            </li>
            <li>
              <strong>Mandats et mises en relation</strong>&nbsp;: caractéristiques des mandats, code client, nom et adresse
              du client (visibles du seul membre mandataire jusqu’à l’acceptation mutuelle d’une mise en relation),
              demandes de mise en relation. Base légale&nbsp;: exécution du contrat.
            </li>
            <li>
              <strong>Dossiers de rapprochement</strong>&nbsp;: pour chaque mise en relation confirmée, l’historique des
              étapes, les messages, les documents partagés (avec le journal de leurs consultations) et les conventions
              de partage d’honoraires avec leurs signatures électroniques (date, adresse IP, navigateur, empreinte du
              document). Ils ne sont accessibles qu’aux deux membres du dossier. Base légale&nbsp;: exécution du contrat et
              intérêt légitime à conserver la preuve des accords conclus entre membres. L’adresse IP et le navigateur
              enregistrés au moment d’une signature prouvent le consentement de chaque signataire&#8239;; c’est
              pourquoi les deux membres du dossier les voient pour les deux signatures, sur le certificat de signature,
              dans l’historique exporté du dossier et dans l’export de leurs données. En dehors des signatures,
              l’adresse IP et le navigateur d’un membre ne sont jamais communiqués à un autre membre (sessions,
              connexions, consultations de documents). Les conventions signées, les engagements de confidentialité,
              l’historique exporté et le manifeste de l’archive de clôture portent le cachet électronique horodaté de la
              plateforme&nbsp;; la demande d’horodatage envoyée à l’autorité d’horodatage ne contient qu’une empreinte,
              aucune donnée personnelle.
            </li>
            <li>
              <strong>Parrainage</strong>&nbsp;: nom et adresse e-mail des deux confrères recommandant un candidat, afin de
              recueillir leur confirmation. Base légale&nbsp;: intérêt légitime à vérifier les candidatures.
            </li>
            <li>
              <strong>Messages</strong>&nbsp;: messages internes entre membres et messages envoyés par les visiteurs via les
              formulaires de contact (nom, e-mail, société, objet, contenu). Base légale&nbsp;: exécution du contrat ou
              intérêt légitime à répondre aux demandes.
            </li>
            <li>
              <strong>Paiement</strong>&nbsp;: statut et historique de l’adhésion payante, données de facturation&nbsp;; les
              données de carte bancaire sont saisies directement chez le prestataire de paiement. Base légale&nbsp;:
              exécution du contrat et obligations comptables.
            </li>
            <li>
              <strong>Sécurité</strong>&nbsp;: adresse IP, journaux de connexion, limitation des tentatives. Base légale&nbsp;:
              intérêt légitime à protéger le service et les comptes.
            </li>
          </ul>
          <p>Vos données ne sont ni vendues ni louées, et ne sont jamais utilisées à des fins publicitaires.</p>
        </LegalSection>

        <LegalSection id="privacy-3" title="3. Destinataires et sous-traitants">
          <p>
            Les données sont accessibles à l’équipe habilitée de l’éditeur et, pour les informations qui leur sont
            destinées, aux autres membres et aux visiteurs de l’annuaire public. Elles sont également traitées par les
            sous-traitants suivants, liés par contrat conformément à l’article 28 du RGPD&nbsp;:
          </p>
          <ul className="list-disc space-y-2 pl-6">
            <li>
              <strong>Hébergement</strong> du site et de la base de données&nbsp;: <LegalIdentifier value={LEGAL_IDENTITY.hostName} />
            </li>
            <li>
              <strong>Envoi des e-mails</strong> (confirmations, notifications, parrainages)&nbsp;:{" "}
              <LegalIdentifier value={LEGAL_IDENTITY.emailProvider} />
            </li>
            <li>
              <strong>Paiement en ligne</strong> des adhésions&nbsp;: <LegalIdentifier value={LEGAL_IDENTITY.paymentProvider} />
            </li>
          </ul>
          <p>
            Lorsqu’un sous-traitant transfère des données hors de l’Union européenne, ce transfert est encadré par une
            décision d’adéquation de la Commission européenne ou par des clauses contractuelles types.
          </p>
        </LegalSection>

        <LegalSection id="privacy-4" title="4. Durées de conservation">
          <ul className="space-y-3">
            {RETENTION.map((row) => (
              <li key={row.data} className="rounded-lg border p-4">
                <p className="font-medium">{row.data}</p>
                <p className="mt-1 text-sm text-muted-foreground">{row.duration}</p>
              </li>
            ))}
          </ul>
        </LegalSection>

        <LegalSection id="privacy-5" title="5. Sécurité des données">
          <p>
            Les échanges avec le site sont chiffrés, les mots de passe sont stockés sous forme de condensats, les
            fichiers déposés sont contrôlés et réencodés, et l’accès aux données est limité aux personnes habilitées.
            Les cookies utilisés sont strictement nécessaires au fonctionnement du site, comme l’explique notre{" "}
            <Link to="/cookies" className={textLinkClass}>
              politique de cookies
            </Link>
            .
          </p>
        </LegalSection>

        <LegalSection id="privacy-6" title="6. Vos droits">
          <p>Conformément au RGPD, vous disposez des droits suivants sur vos données&nbsp;:</p>
          <ul className="list-disc space-y-2 pl-6">
            <li>
              <strong>Droit d’accès</strong>&nbsp;: obtenir la confirmation que vos données sont traitées et en recevoir une
              copie.
            </li>
            <li>
              <strong>Droit de rectification</strong>&nbsp;: corriger des données inexactes ou incomplètes, notamment depuis
              votre profil.
            </li>
            <li>
              <strong>Droit à l’effacement</strong>&nbsp;: obtenir la suppression de votre compte et des données associées,
              sous réserve des durées de conservation imposées par la loi.
            </li>
            <li>
              <strong>Droit à la portabilité</strong>&nbsp;: recevoir l’export de vos données dans un format structuré,
              couramment utilisé et lisible par machine.
            </li>
            <li>
              <strong>Droit d’opposition</strong>&nbsp;: vous opposer aux traitements fondés sur notre intérêt légitime.
            </li>
            <li>
              <strong>Droit à la limitation</strong> du traitement et droit de définir des directives relatives au
              sort de vos données après votre décès.
            </li>
          </ul>
          <p>
            Membre du réseau, vous exercez vous-même plusieurs de ces droits depuis la page{" "}
            <Link to="/parametres" className={textLinkClass}>
              Paramètres du compte
            </Link>{" "}
           &nbsp;: <strong>export de vos données</strong> dans un fichier JSON (accès et portabilité),{" "}
            <strong>suppression de votre compte</strong> (effacement&nbsp;; les messages que vous avez envoyés restent visibles
            de leurs destinataires sans votre nom ni votre adresse e-mail), choix des{" "}
            <strong>e-mails de notification</strong> (opposition, également possible par le lien de désabonnement de chaque
            notification), ainsi que la gestion de vos sessions et de la double authentification.
          </p>
          <p>
            Pour exercer ces droits autrement, écrivez à <LegalIdentifier value={LEGAL_IDENTITY.privacyEmail} /> en précisant
            l’adresse e-mail de votre compte. Nous répondons dans un délai d’un mois. Si vous estimez, après nous avoir
            contactés, que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la Commission
            nationale de l’informatique et des libertés (CNIL), 3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07,
            ou en ligne sur www.cnil.fr.
          </p>
        </LegalSection>
      </div>
    </PageContainer>
  );
}

import {
  BadgeCheck,
  FileText,
  Handshake,
  Lock,
  Scale,
  ShieldCheck,
  Star,
  UserCheck,
} from "lucide-react";
import { CallToAction, CheckList, IconCardGrid, type IconItem, PageSection, PresentationHeader } from "~/components/public-sections";
import { useRouteLoaderData } from "react-router";
import { PageContainer } from "~/components/page";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { ReputationRulesSection } from "~/features/trust/components/reputation-rules-section";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/tiers-confiance";
import { VERIFIED_MARK_RULE } from "~/features/trust/verification-rules";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Tiers de confiance",
    "Neutralité, confidentialité, validation des profils et médiation\u00a0: les garanties d’un tiers de confiance au service des professionnels de la transmission.",
  );

const PILLARS: IconItem[] = [
  {
    icon: Scale,
    title: "Neutralité",
    text: "Le réseau n’est partie à aucune opération\u00a0: il ne représente ni cédant ni acquéreur et n’intervient pas dans les négociations. Il garantit les mêmes règles pour tous ses membres.",
  },
  {
    icon: Lock,
    title: "Confidentialité",
    text: "Les mandats circulent sous un code client. Le nom et l’adresse du client ne sont communiqués qu’après l’acceptation de la mise en relation par les deux professionnels.",
  },
  {
    icon: UserCheck,
    title: "Validation des profils",
    text: "Aucun profil n’est publié sans contrôle\u00a0: vérification en cinq étapes, dont le parrainage par deux confrères et l’attestation d’assurance, puis validation finale par notre équipe.",
  },
  {
    icon: Handshake,
    title: "Médiation",
    text: "Si un désaccord survient entre membres, par exemple sur un partage d’honoraires, le réseau propose une médiation amiable et impartiale.",
  },
];

const ADVANTAGES = [
  "Un profil agréé publié dans l’annuaire public, consulté par les chefs d’entreprise qui cherchent un conseil",
  "L’accès aux mandats d’acquéreurs et de cédants déposés par vos confrères, selon votre formule d’adhésion",
  "Des propositions de rapprochement calculées selon le secteur, le territoire, la valorisation et l’apport",
  "Une messagerie interne pour échanger entre confrères en toute discrétion",
  "Des transactions certifiées par notre équipe, affichées sur votre profil",
  "Pour les membres fondateurs\u00a0: un badge à vie, une mise en avant dans l’annuaire et l’accès en avant-première aux nouveautés",
];

const GUARANTEES: IconItem[] = [
  {
    icon: UserCheck,
    title: "Vérification en 5 étapes",
    text: VERIFIED_MARK_RULE.steps,
  },
  {
    icon: FileText,
    title: "Charte éthique signée",
    text: "Chaque membre s’engage par écrit sur la loyauté, la confidentialité et le respect des mandats confiés par ses confrères.",
  },
  {
    icon: ShieldCheck,
    title: "Assurance responsabilité civile professionnelle",
    text: VERIFIED_MARK_RULE.insurance,
  },
  {
    icon: Star,
    title: "Notation des membres",
    text: "À la fin de chaque dossier, les deux confrères se notent sur la réactivité, le professionnalisme et la confidentialité\u00a0; les notes restent cachées jusqu’à ce que les deux aient noté ou que 14 jours soient passés, et les règles des badges sont publiées plus bas.",
  },
  {
    icon: Scale,
    title: "Médiation en cas de différend",
    text: "Depuis un dossier de rapprochement, chaque membre peut saisir notre équipe\u00a0: échanges datés avec les deux confrères, décision écrite, sans jamais exposer l’identité des clients.",
  },
  {
    icon: BadgeCheck,
    title: "Références certifiées",
    text: "Les opérations affichées sur les profils sont examinées par notre équipe avant publication\u00a0: seules les références validées sont visibles.",
  },
];

// Says honestly what the seal is: advanced, not qualified.
const SIGNATURE_LEVELS: { title: string; text: string }[] = [
  {
    title: "Ce que signent les membres",
    text: "Chaque membre signe la convention d’honoraires par une signature électronique simple au sens du règlement eIDAS : case de consentement, puis mot de passe ou code d’authentification. La date, l’adresse IP, le navigateur et l’empreinte SHA-256 du document signé figurent sur la page de certificat jointe au PDF.",
  },
  {
    title: "Ce que scelle la plateforme",
    text: "La convention signée, l’historique exporté d’un dossier et l’engagement de confidentialité sont scellés par un cachet électronique avancé de l’exploitant (PAdES), horodaté par une autorité d’horodatage (RFC 3161). Tout lecteur PDF (Adobe Acrobat, Okular, pdfsig) vérifie que le document n’a pas été modifié depuis et à quelle date il existait.",
  },
  {
    title: "Ce que ce n’est pas",
    text: "Ni une signature qualifiée ni un cachet qualifié : le certificat n’est pas délivré par un prestataire de services de confiance qualifié (liste de confiance européenne) et la clé n’est pas conservée dans un dispositif qualifié. Un prestataire qualifié ajouterait la vérification d’identité de chaque signataire, un certificat à son nom et la présomption de fiabilité que le droit attache à la signature qualifiée (art. 1367 du Code civil, eIDAS art. 25 et 35).",
  },
];

export default function TiersConfiance() {
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  const appName = root?.appName ?? "Réseau Transmission";

  return (
    <PageContainer className="space-y-16">
      <PresentationHeader kicker="Tiers de confiance" title="Un tiers de confiance neutre entre professionnels de la transmission">
        Partager un mandat, c’est confier à un confrère une part de la relation avec son client. {appName} encadre
        chaque collaboration par des règles claires, des profils vérifiés et une stricte confidentialité.
      </PresentationHeader>

      <PageSection id="pillars-title" title="Nos quatre piliers">
        <IconCardGrid items={PILLARS} className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-4" />
      </PageSection>

      <PageSection id="advantages-title" title="Les avantages pour les membres">
        <CheckList items={ADVANTAGES} className="mt-8 grid gap-4 md:grid-cols-2" />
      </PageSection>

      <PageSection id="guarantees-title" title="Nos six garanties">
        <IconCardGrid items={GUARANTEES} className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3" ordered />
      </PageSection>

      <PageSection id="signatures-title" title="Signatures et cachet électronique">
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {SIGNATURE_LEVELS.map((level) => (
            <li key={level.title}>
              <Card className="h-full">
                <CardHeader>
                  <h3 className="text-lg font-semibold break-words">{level.title}</h3>
                </CardHeader>
                <CardContent>
                  <p className="text-sm text-muted-foreground">{level.text}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </PageSection>

      <ReputationRulesSection />

      <CallToAction title="Rejoignez un réseau où la confiance se vérifie" links={[{ to: "/annuaire", label: "Consulter les professionnels agréés" }, { to: "/concept", label: "Comprendre le fonctionnement du réseau" }]}>
        Professionnel de la transmission, devenez membre. Chef d’entreprise, trouvez le conseil agréé qui vous
        accompagnera.
      </CallToAction>
    </PageContainer>
  );
}

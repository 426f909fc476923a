// The detail dialog's content (spec §2 "Detail dialog"): amounts in euros without decimals,
// 'Non spécifié' for what is missing. `MandateCriteria` shows business fields only and is
// reused for counterparts; the confidential block is given only the owner's data.
import type { ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { sectorLabel } from "~/db/reference";
import { formatDate, formatEuros, NOT_SPECIFIED } from "~/lib/format";
import {
  buyerTypeLabel,
  formatEuroRange,
  maUsageLabel,
  territoryLabel,
  timelineLabel,
} from "../mandate-rules";
import type { MandateCriteria, MandateRow } from "../mandate-row";

export type CriteriaFields = MandateCriteria;

export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[12rem_1fr] sm:gap-3">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function Chips({ items }: { items: string[] }) {
  if (items.length === 0) return <>{NOT_SPECIFIED}</>;
  return (
    <ul className="flex flex-wrap gap-1.5">
      {items.map((item) => (
        <li key={item}>
          <Badge variant="outline" className="font-normal">
            {item}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

export function MandateCriteria({ m, headingLevel = 3 }: { m: CriteriaFields; headingLevel?: 3 | 4 }) {
  const H = headingLevel === 3 ? "h3" : "h4";
  if (m.mandateType === "buyer") {
    return (
      <section className="grid gap-3">
        <H className="font-semibold">Critères de recherche</H>
        <dl className="grid gap-3">
          <DetailRow label="Secteurs recherchés">
            <Chips items={(m.searchSectors ?? []).map(sectorLabel)} />
          </DetailRow>
          <DetailRow label="Territoires">
            <Chips items={(m.searchTerritories ?? []).map(territoryLabel)} />
          </DetailRow>
          <DetailRow label="Montant cible">{formatEuroRange(m.targetAmountMin, m.targetAmountMax)}</DetailRow>
          <DetailRow label="Apport">{formatEuroRange(m.contributionMin, m.contributionMax)}</DetailRow>
          <DetailRow label="Usage du M&A">{maUsageLabel(m.maUsage)}</DetailRow>
        </dl>
      </section>
    );
  }
  return (
    <section className="grid gap-3">
      <H className="font-semibold">Informations sur l’entreprise</H>
      <dl className="grid gap-3">
        <DetailRow label="Secteur d’activité">{m.companySector ? sectorLabel(m.companySector) : NOT_SPECIFIED}</DetailRow>
        <DetailRow label="Localisation">{m.companyTerritory ? territoryLabel(m.companyTerritory) : NOT_SPECIFIED}</DetailRow>
        <DetailRow label="Description de l’entreprise">
          {m.companyDescription ? <span className="whitespace-pre-line">{m.companyDescription}</span> : NOT_SPECIFIED}
        </DetailRow>
        <DetailRow label="Valorisation">{formatEuros(m.valuationAmount)}</DetailRow>
        <DetailRow label="Délai du projet">{timelineLabel(m.projectTimeline)}</DetailRow>
        <DetailRow label="Apport requis">{formatEuroRange(m.requiredContributionMin, m.requiredContributionMax)}</DetailRow>
        <DetailRow label="Types d’acquéreurs ciblés">
          <Chips items={(m.targetBuyerTypes ?? []).map(buyerTypeLabel)} />
        </DetailRow>
      </dl>
    </section>
  );
}

export type OwnDetailFields = CriteriaFields & Pick<MandateRow, "startDate" | "endDate" | "isExclusive" | "description" | "clientName" | "clientAddress">;

export function MandateDetails({ m }: { m: OwnDetailFields }) {
  return (
    <div className="grid gap-6">
      <section className="grid gap-3">
        <h3 className="font-semibold">Informations générales</h3>
        <dl className="grid gap-3">
          <DetailRow label="Période">
            Du {formatDate(m.startDate)} au {formatDate(m.endDate)}
          </DetailRow>
          <DetailRow label="Exclusivité">{m.isExclusive ? "Mandat exclusif" : "Mandat non exclusif"}</DetailRow>
          {m.description ? (
            <DetailRow label="Description">
              <span className="whitespace-pre-line">{m.description}</span>
            </DetailRow>
          ) : null}
        </dl>
      </section>
      <section className="grid gap-3 rounded-md border border-amber-200 bg-amber-50 p-3">
        <h3 className="font-semibold">Informations client confidentielles</h3>
        <dl className="grid gap-3">
          <DetailRow label="Nom complet">{m.clientName}</DetailRow>
          <DetailRow label="Adresse">
            <span className="whitespace-pre-line">{m.clientAddress}</span>
          </DetailRow>
        </dl>
        <p className="text-xs text-amber-900">Visibles par vous seul, et par un confrère uniquement après une mise en relation confirmée.</p>
      </section>
      <MandateCriteria m={m} />
    </div>
  );
}

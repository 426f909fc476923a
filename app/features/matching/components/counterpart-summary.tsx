// Another member's mandate as it may be shown: client code, type, owner, business criteria.
import { sectorLabel } from "~/db/reference";
import { MANDATE_TYPE_LABELS, mandateSummaryLines } from "~/features/mandates/mandate-rules";
import type { CounterpartMandate } from "../counterpart.server";

export function CounterpartSummary({ m, heading: Heading = "h4" }: { m: CounterpartMandate; heading?: "h3" | "h4" | "h5" }) {
  const sectors =
    m.mandateType === "buyer" ? (m.searchSectors ?? []).map(sectorLabel).join(", ") : m.companySector ? sectorLabel(m.companySector) : "";
  return (
    <div className="grid gap-1 text-sm">
      <Heading className="font-semibold">
        {m.clientCode} <span className="font-normal text-muted-foreground">· {MANDATE_TYPE_LABELS[m.mandateType]}</span>
      </Heading>
      <p className="text-muted-foreground">
        {m.owner.firstName} {m.owner.lastName} — {m.owner.company}
      </p>
      {sectors ? (
        <p>
          <span className="text-muted-foreground">{m.mandateType === "buyer" ? "Secteurs" : "Secteur"}&nbsp;:</span> {sectors}
        </p>
      ) : null}
      <dl className="flex flex-wrap gap-x-4 gap-y-1">
        {mandateSummaryLines(m).map((l) => (
          <div key={l.label} className="flex gap-1">
            <dt className="text-muted-foreground">{l.label}&nbsp;:</dt>
            <dd>{l.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

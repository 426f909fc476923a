// The last step of the mandate form: what will be saved, step by step, each with its way back.
import { Button } from "~/components/ui/button";
import { formatDate, NOT_SPECIFIED } from "~/lib/format";
import { MANDATE_TYPE_LABELS } from "../mandate-rules";
import { mandateStepTitle, type MandateStep } from "../mandate-steps";
import type { MandateInput } from "../mandates.schema";
import { DetailRow, MandateCriteria } from "./mandate-details";

function Part({ step, type, onEdit, children }: { step: MandateStep; type: MandateInput["mandateType"]; onEdit: (step: MandateStep) => void; children: React.ReactNode }) {
  const title = mandateStepTitle(step, type);
  return (
    <section className="grid gap-3 rounded-md border p-4" aria-label={title}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{title}</h3>
        <Button type="button" variant="outline" size="sm" onClick={() => onEdit(step)}>
          Modifier<span className="sr-only">&nbsp;: {title}</span>
        </Button>
      </div>
      {children}
    </section>
  );
}

export function MandateReview({ value, onEdit }: { value: MandateInput; onEdit: (step: MandateStep) => void }) {
  return (
    <div className="grid gap-4" data-testid="mandate-review">
      <Part step="type" type={value.mandateType} onEdit={onEdit}>
        <dl className="grid gap-3">
          <DetailRow label="Type de mandat">{MANDATE_TYPE_LABELS[value.mandateType]}</DetailRow>
          <DetailRow label="Période">
            Du {formatDate(value.startDate)} au {formatDate(value.endDate)}
          </DetailRow>
        </dl>
      </Part>
      <Part step="details" type={value.mandateType} onEdit={onEdit}>
        <MandateCriteria m={value} headingLevel={4} />
        <dl className="grid gap-3">
          <DetailRow label="Description générale">
            {value.description ? <span className="whitespace-pre-line">{value.description}</span> : NOT_SPECIFIED}
          </DetailRow>
        </dl>
      </Part>
      <Part step="client" type={value.mandateType} onEdit={onEdit}>
        <dl className="grid gap-3">
          <DetailRow label="Initiales ou nom de code">{value.clientCode}</DetailRow>
          <DetailRow label="Nom du client">{value.clientName}</DetailRow>
          <DetailRow label="Adresse du client">
            <span className="whitespace-pre-line">{value.clientAddress}</span>
          </DetailRow>
        </dl>
      </Part>
    </div>
  );
}

// The last step of the mandate form: what will be saved, step by step, each with its way back.
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { formatDate, NOT_SPECIFIED } from "~/lib/format";
import { MANDATE_TYPE_LABELS, missingMatchCriteria, UNMATCHABLE_BUYER_TEXT } from "../mandate-rules";
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

/** A buyer mandate without a sector, a territory or an amount: said before it is created. */
function UnmatchableWarning({ value, onEdit }: { value: MandateInput; onEdit: (step: MandateStep) => void }) {
  const missing = missingMatchCriteria(value);
  if (missing.length === 0) return null;
  const last = missing.at(-1);
  const list = missing.length > 1 ? `${missing.slice(0, -1).join(", ")} ou ${last}` : last;
  return (
    <Alert variant="info" data-testid="unmatchable-warning">
      <AlertTitle>{UNMATCHABLE_BUYER_TEXT}</AlertTitle>
      <AlertDescription className="grid gap-2">
        <p>Le rapprochement compare les critères des deux mandats&nbsp;: ajoutez au moins {list} pour qu’il soit proposé aux confrères cédants.</p>
        <p>
          <Button type="button" variant="outline" size="sm" onClick={() => onEdit("details")}>
            Compléter les critères
          </Button>
        </p>
      </AlertDescription>
    </Alert>
  );
}

export function MandateReview({ value, onEdit }: { value: MandateInput; onEdit: (step: MandateStep) => void }) {
  return (
    <div className="grid gap-4" data-testid="mandate-review">
      <UnmatchableWarning value={value} onEdit={onEdit} />
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

// The forms both request pages (a founder's, a participant's) share: moving a request to a status
// its side may give, and the file field of an answer with a document.
import { Upload } from "lucide-react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { SelectField } from "~/components/form-field";
import { Input, Label } from "~/components/ui/input";
import { ACCEPTED_DOCUMENT_TYPES } from "~/features/collaboration/documents-rules";
import { DD_STATUS_LABELS, type DdStatus } from "../due-diligence-rules";

/** « Changer le statut »: the statuses the reader may choose now (nothing drawn without one). */
export function DdStatusForm({ statuses, size }: { statuses: readonly DdStatus[]; size?: "sm" }) {
  if (!statuses.length) return null;
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="status" />
      <SelectField id="dd-status" name="status" label="Changer le statut" values={statuses} labels={DD_STATUS_LABELS} defaultValue={statuses[0]} />
      <Button type="submit" variant="outline" size={size}>
        Appliquer
      </Button>
    </Form>
  );
}

/** The document that answers a request, and its submit button (inside the page's multipart form). */
export function DdAnswerFile({ label, hint, sending = false, primary }: { label: string; hint?: string; sending?: boolean; primary: boolean }) {
  return (
    <>
      <div className="grid min-w-0 gap-1">
        <Label htmlFor="dd-file">{label}</Label>
        <Input id="dd-file" name="file" type="file" required accept={ACCEPTED_DOCUMENT_TYPES} className="h-auto" aria-describedby={hint ? "dd-file-hint" : undefined} />
        {hint ? (
          <p id="dd-file-hint" className="text-sm text-muted-foreground">
            {hint}
          </p>
        ) : null}
      </div>
      <div>
        <Button type="submit" size="sm" variant={primary ? "default" : "outline"} disabled={sending}>
          <Upload aria-hidden="true" />
          {sending ? "Envoi en cours..." : "Déposer et rattacher"}
        </Button>
      </div>
    </>
  );
}

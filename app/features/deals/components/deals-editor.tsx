import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo, useRef, useState } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { FormError, TextField } from "~/components/form-field";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Checkbox, FieldError, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { SECTORS, sectorLabel } from "~/db/reference";
import { DEAL_REGIONS, DEAL_SIZE_BANDS, type DealDisclosure, sizeBandLabel } from "../deal-disclosure";
import { DEAL_LIMITS, DEAL_MESSAGES, DEAL_STATUS_LABELS, dealSchema, type DealStatus } from "../deal.schema";

export type EditorDeal = {
  id: string;
  year: number;
  sector: string;
  acquirerCedant: string;
  dealDescription: string | null;
  disclosure: DealDisclosure;
  sizeBand: string | null;
  region: string | null;
  status: DealStatus;
  rejectionReason: string | null;
};

export const DISCLOSURE_LABELS: Record<DealDisclosure, string> = {
  anonymised: "Publiée de façon anonymisée",
  named: "Publiée avec le nom des parties",
};

const STATUS_BADGE: Record<DealStatus, "warning" | "success" | "destructive"> = {
  pending: "warning",
  validated: "success",
  rejected: "destructive",
};

/** The certified-deals editor (M&A references) of the profile tab, premium members only. */
export function DealsEditor({
  deals,
  years,
  editing,
  lastResult,
}: {
  deals: EditorDeal[];
  years: number[];
  editing: EditorDeal | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <div className="grid gap-6">
      {deals.length === 0 ? (
        <p className="rounded-md border border-dashed p-4 text-sm text-muted-foreground">
          Aucune référence pour le moment. Ajoutez les opérations que vous avez accompagnées&nbsp;: une fois validées par un
          administrateur, elles apparaîtront sur votre profil public.
        </p>
      ) : (
        <ul aria-label="Vos références" className="grid gap-3">
          {deals.map((deal) => (
            <DealItem key={deal.id} deal={deal} />
          ))}
        </ul>
      )}
      <DealForm key={editing?.id ?? "new"} years={years} editing={editing} lastResult={lastResult} />
    </div>
  );
}

function DealItem({ deal }: { deal: EditorDeal }) {
  const name = `${deal.acquirerCedant} (${deal.year})`;
  return (
    <li className="grid gap-2 rounded-md border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="break-words font-medium">{deal.acquirerCedant}</p>
          <p className="text-sm text-muted-foreground">
            {[String(deal.year), sectorLabel(deal.sector), sizeBandLabel(deal.sizeBand), deal.region].filter(Boolean).join(" · ")}
          </p>
          <p className="text-xs text-muted-foreground">{DISCLOSURE_LABELS[deal.disclosure]}</p>
        </div>
        <Badge variant={STATUS_BADGE[deal.status]}>{DEAL_STATUS_LABELS[deal.status]}</Badge>
      </div>
      {deal.dealDescription ? <p className="whitespace-pre-line break-words text-sm">{deal.dealDescription}</p> : null}
      {deal.status === "rejected" ? (
        <p className="rounded-md bg-red-50 p-2 text-sm text-red-900">
          <span className="font-medium">Motif du refus&nbsp;: </span>
          {deal.rejectionReason?.trim() ? deal.rejectionReason : "aucun motif n’a été précisé."}
        </p>
      ) : null}
      {deal.status === "pending" ? <p className="text-xs text-muted-foreground">{DEAL_MESSAGES.pendingInfo}</p> : null}
      <div className="flex flex-wrap gap-2">
        {/* A validated reference cannot be edited any more (spec §4), only deleted. */}
        {deal.status !== "validated" ? (
          <Button asChild variant="outline" size="sm">
            <Link to={`?reference=${deal.id}#deal-form`} aria-label={`Modifier la référence ${name}`}>
              Modifier
            </Link>
          </Button>
        ) : null}
        <DeleteDealButton dealId={deal.id} name={name} />
      </div>
    </li>
  );
}

/**
 * Without JavaScript the button submits the deletion directly; with it, a confirmation dialog
 * comes first.
 */
function DeleteDealButton({ dealId, name }: { dealId: string; name: string }) {
  const [open, setOpen] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "deal-delete" && navigation.formData?.get("dealId") === dealId;
  return (
    <>
      <Form method="post" preventScrollReset ref={formRef}>
        <input type="hidden" name="intent" value="deal-delete" />
        <input type="hidden" name="dealId" value={dealId} />
        <Button
          type="submit"
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          disabled={busy}
          aria-label={`Supprimer la référence ${name}`}
          onClick={(event) => {
            event.preventDefault();
            setOpen(true);
          }}
        >
          {busy ? "Suppression..." : "Supprimer"}
        </Button>
      </Form>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Supprimer la référence</DialogTitle>
            <DialogDescription>
              Êtes-vous sûr de vouloir supprimer la référence «&nbsp;{name}&nbsp;»&nbsp;? Cette action est irréversible.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Annuler
            </Button>
            <Button
              type="button"
              variant="destructive"
              onClick={() => {
                setOpen(false);
                if (formRef.current) void submit(formRef.current, { method: "post", preventScrollReset: true });
              }}
            >
              Supprimer
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

function DealForm({ years, editing, lastResult }: { years: number[]; editing: EditorDeal | null; lastResult?: SubmissionResult<string[]> }) {
  const schema = useMemo(() => dealSchema(), []);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "deal-save";
  const [form, fields] = useForm({
    id: editing ? `deal-${editing.id}` : "deal-new",
    lastResult,
    defaultValue: editing
      ? {
          year: String(editing.year),
          sector: editing.sector,
          acquirerCedant: editing.acquirerCedant,
          dealDescription: editing.dealDescription ?? "",
          disclosure: editing.disclosure,
          sizeBand: editing.sizeBand ?? "",
          region: editing.region ?? "",
        }
      : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const title = editing ? "Modifier la référence" : "Ajouter une référence";
  // After a refused submission (even without JavaScript) the member's choice comes back with the checkbox.
  const [disclosure, setDisclosure] = useState<DealDisclosure>(
    fields.disclosure.initialValue === "named" || fields.disclosure.initialValue === "anonymised" ? fields.disclosure.initialValue : "anonymised",
  );
  return (
    <div id="deal-form" className="scroll-mt-4">
    <Form method="post" preventScrollReset {...getFormProps(form)} aria-labelledby="deal-form-title" className="grid gap-4 rounded-md border bg-muted/40 p-4">
      <h4 id="deal-form-title" className="font-semibold">
        {title}
      </h4>
      {editing ? <input type="hidden" name="dealId" value={editing.id} /> : null}
      <FormError form={form} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={fields.year.id}>Année</Label>
          <NativeSelect
            {...getSelectProps(fields.year)}
            key={fields.year.key}
            aria-required="true"
            aria-invalid={fields.year.errors ? true : undefined}
            aria-describedby={fields.year.errors ? fields.year.errorId : undefined}
          >
            <option value="">Sélectionnez l’année</option>
            {years.map((y) => (
              <option key={y} value={String(y)}>
                {y}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={fields.year.errorId} errors={fields.year.errors} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={fields.sector.id}>Secteur</Label>
          <NativeSelect
            {...getSelectProps(fields.sector)}
            key={fields.sector.key}
            aria-required="true"
            aria-invalid={fields.sector.errors ? true : undefined}
            aria-describedby={fields.sector.errors ? fields.sector.errorId : undefined}
          >
            <option value="">Sélectionnez le secteur</option>
            {SECTORS.map((s) => (
              <option key={s.code} value={s.code}>
                {sectorLabel(s.code)}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={fields.sector.errorId} errors={fields.sector.errors} />
        </div>
      </div>
      <TextField
        label="Transaction (acquéreur / cédant)"
        hint="Par exemple : Cession d’une PME industrielle à un groupe familial. Les administrateurs la voient ; le public seulement si vous nommez les parties."
        inputProps={{ ...getInputProps(fields.acquirerCedant, { type: "text" }), key: fields.acquirerCedant.key, maxLength: DEAL_LIMITS.acquirerCedant, "aria-required": true }}
        errors={fields.acquirerCedant.errors}
        errorId={fields.acquirerCedant.errorId}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={fields.sizeBand.id}>Valeur de l’opération (facultatif)</Label>
          <NativeSelect {...getSelectProps(fields.sizeBand)} key={fields.sizeBand.key} aria-invalid={fields.sizeBand.errors ? true : undefined}>
            <option value="">Non précisée</option>
            {DEAL_SIZE_BANDS.map((b) => (
              <option key={b.code} value={b.code}>
                {b.label}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={fields.sizeBand.errorId} errors={fields.sizeBand.errors} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={fields.region.id}>Région (facultatif)</Label>
          <NativeSelect {...getSelectProps(fields.region)} key={fields.region.key} aria-invalid={fields.region.errors ? true : undefined}>
            <option value="">Non précisée</option>
            {DEAL_REGIONS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={fields.region.errorId} errors={fields.region.errors} />
        </div>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Sur votre profil public</legend>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name={fields.disclosure.name}
            value="anonymised"
            checked={disclosure === "anonymised"}
            onChange={() => setDisclosure("anonymised")}
            className="mt-0.5 h-4 w-4"
          />
          <span>
            Description anonymisée (recommandé)&nbsp;: seuls le secteur, la valeur, la région et la date de l’opération sont publiés, sans le nom des parties ni la description
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name={fields.disclosure.name}
            value="named"
            checked={disclosure === "named"}
            onChange={() => setDisclosure("named")}
            className="mt-0.5 h-4 w-4"
          />
          <span>Nommer les parties et publier la description</span>
        </label>
        {disclosure === "named" ? (
          <label className="ml-6 flex items-start gap-2 text-sm">
            <Checkbox
              name={fields.partiesConsent.name}
              value="on"
              aria-required="true"
              aria-invalid={fields.partiesConsent.errors ? true : undefined}
              aria-describedby={fields.partiesConsent.errors ? fields.partiesConsent.errorId : undefined}
              className="mt-0.5"
            />
            <span>Je certifie que les parties ont accepté que leur nom soit publié.</span>
          </label>
        ) : null}
        <FieldError id={fields.partiesConsent.errorId} errors={fields.partiesConsent.errors} />
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor={fields.dealDescription.id}>Description (facultatif)</Label>
        <Textarea
          {...getTextareaProps(fields.dealDescription)}
          key={fields.dealDescription.key}
          rows={3}
          maxLength={DEAL_LIMITS.description}
          aria-invalid={fields.dealDescription.errors ? true : undefined}
          aria-describedby={fields.dealDescription.errors ? fields.dealDescription.errorId : undefined}
        />
        <FieldError id={fields.dealDescription.errorId} errors={fields.dealDescription.errors} />
      </div>
      <p className="text-xs text-muted-foreground">{DEAL_MESSAGES.pendingInfo}</p>
      <div className="flex flex-wrap gap-2">
        {/* Outline: the profile page's primary action is « Sauvegarder ». */}
        <Button type="submit" name="intent" value="deal-save" disabled={busy} variant="outline">
          {busy ? "Enregistrement..." : editing ? "Mettre à jour la référence" : "Ajouter la référence"}
        </Button>
        {editing ? (
          <Button asChild variant="outline">
            <Link to="/dashboard/profil#references">Annuler</Link>
          </Button>
        ) : null}
      </div>
    </Form>
    </div>
  );
}

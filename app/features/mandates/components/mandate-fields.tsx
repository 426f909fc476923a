// The fields of the mandate form: text, amount (€ and thousands separators as typed), select,
// checkbox group. Each shows its label, its hint, its error, and a mark when it is required.
import { type FieldMetadata, getInputProps, getSelectProps } from "@conform-to/react";
import { useLayoutEffect, useRef, useState } from "react";
import { Checkbox, FieldError, Input, Label, NativeSelect } from "~/components/ui/input";
import { useHydrated } from "~/lib/use-hydrated";
import { caretAfterDigits, digitsBefore, formatAmountInput } from "../amount-input";
import type { OptionGroup } from "../regions";

type Text = string | undefined;
type List = string[] | undefined;

/** The mandate form's fields as submitted (all text; lists from repeated checkboxes). */
export type MandateFormValues = {
  mandateId?: Text;
  mandateType?: Text;
  isExclusive?: Text;
  startDate?: Text;
  endDate?: Text;
  clientCode?: Text;
  clientName?: Text;
  clientAddress?: Text;
  description?: Text;
  searchSectors?: List;
  searchTerritories?: List;
  targetAmountMin?: Text;
  targetAmountMax?: Text;
  contributionMin?: Text;
  contributionMax?: Text;
  maUsage?: Text;
  companySector?: Text;
  companyTerritory?: Text;
  companyDescription?: Text;
  valuationAmount?: Text;
  requiredContributionMin?: Text;
  requiredContributionMax?: Text;
  projectTimeline?: Text;
  targetBuyerTypes?: List;
};
type TextField = FieldMetadata<Text, MandateFormValues>;
export type ListField = FieldMetadata<List, MandateFormValues>;

export function asArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" && value ? [value] : [];
}

export function describedBy(...ids: Array<string | false | undefined | null>) {
  const list = ids.filter(Boolean).join(" ");
  return list || undefined;
}

/** The mark of a required field; the form's legend explains it. */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-destructive">
      *
    </span>
  );
}

export function TextInput({
  field,
  label,
  hint,
  type = "text",
  autoComplete,
  maxLength,
  required = false,
}: {
  field: TextField;
  label: string;
  hint?: string;
  type?: "text" | "date";
  autoComplete?: string;
  maxLength?: number;
  required?: boolean;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={field.id}>
        {label}
        {required ? <RequiredMark /> : null}
      </Label>
      <Input
        {...getInputProps(field, { type })}
        key={field.key}
        autoComplete={autoComplete ?? "off"}
        maxLength={maxLength}
        aria-required={required || undefined}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={describedBy(hintId, field.errors && field.errorId)}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

/**
 * An amount in euros. Once JavaScript runs, the visible field shows '1 234 567' as it is typed
 * (the caret stays after the digit typed) and a hidden input submits '1234567'. Before that, the
 * visible field is submitted as typed, which the server reads the same way.
 */
export function AmountInput({ field, label, onBlur }: { field: TextField; label: string; onBlur?: (name: string) => void }) {
  const hydrated = useHydrated();
  const initial = formatAmountInput(typeof field.initialValue === "string" ? field.initialValue : "");
  const [state, setState] = useState(initial);
  const ref = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);
  const hintId = `${field.id}-hint`;
  useLayoutEffect(() => {
    if (caret.current !== null && ref.current && document.activeElement === ref.current) {
      const at = caretAfterDigits(state.display, caret.current);
      ref.current.setSelectionRange(at, at);
    }
    caret.current = null;
  }, [state]);
  const common = {
    id: field.id,
    inputMode: "numeric" as const,
    autoComplete: "off",
    maxLength: 24,
    className: "pr-8",
    "aria-invalid": field.errors ? true : undefined,
    "aria-describedby": describedBy(hintId, field.errors && field.errorId),
  };
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={field.id}>{label}</Label>
      <div className="relative">
        {hydrated ? (
          <>
            <Input
              {...common}
              ref={ref}
              value={state.display}
              onChange={(e) => {
                const el = e.currentTarget;
                caret.current = digitsBefore(el.value, el.selectionStart ?? el.value.length);
                setState(formatAmountInput(el.value));
              }}
              onBlur={() => onBlur?.(field.name)}
            />
            <input type="hidden" name={field.name} value={state.value} />
          </>
        ) : (
          <Input {...common} name={field.name} defaultValue={initial.display} />
        )}
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-muted-foreground">
          €
        </span>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        En euros, par exemple 500&nbsp;000
      </p>
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function SelectInput({
  field,
  label,
  options,
  groups,
  placeholder = "Non spécifié",
}: {
  field: TextField;
  label: string;
  options?: ReadonlyArray<{ value: string; label: string }>;
  groups?: readonly OptionGroup[];
  placeholder?: string;
}) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={field.id}>{label}</Label>
      <NativeSelect
        {...getSelectProps(field)}
        key={field.key}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={field.errors ? field.errorId : undefined}
      >
        <option value="">{placeholder}</option>
        {options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {groups?.map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </optgroup>
        ))}
      </NativeSelect>
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function CheckboxGroup({
  field,
  legend,
  options,
}: {
  field: ListField;
  legend: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  const initial = asArray(field.initialValue);
  return (
    <fieldset className="grid gap-2" aria-describedby={field.errors ? field.errorId : undefined}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div className="grid gap-1 sm:grid-cols-2">
        {options.map((o) => (
          <label key={o.value} className="flex items-start gap-2 rounded px-1 py-1 text-sm hover:bg-muted">
            <Checkbox
              name={field.name}
              value={o.value}
              defaultChecked={initial.includes(o.value)}
              className="mt-0.5"
              key={`${field.key ?? ""}-${o.value}`}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      <FieldError id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

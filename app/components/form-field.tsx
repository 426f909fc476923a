import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type * as React from "react";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldError, Input, Label, NativeSelect } from "~/components/ui/input";

/** Label + input + first error, wired for screen readers. */
export function TextField({
  label,
  inputProps,
  errors,
  errorId,
  hint,
}: {
  label: string;
  inputProps: React.ComponentProps<"input"> & { id: string };
  errors?: string[];
  errorId?: string;
  hint?: string;
}) {
  const eid = errorId ?? `${inputProps.id}-error`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={inputProps.id}>{label}</Label>
      <Input {...inputProps} aria-invalid={errors?.length ? true : undefined} aria-describedby={errors?.length ? eid : undefined} />
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
      <FieldError id={eid} errors={errors} />
    </div>
  );
}

/** Label + a native select of a fixed list of values, each shown by its label. */
export function SelectField<T extends string>({
  id,
  name,
  label,
  values,
  labels,
  defaultValue,
  required,
}: {
  id: string;
  name: string;
  label: string;
  values: readonly T[];
  labels: Record<T, string>;
  defaultValue?: T;
  required?: boolean;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} name={name} required={required} defaultValue={defaultValue}>
        {values.map((v) => (
          <option key={v} value={v}>
            {labels[v]}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/** The form-level error of a Conform form (`form.errors`), shown above its fields. */
export function FormError({ form }: { form: { errors?: string[]; errorId: string } }) {
  return form.errors?.length ? (
    <Alert variant="destructive" id={form.errorId}>
      <AlertDescription>{form.errors[0]}</AlertDescription>
    </Alert>
  ) : null;
}

/** An e-mail or password field of a Conform form, with the browser's autofill hint. */
export function CredentialField({
  field,
  label,
  type,
  autoComplete,
  hint,
}: {
  field: FieldMetadata<string>;
  label: string;
  type: "email" | "password";
  autoComplete: "email" | "current-password" | "new-password";
  hint?: string;
}) {
  return (
    <TextField
      label={label}
      hint={hint}
      inputProps={{ ...getInputProps(field, { type }), autoComplete, key: field.key }}
      errors={field.errors}
    />
  );
}

/** The form's submit button: disabled and saying what happens while the form is sent. */
export function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: React.ReactNode }) {
  return (
    <Button type="submit" disabled={busy}>
      {busy ? busyLabel : children}
    </Button>
  );
}

import type * as React from "react";
import { FieldError, Input, Label } from "~/components/ui/input";

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

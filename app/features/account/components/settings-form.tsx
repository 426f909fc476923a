// Small pieces shared by the settings forms: one Conform form per intent, its submit button with
// a busy label, and the form-level error.
import { type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type * as React from "react";
import { useNavigation } from "react-router";
import type { z } from "zod";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button, type ButtonProps } from "~/components/ui/button";

export type SettingsActionData = {
  intent: string;
  result: SubmissionResult<string[]>;
  /** Backup codes to show once, right after activation or regeneration. */
  backupCodes?: string[];
};

export function useSettingsForm(intent: string, schema: z.ZodType, actionData: SettingsActionData | undefined) {
  return useForm({
    id: `settings-${intent}`,
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

export function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

export function SubmitButton({
  intent,
  label,
  busyLabel,
  ...props
}: { intent: string; label: string; busyLabel: string } & Omit<ButtonProps, "type" | "name" | "value">) {
  const busy = useBusy(intent);
  return (
    <Button type="submit" disabled={busy} {...props}>
      {busy ? busyLabel : label}
    </Button>
  );
}

/** Each form names its intent in a hidden field (the schemas check it). */
export function IntentField({ intent }: { intent: string }) {
  return <input type="hidden" name="intent" value={intent} />;
}

export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <Alert variant="destructive" id={id}>
      <AlertDescription>{errors[0]}</AlertDescription>
    </Alert>
  );
}

export function SettingsSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-titre`} className="scroll-mt-6 rounded-lg border bg-background shadow-sm">
      <div className="flex flex-col gap-1.5 p-4 sm:p-6">
        <h2 id={`${id}-titre`} tabIndex={-1} className="text-xl font-semibold leading-tight focus:outline-none">
          {title}
        </h2>
        {description ? <div className="text-sm text-muted-foreground">{description}</div> : null}
      </div>
      <div className="grid gap-6 p-4 pt-0 sm:p-6 sm:pt-0">{children}</div>
    </section>
  );
}

import { type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { getOnboardingState } from "../onboarding.server";

/** What the onboarding action answers: the step it ran and conform's reply. */
export type OnboardingActionResult = { intent: string; result: SubmissionResult<string[]> };

/** What the onboarding page's loader gives its steps. */
export type OnboardingView = Awaited<ReturnType<typeof getOnboardingState>> & { email: string; paymentConfirming: boolean; today: string };

export function FormAlert({ errors, id }: { errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <Alert variant="destructive" id={id}>
      <AlertDescription>{errors[0]}</AlertDescription>
    </Alert>
  );
}

export function useStepForm<S extends Parameters<typeof parseWithZod>[1]["schema"]>(intent: string, schema: S, actionData: OnboardingActionResult | undefined, defaultValue?: Record<string, string>) {
  return useForm({
    id: `onboarding-${intent}`,
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

export function SubmitButton({ label, intent, variant }: { label: string; intent: string; variant?: "accent" | "outline" }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    // Long labels ("Devenir membre fondateur — 250 €/an") wrap inside their card on a phone.
    <Button type="submit" name="intent" value={intent} disabled={busy} size="lg" variant={variant} className="whitespace-normal">
      {busy ? "Enregistrement..." : label}
    </Button>
  );
}

// Creating or editing a mandate is a page of its own, at the URLs the dialog had
// (/mandates?nouveau=1, /mandates?modifier=…): on a phone it fills the screen like any page. A
// freemium member who has used the semester's 3 mandates sees the limit here, before any field.
import type { SubmissionResult } from "@conform-to/react";
import { Link } from "react-router";
import { BackLink, PageContainer, PageTitle } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { MANDATE_MESSAGES, quotaBanner } from "../mandate-rules";
import type { OwnMandate } from "../mandates.server";
import { MandateForm, mandateFormDefaults } from "./mandate-form";

const TITLE_ID = "mandate-form-title";

export function MandateFormPage({
  mandate,
  today,
  quota,
  lastResult,
  cancelTo,
}: {
  /** The mandate edited; none to create one. */
  mandate?: OwnMandate;
  today: string;
  quota: { used: number; canCreate: boolean } | null;
  lastResult?: SubmissionResult<string[]>;
  cancelTo: string;
}) {
  const mode = mandate ? "edit" : "create";
  const blocked = mode === "create" && quota !== null && !quota.canCreate;
  return (
    <PageContainer className="max-w-3xl py-6 sm:py-8">
      <BackLink to={cancelTo} label="Retour à mes mandats" />
      <PageTitle id={TITLE_ID}>{mandate ? "Modifier le mandat" : "Nouveau mandat"}</PageTitle>
      {mandate ? <p className="mt-1 text-muted-foreground">Mandat {mandate.clientCode}</p> : null}
      <div className="mt-6">
        {blocked ? (
          <div className="grid gap-4" data-testid="mandate-quota-reached">
            <Alert variant="info">
              <AlertDescription>
                <p className="font-semibold">{quotaBanner(quota.used)}</p>
                <p className="mt-1">{MANDATE_MESSAGES.quotaReached}</p>
              </AlertDescription>
            </Alert>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button asChild>
                <Link to="/premium">Découvrir Premium</Link>
              </Button>
              <Button asChild variant="outline">
                <Link to={cancelTo}>Revenir à mes mandats</Link>
              </Button>
            </div>
          </div>
        ) : (
          <MandateForm
            key={mandate?.id ?? "new"}
            mode={mode}
            defaultValue={mandateFormDefaults(mandate, today)}
            lastResult={lastResult}
            quota={mode === "create" ? quota : null}
            cancelTo={cancelTo}
            labelledBy={TITLE_ID}
          />
        )}
      </div>
    </PageContainer>
  );
}

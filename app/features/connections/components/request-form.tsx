// 'Demander une mise en relation': the target's summary, an optional message, Annuler and
// 'Envoyer la demande' (spec §2, §5).
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { DismissLink } from "~/components/page";
import { Label, Textarea } from "~/components/ui/input";
import { CounterpartSummary } from "~/features/matching/components/counterpart-summary";
import { MatchHeader, ScoreBreakdownList } from "~/features/matching/components/score-breakdown";
import type { CriteriaVerdicts, ScoreBreakdown } from "~/features/matching/match-score";
import type { CounterpartMandate } from "~/features/matching/counterpart.server";
import { MATCH_REQUEST_MESSAGE_MAX } from "../connections.schema";

export function RequestForm({
  mandateId,
  ownCode,
  target,
  score,
  criteria,
  returnTo,
  cancelTo,
}: {
  mandateId: string;
  ownCode: string;
  target: CounterpartMandate;
  score: ScoreBreakdown | null;
  criteria: CriteriaVerdicts | null;
  returnTo: string;
  cancelTo: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "request";
  return (
    <Form method="post" action="/mandates" preventScrollReset className="grid gap-4">
      <input type="hidden" name="intent" value="request" />
      <input type="hidden" name="mandateId" value={mandateId} />
      <input type="hidden" name="targetMandateId" value={target.id} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <div className="grid gap-2 rounded-md border p-3">
        <MatchHeader total={score ? score.total : null}>
          <CounterpartSummary m={target} heading="h3" />
        </MatchHeader>
        {criteria ? <ScoreBreakdownList criteria={criteria} /> : null}
      </div>
      <p className="text-sm text-muted-foreground">
        Demande envoyée depuis votre mandat «&nbsp;{ownCode}&nbsp;». Le propriétaire du mandat est prévenu par e-mail&nbsp;; l’identité des
        clients reste confidentielle jusqu’à l’accord des deux parties.
      </p>
      <div className="grid gap-2">
        <Label htmlFor="match-request-message">Message (facultatif)</Label>
        <Textarea id="match-request-message" name="message" rows={4} maxLength={MATCH_REQUEST_MESSAGE_MAX} />
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DismissLink to={cancelTo} label="Annuler" />
        <Button type="submit" disabled={busy}>
          {busy ? "Envoi en cours..." : "Envoyer la demande"}
        </Button>
      </div>
    </Form>
  );
}

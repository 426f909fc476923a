// The file page's two cards after the offer: the state of the actor's own mandate (negotiation,
// back to the search, concluded) and, once the file is concluded, the proposal of
// the closing as a certified deal.
import { Award, Handshake, RotateCcw } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import type { FileView } from "../file-view.server";
import { actionVariant, type FileAction } from "../next-action-rules";
import type { IntentResult } from "./file-stages";

function IntentError({ result, intents }: { result?: IntentResult; intents: string[] }) {
  if (!result || !intents.includes(result.intent)) return null;
  return (
    <Alert variant="destructive">
      <AlertDescription>{result.error}</AlertDescription>
    </Alert>
  );
}

const MANDATE_INTENTS = ["negotiate", "resume-search", "conclude-mandate"];

/** « Votre mandat »: its status and what the actor may do with it from this file. */
export function MandateStateCard({ file, result, primary }: { file: FileView; result?: IntentResult; primary: FileAction | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const m = file.myMandate;
  if (!m.id || !m.status) return null;
  const can = (c: (typeof m.commands)[number]) => m.commands.includes(c);
  return (
    <Card className="grid gap-3 p-4" aria-labelledby="my-mandate-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="my-mandate-title" className="text-lg font-semibold">
          Votre mandat
        </h3>
        <Badge variant={m.status === "negotiating" ? "default" : "secondary"} data-testid="my-mandate-status">
          {m.statusLabel}
        </Badge>
      </div>
      <p className="break-words text-sm">{m.label}</p>
      {m.status === "negotiating" ? (
        <p className="text-sm text-muted-foreground">
          En négociation&nbsp;: ce mandat n’est plus proposé aux confrères comme mandat compatible. Ses demandes et ses dossiers restent
          ouverts
          {file.stage === "abandoned"
            ? ". Ce dossier étant abandonné, remettez-le en recherche active pour qu’il soit de nouveau proposé."
            : "\u00a0; il sera conclu avec ce dossier quand les deux membres en auront confirmé la conclusion."}
        </p>
      ) : null}
      {can("negotiate") ? (
        <p className="text-sm text-muted-foreground">
          Une offre est en cours&nbsp;: mettez ce mandat en négociation pour ne plus le proposer à de nouveaux confrères pendant ce temps.
        </p>
      ) : null}
      <IntentError result={result} intents={MANDATE_INTENTS} />
      <div className="flex flex-wrap gap-2">
        {can("negotiate") ? (
          <Form method="post">
            <Button type="submit" name="intent" value="negotiate" variant={actionVariant(primary, "negotiate")} disabled={busy}>
              <Handshake aria-hidden="true" />
              Passer en négociation
            </Button>
          </Form>
        ) : null}
        {can("resume") ? (
          <Form method="post">
            <Button type="submit" name="intent" value="resume-search" variant="outline" disabled={busy}>
              <RotateCcw aria-hidden="true" />
              Remettre en recherche active
            </Button>
          </Form>
        ) : null}
        {can("conclude") ? (
          <Form method="post">
            <Button type="submit" name="intent" value="conclude-mandate" variant="outline" disabled={busy}>
              Marquer mon mandat comme conclu
            </Button>
          </Form>
        ) : null}
      </div>
    </Card>
  );
}

/** « Proposer comme deal certifié », on a concluded file. */
export function DealProposalCard({
  file,
  canProposeDeals,
  result,
  primary,
}: {
  file: FileView;
  canProposeDeals: boolean;
  result?: IntentResult;
  primary: FileAction | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  if (file.stage !== "concluded") return null;
  return (
    <Card className="grid gap-3 p-4" aria-labelledby="deal-proposal-title">
      <h3 id="deal-proposal-title" className="flex items-center gap-2 text-lg font-semibold">
        <Award className="h-5 w-5 text-muted-foreground" aria-hidden="true" />
        Référence certifiée
      </h3>
      {file.dealProposed ? (
        <p className="text-sm" data-testid="deal-proposed">
          Vous avez proposé ce dossier comme transaction certifiée. Retrouvez-la et son statut dans{" "}
          <Link className="text-primary underline" to="/dashboard/profil">
            votre profil
          </Link>
          .
        </p>
      ) : canProposeDeals ? (
        <>
          <p className="text-sm text-muted-foreground">
            Ajoutez cette opération à vos transactions M&A certifiées&nbsp;: l’année et le secteur sont repris du dossier, sans aucun nom de
            client ni montant. Elle sera visible sur votre profil public après validation par un administrateur.
          </p>
          <IntentError result={result} intents={["propose-deal"]} />
          <Form method="post">
            <Button type="submit" name="intent" value="propose-deal" variant={actionVariant(primary, "propose-deal")} disabled={busy}>
              Proposer comme transaction certifiée
            </Button>
          </Form>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">
          Les transactions M&A certifiées de votre profil sont réservées aux membres Premium.{" "}
          <Link className="text-primary underline" to="/premium">
            Découvrir Premium
          </Link>
        </p>
      )}
    </Card>
  );
}

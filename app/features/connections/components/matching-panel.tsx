// 'Matching pour le mandat' (spec §2 "Matching panel"), in the order a member acts: counters,
// what waits for the member (undertakings to sign, requests to answer), the ranked potential
// mandates with their score and its reasons, the answered requests, 'Proposer un de mes
// mandats', the sent requests, and the confirmed connections with the introduction log.
import { CheckCircle2, FolderOpen, Handshake, Send } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { CounterpartSummary } from "~/features/matching/components/counterpart-summary";
import { MatchHeader, ScoreBreakdownList } from "~/features/matching/components/score-breakdown";
import { MATCH_COUNT_CAP, matchCountLabel } from "~/features/mandates/mandate-rules";
import { listCut } from "~/features/matching/match-score";
import { formatDateTime } from "~/lib/format";
import { OPPORTUNITY_QUOTA_REACHED, opportunityBanner } from "~/features/mandates/mandate-rules";
import { panelLists, REQUEST_STATUS_LABELS, type RequestStatus } from "../connection-rules";
import type { MatchingPanel as PanelData, PanelRequest, Relation } from "../matching-panel.server";
import { UndertakingConsent } from "./undertaking-consent";

const STATUS_VARIANT = { pending: "warning", accepted: "success", rejected: "destructive" } as const;

export function RequestStatusBadge({ status }: { status: RequestStatus }) {
  return <Badge variant={STATUS_VARIANT[status]}>{REQUEST_STATUS_LABELS[status]}</Badge>;
}

function useBusy(intent: string, key: string, value: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent && navigation.formData?.get(key) === value;
}

function ActionForm({
  intent,
  fields,
  returnTo,
  children,
}: {
  intent: string;
  fields: Record<string, string>;
  returnTo: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" action="/mandates" preventScrollReset className="inline">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="returnTo" value={returnTo} />
      {children}
    </Form>
  );
}

function Counter({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border bg-muted/40 p-3 text-center">
      <p className="text-2xl font-bold">{value}</p>
      <p className="text-xs text-muted-foreground">{label}</p>
    </div>
  );
}

function IntroductionLog({ relation }: { relation: Relation }) {
  if (relation.log.length === 0) return null;
  return (
    <details className="rounded-md border bg-muted/30 p-2 text-sm">
      <summary className="cursor-pointer font-medium">Historique de la mise en relation</summary>
      <ol className="mt-2 grid gap-1.5">
        {relation.log.map((e) => (
          <li key={e.id} className="grid gap-0.5 sm:grid-cols-[9.5rem_1fr] sm:gap-2">
            <time dateTime={e.at} className="text-muted-foreground">
              {formatDateTime(e.at)}
            </time>
            <span>
              {e.label} — {e.byMe ? "vous" : (e.actorName ?? "membre supprimé")}
              {e.message ? <span className="block whitespace-pre-line text-muted-foreground">«&nbsp;{e.message}&nbsp;»</span> : null}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}

function RequestMeta({ request, direction }: { request: PanelRequest; direction: "sent" | "received" }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
      <RequestStatusBadge status={request.status} />
      <span>
        {direction === "sent" ? "Envoyée" : "Reçue"} le {formatDateTime(request.createdAt)}
      </span>
    </div>
  );
}

/** `primary`: this row holds the panel's one primary action (the first thing to do). */
function Connection({ relation, returnTo, primary = false }: { relation: Relation; returnTo: string; primary?: boolean }) {
  const requestId = relation.received?.id ?? relation.sent?.id ?? "";
  const signing = useBusy("sign-undertaking", "requestId", requestId);
  const checkboxId = `undertaking-${relation.counterpart.id}`;
  return (
    <li className="grid gap-3 rounded-lg border border-green-300 bg-green-50/40 p-3" data-testid="connection">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <CounterpartSummary m={relation.counterpart} />
        <Badge variant="success" className="gap-1">
          <CheckCircle2 className="h-3 w-3" aria-hidden="true" />
          Mise en relation confirmée
        </Badge>
      </div>
      {relation.contactEmail ? (
        <p className="text-sm">
          Contact&nbsp;: {relation.counterpart.owner.firstName} {relation.counterpart.owner.lastName},{" "}
          <a className="underline" href={`mailto:${relation.contactEmail}`}>
            {relation.contactEmail}
          </a>
        </p>
      ) : null}
      {relation.client ? (
        <div className="grid gap-1 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="revealed-client">
          <p className="font-semibold">Client du confrère (confidentiel)</p>
          <p>
            <span className="text-muted-foreground">Nom&nbsp;: </span>
            {relation.client.name}
          </p>
          <p className="whitespace-pre-line">
            <span className="text-muted-foreground">Adresse&nbsp;: </span>
            {relation.client.address}
          </p>
          {relation.undertaking.mine ? (
            <p className="text-xs text-muted-foreground">Engagement de confidentialité signé le {formatDateTime(relation.undertaking.mine)}.</p>
          ) : null}
        </div>
      ) : (
        <ActionForm intent="sign-undertaking" fields={{ requestId }} returnTo={returnTo}>
          <div className="grid gap-2 rounded-md border bg-background p-3 text-sm">
            <UndertakingConsent id={checkboxId} title="Engagement de confidentialité" signing={signing} primary={primary} />
          </div>
        </ActionForm>
      )}
      {relation.fileId ? (
        <p>
          <Button asChild size="sm" variant="outline">
            <Link to={`/dashboard/dossiers/${relation.fileId}`}>
              <FolderOpen aria-hidden="true" />
              Ouvrir le dossier de rapprochement
            </Link>
          </Button>
        </p>
      ) : null}
      <p className="text-xs text-muted-foreground">
        {relation.undertaking.theirs
          ? `Votre confrère a signé l’engagement de confidentialité le ${formatDateTime(relation.undertaking.theirs)}.`
          : "Votre confrère n’a pas encore signé l’engagement de confidentialité."}
      </p>
      <IntroductionLog relation={relation} />
    </li>
  );
}

function ReceivedRequest({ relation: r, returnTo, primary = false }: { relation: Relation; returnTo: string; primary?: boolean }) {
  return (
    <li className="grid gap-2 rounded-lg border p-3" data-testid="received-request">
      <MatchHeader total={r.score.total}>
        <CounterpartSummary m={r.counterpart} />
      </MatchHeader>
      <RequestMeta request={r.received!} direction="received" />
      {r.received?.message ? <p className="whitespace-pre-line rounded bg-muted p-2 text-sm">«&nbsp;{r.received.message}&nbsp;»</p> : null}
      {r.received?.status === "pending" ? <RespondButtons request={r.received} returnTo={returnTo} primary={primary} /> : null}
      <IntroductionLog relation={r} />
    </li>
  );
}

function RespondButtons({ request, returnTo, primary }: { request: PanelRequest; returnTo: string; primary: boolean }) {
  const accepting = useBusy("accept", "requestId", request.id);
  const rejecting = useBusy("reject", "requestId", request.id);
  return (
    <div className="flex flex-wrap gap-2">
      <ActionForm intent="accept" fields={{ requestId: request.id }} returnTo={returnTo}>
        <Button type="submit" size="sm" variant={primary ? "default" : "outline"} disabled={accepting || rejecting}>
          {accepting ? "…" : "Accepter"}
        </Button>
      </ActionForm>
      <ActionForm intent="reject" fields={{ requestId: request.id }} returnTo={returnTo}>
        <Button type="submit" size="sm" variant="outline" disabled={accepting || rejecting}>
          {rejecting ? "…" : "Rejeter"}
        </Button>
      </ActionForm>
    </div>
  );
}

function ProposeButton({ mandateId, targetId, returnTo }: { mandateId: string; targetId: string; returnTo: string }) {
  const busy = useBusy("propose", "targetMandateId", targetId);
  return (
    <ActionForm intent="propose" fields={{ mandateId, targetMandateId: targetId }} returnTo={returnTo}>
      <Button type="submit" size="sm" variant="secondary" disabled={busy}>
        {busy ? "…" : "Proposer"}
      </Button>
    </ActionForm>
  );
}

/** Freemium: how many of the semester's 3 requests are used, and what to do at 3/3. */
function OpportunityBanner({ quota }: { quota: PanelData["opportunities"] }) {
  return (
    <div className="grid gap-1 rounded-md border bg-muted/40 p-3 text-sm" data-testid="opportunity-quota">
      <p className="font-medium">{opportunityBanner(quota.used)}</p>
      {quota.canRequest ? null : (
        <p className="text-muted-foreground">
          {OPPORTUNITY_QUOTA_REACHED}{" "}
          <Link className="text-primary underline" to="/premium">
            Découvrir Premium
          </Link>
        </p>
      )}
    </div>
  );
}

/** The request button at 3/3: disabled, and saying why. */
function QuotaReachedButton({ label }: { label: string }) {
  const reason = useId();
  return (
    <span className="grid gap-1">
      <Button type="button" size="sm" variant="outline" disabled aria-describedby={reason}>
        {label}
      </Button>
      <span id={reason} className="text-xs text-muted-foreground">
        Limite de 3 demandes par semestre atteinte
      </span>
    </span>
  );
}

function Section({ id, title, children, count }: { id: string; title: string; children: ReactNode; count?: number | string }) {
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <h3 id={id} className="font-semibold">
        {title}
        {count !== undefined ? <span className="ml-1 font-normal text-muted-foreground">({count})</span> : null}
      </h3>
      {children}
    </section>
  );
}

/**
 * What the list of potential matches says of itself against the card's count: « 20 premiers
 * sur 31 » and « Voir les suivants » (a link: it works with the keyboard and without JavaScript);
 * the first match it adds gets the focus.
 */
function ListCut({ shown, total, moreHref }: { shown: number; total: number; moreHref: string }) {
  const cut = listCut(shown, total, MATCH_COUNT_CAP);
  if (!cut.text) return null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm" data-testid="potential-cut">
      <p className="text-muted-foreground">{cut.text}</p>
      {cut.more ? (
        <Link to={moreHref} preventScrollReset replace className="font-medium text-primary underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-ring">
          Voir les suivants
        </Link>
      ) : (
        <p className="text-muted-foreground">Précisez les critères du mandat pour affiner la liste.</p>
      )}
    </div>
  );
}

export function MatchingPanelContent({
  panel,
  returnTo,
  requestHref,
  moreHref,
  quiet = false,
}: {
  panel: PanelData;
  returnTo: string;
  requestHref: (targetId: string) => string;
  /** The panel with the next page of potential matches. */
  moreHref: (shown: number) => string;
  /** No primary action: a request dialog open over the panel holds it. */
  quiet?: boolean;
}) {
  const firstAdded = useRef<HTMLLIElement>(null);
  const previouslyShown = useRef(panel.potential.length);
  useEffect(() => {
    // After « Voir les suivants », the focus goes to the first match added (the link may be gone).
    if (panel.potential.length > previouslyShown.current) firstAdded.current?.focus();
    previouslyShown.current = panel.potential.length;
  }, [panel.potential.length]);
  const addedFrom = previouslyShown.current < panel.potential.length ? previouslyShown.current : -1;
  const { mandate, counters, relations } = panel;
  // Counters and lists come from the same filters (panelLists): they always agree.
  const lists = panelLists(relations);
  // What waits for the member comes first: undertakings to sign, then requests to answer.
  const toSign = lists.confirmed.filter((r) => !r.client && !r.undertaking.mine);
  const confirmed = lists.confirmed.filter((r) => !toSign.includes(r));
  const sent = lists.sent;
  const received = lists.answered;
  const proposable = relations.filter((r) => r.received && r.received.status !== "rejected" && !r.confirmed);
  return (
    <div className="grid gap-6">
      <div className="grid grid-cols-3 gap-2">
        <Counter label="Demandes envoyées" value={counters.sent} />
        <Counter label="En attente" value={counters.pendingReceived} />
        <Counter label="Mises en relation actives" value={counters.activeConnections} />
      </div>

      {toSign.length || lists.toAnswer.length ? (
        <Section id="panel-task" title="À traiter en premier" count={toSign.length + lists.toAnswer.length}>
          <ul className="grid gap-3">
            {/* One primary action in the panel: the first thing to do; the rows after it are outline. */}
            {toSign.map((r, i) => (
              <Connection key={r.counterpart.id} relation={r} returnTo={returnTo} primary={!quiet && i === 0} />
            ))}
            {lists.toAnswer.map((r, i) => (
              <ReceivedRequest key={r.counterpart.id} relation={r} returnTo={returnTo} primary={!quiet && toSign.length === 0 && i === 0} />
            ))}
          </ul>
        </Section>
      ) : null}

      <Section id="panel-potential" title="Mandats potentiels" count={panel.matchable ? matchCountLabel(panel.potentialCount, MATCH_COUNT_CAP) : 0}>
        {panel.opportunities.limited ? <OpportunityBanner quota={panel.opportunities} /> : null}
        {!panel.matchable && mandate.status === "negotiating" ? (
          <p className="text-sm text-muted-foreground">
            Ce mandat est en négociation&nbsp;: il n’est plus proposé aux confrères. Remettez-le en recherche active pour voir les mandats
            compatibles.
          </p>
        ) : !panel.matchable && mandate.status === "concluded" ? (
          <p className="text-sm text-muted-foreground">Ce mandat est conclu&nbsp;: il n’est plus proposé aux confrères.</p>
        ) : !panel.matchable ? (
          <p className="text-sm text-muted-foreground">
            Ce mandat n’est pas actif ou sa date de fin est passée&nbsp;: réactivez-le ou prolongez-le pour voir les mandats compatibles.
          </p>
        ) : panel.potential.length === 0 ? (
          <p className="rounded-md border border-dashed p-4 text-center text-sm text-muted-foreground">
            Aucun mandat compatible trouvé pour le moment
          </p>
        ) : (
          <>
          <ListCut shown={panel.potential.length} total={panel.potentialCount} moreHref={moreHref(panel.potential.length)} />
          {/* A dense list: one row per mandate, its one action on the right from the sm width. */}
          <ul className="divide-y rounded-lg border">
            {panel.potential.map((m, i) => (
              <li
                key={m.id}
                ref={i === addedFrom ? firstAdded : undefined}
                tabIndex={i === addedFrom ? -1 : undefined}
                className="grid gap-2 p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end sm:gap-x-4"
                data-testid="potential-match"
              >
                <div className="grid min-w-0 gap-2">
                  <MatchHeader total={m.score.total}>
                    <CounterpartSummary m={m} />
                  </MatchHeader>
                  <ScoreBreakdownList criteria={m.criteria} />
                </div>
                <div>
                  {m.sentStatus ? (
                    <p className="flex items-center gap-2 text-sm">
                      <Send className="h-4 w-4" aria-hidden="true" /> Demande envoyée
                      <RequestStatusBadge status={m.sentStatus} />
                    </p>
                  ) : !panel.opportunities.canRequest ? (
                    <QuotaReachedButton label="Demander une mise en relation" />
                  ) : (
                    <Button asChild size="sm" variant="outline">
                      <Link to={requestHref(m.id)} preventScrollReset>
                        <Handshake aria-hidden="true" />
                        Demander une mise en relation
                        <span className="sr-only"> avec le mandat {m.clientCode}</span>
                      </Link>
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
          </>
        )}
      </Section>

      <Section id="panel-received" title="Demandes reçues" count={received.length}>
        {received.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {lists.toAnswer.length ? "Les demandes qui attendent votre réponse figurent en tête du panneau." : "Aucune demande reçue pour ce mandat."}
          </p>
        ) : (
          <ul className="grid gap-3">
            {received.map((r) => (
              <ReceivedRequest key={r.counterpart.id} relation={r} returnTo={returnTo} />
            ))}
          </ul>
        )}
      </Section>

      <Section id="panel-propose" title="Proposer un de mes mandats">
        <p className="text-sm text-muted-foreground">
          Une mise en relation est confirmée quand chacun a accepté la demande de l’autre&nbsp;: proposez ce mandat en retour aux
          confrères qui vous ont sollicité.
        </p>
        {proposable.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aucun confrère à qui proposer ce mandat pour le moment.</p>
        ) : (
          <ul className="grid gap-2">
            {proposable.map((r) => (
              <li key={r.counterpart.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3">
                <CounterpartSummary m={r.counterpart} />
                {r.sent ? (
                  <Badge variant="secondary">Déjà proposé</Badge>
                ) : panel.opportunities.canRequest ? (
                  <ProposeButton mandateId={mandate.id} targetId={r.counterpart.id} returnTo={returnTo} />
                ) : (
                  <QuotaReachedButton label="Proposer" />
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="panel-sent" title="Demandes envoyées" count={sent.length}>
        {sent.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aucune demande envoyée depuis ce mandat.</p>
        ) : (
          <ul className="grid gap-3">
            {sent.map((r) => (
              <li key={r.counterpart.id} className="grid gap-2 rounded-lg border p-3" data-testid="sent-request">
                <MatchHeader total={r.score.total}>
                  <CounterpartSummary m={r.counterpart} />
                </MatchHeader>
                <RequestMeta request={r.sent!} direction="sent" />
                {r.sent?.status === "accepted" && !r.received ? (
                  <p className="text-xs text-muted-foreground">
                    Acceptée&nbsp;: la mise en relation sera confirmée quand vous aurez accepté la proposition en retour de votre confrère.
                  </p>
                ) : null}
                <IntroductionLog relation={r} />
              </li>
            ))}
          </ul>
        )}
      </Section>

      {confirmed.length ? (
        <Section id="panel-connections" title="Mises en relation confirmées" count={confirmed.length}>
          <ul className="grid gap-3">
            {confirmed.map((r) => (
              <Connection key={r.counterpart.id} relation={r} returnTo={returnTo} />
            ))}
          </ul>
        </Section>
      ) : null}
    </div>
  );
}

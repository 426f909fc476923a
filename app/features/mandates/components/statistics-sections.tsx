// The sections of the « Statistiques » tab: the member's mandates, their closings and, for premium
// and founding members, the charts.
import { AlertTriangle, BarChart3, FileText, Handshake, RefreshCw, Sparkles, Timer, Trophy } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { formatDate, plural } from "~/lib/format";
import { GroupedBarChart, HorizontalBarChart } from "./charts";
import { StatusBadge } from "./mandate-badges";
import type { ClosingStatistics, MandateCharts, MandateStatistics } from "../statistics.server";

const BUYER = { key: "buyer", label: "Mandats acquéreurs", color: "#1e3a8a" };
const SELLER = { key: "seller", label: "Mandats cédants", color: "#b45309" };
const SENT = { key: "sent", label: "Envoyées", color: "#1e3a8a" };
const RECEIVED = { key: "received", label: "Reçues", color: "#0f766e" };
const STATUS_LABELS = { pending: "En attente", accepted: "Acceptées", rejected: "Rejetées" } as const;

function Tile({ icon, label, value, detail }: { icon: ReactNode; label: string; value: string | number; detail: string }) {
  return (
    <Card>
      <CardContent className="flex items-start gap-3 p-4">
        <span className="grid h-10 w-10 shrink-0 place-items-center rounded-full bg-blue-50 text-primary" aria-hidden="true">
          {icon}
        </span>
        <div>
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="text-2xl font-bold">{value}</p>
          <p className="text-xs text-muted-foreground">{detail}</p>
        </div>
      </CardContent>
    </Card>
  );
}

export function MandateStatisticsSection({ stats }: { stats: MandateStatistics }) {
  const attention = stats.expiring.length > 0 || stats.pendingReceived > 0;
  return (
    <section aria-labelledby="mandate-stats-title" className="grid gap-4">
      <h3 id="mandate-stats-title" className="text-lg font-semibold">
        Statistiques des mandats
      </h3>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Tile
          icon={<FileText className="h-5 w-5" />}
          label="Total des mandats"
          value={stats.total}
          detail={[
            `${stats.active} ${plural(stats.active, "actif")}`,
            stats.negotiating > 0 ? `${stats.negotiating} en négociation` : null,
            stats.concluded > 0 ? `${stats.concluded} ${plural(stats.concluded, "conclu")}` : null,
          ]
            .filter(Boolean)
            .join(", ")}
        />
        <Tile
          icon={<BarChart3 className="h-5 w-5" />}
          label="Acquéreurs / cédants"
          value={`${stats.buyer} / ${stats.seller}`}
          detail={`${stats.buyer} ${plural(stats.buyer, "acquéreur")}, ${stats.seller} ${plural(stats.seller, "cédant")}`}
        />
        <Tile
          icon={<Handshake className="h-5 w-5" />}
          label="Mises en relation"
          value={stats.connections}
          detail={`${stats.pendingReceived} ${plural(stats.pendingReceived, "demande")} en attente`}
        />
        <Tile
          icon={<AlertTriangle className="h-5 w-5" />}
          label="Expirent bientôt"
          value={stats.expiringSoon}
          detail="mandats actifs, dans les 7 jours"
        />
      </div>

      {attention ? (
        <Card className="border-amber-300 bg-amber-50" role="region" aria-labelledby="attention-title">
          <CardHeader className="pb-2">
            <h4 id="attention-title" className="flex items-center gap-2 font-semibold text-amber-950">
              <AlertTriangle className="h-4 w-4" aria-hidden="true" />
              Attention requise
            </h4>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-1 text-sm text-amber-950">
              {stats.expiring.map((m) => (
                <li key={m.id}>
                  Le mandat «&nbsp;{m.clientCode}&nbsp;» expire le {formatDate(m.endDate)}
                  {m.daysLeft === 0 ? " (aujourd'hui)" : ` (dans ${m.daysLeft} ${plural(m.daysLeft, "jour")})`}.{" "}
                  <Link className="underline" to={`/mandates?modifier=${m.id}`}>
                    Prolonger
                  </Link>
                </li>
              ))}
              {stats.pendingReceived > 0 ? (
                <li>
                  {stats.pendingReceived} {plural(stats.pendingReceived, "demande")} de mise en relation en attente de votre réponse.{" "}
                  <Link className="underline" to={stats.pendingMandateId ? `/mandates?matching=${stats.pendingMandateId}` : "/mandates"}>
                    Répondre
                  </Link>
                </li>
              ) : null}
            </ul>
          </CardContent>
        </Card>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader className="pb-2">
            <h4 className="font-semibold">Derniers mandats</h4>
          </CardHeader>
          <CardContent>
            {stats.latest.length === 0 ? (
              <p className="text-sm text-muted-foreground">Aucun mandat pour le moment.</p>
            ) : (
              <ul className="grid gap-2">
                {stats.latest.map((m) => (
                  <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2">
                    <div>
                      <p className="font-medium">{m.clientCode}</p>
                      <p className="text-xs text-muted-foreground">Expire le {formatDate(m.endDate)}</p>
                    </div>
                    <StatusBadge status={m.status} />
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="pb-2">
            <h4 className="font-semibold">Actions rapides</h4>
          </CardHeader>
          <CardContent className="grid gap-2">
            <Button asChild>
              <Link to="/mandates">
                <FileText aria-hidden="true" />
                Gérer mes mandats
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/mandates?onglet=opportunites">
                <Sparkles aria-hidden="true" />
                Opportunités de rapprochement
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={stats.pendingMandateId ? `/mandates?matching=${stats.pendingMandateId}` : "/mandates"}>
                <Handshake aria-hidden="true" />
                Demandes de mise en relation
                {stats.pendingReceived > 0 ? ` (${stats.pendingReceived})` : ""}
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/mandates?filtre=expires">
                <RefreshCw aria-hidden="true" />
                Renouveler les mandats expirés
                {stats.expired > 0 ? ` (${stats.expired})` : ""}
              </Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}

export function ClosingStatisticsSection({ closings }: { closings: ClosingStatistics }) {
  const median = closings.medianDaysToClose;
  return (
    <section aria-labelledby="closing-stats-title" className="grid gap-4">
      <h3 id="closing-stats-title" className="text-lg font-semibold">
        Rapprochements
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <Tile
          icon={<Trophy className="h-5 w-5" />}
          label="Rapprochements conclus via le réseau"
          value={closings.concluded}
          detail="confirmés par les deux membres du dossier"
        />
        <Tile
          icon={<Timer className="h-5 w-5" />}
          label="Délai médian entre la mise en relation et la conclusion"
          value={median === null ? "—" : `${median} ${plural(median, "jour")}`}
          detail={median === null ? "aucun rapprochement conclu pour le moment" : "de la mise en relation confirmée à la conclusion"}
        />
      </div>
      <p className="text-sm">
        <Link className="underline" to="/dashboard/dossiers">
          Voir mes dossiers de rapprochement
        </Link>
      </p>
    </section>
  );
}

export function ChartsSection({ charts }: { charts: MandateCharts }) {
  const monthValues = Object.fromEntries(charts.months.map((m) => [m.month, { buyer: m.buyer, seller: m.seller }]));
  const totalCreated = charts.months.reduce((s, m) => s + m.buyer + m.seller, 0);
  const statusValues = Object.fromEntries(charts.requests.map((r) => [r.status, { sent: r.sent, received: r.received }]));
  const totalRequests = charts.requests.reduce((s, r) => s + r.sent + r.received, 0);
  return (
    <section aria-labelledby="charts-title" className="grid gap-4">
      <h3 id="charts-title" className="text-lg font-semibold">
        Activité
      </h3>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader className="pb-2">
            <h4 className="font-semibold">Mandats créés par mois</h4>
            <CardDescription>12 derniers mois, acquéreurs et cédants</CardDescription>
          </CardHeader>
          <CardContent>
            {totalCreated === 0 ? (
              <p className="text-sm text-muted-foreground">Aucun mandat créé sur les 12 derniers mois.</p>
            ) : (
              <GroupedBarChart
                id="chart-months"
                title="Mandats créés par mois sur les 12 derniers mois"
                description={`${totalCreated} ${plural(totalCreated, "mandat")} créés\u00a0: barres bleues pour les mandats acquéreurs, orange pour les mandats cédants.`}
                categories={charts.months.map((m) => ({ key: m.month, label: m.shortLabel, longLabel: m.label }))}
                series={[BUYER, SELLER]}
                values={monthValues}
              />
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="pb-2">
            <h4 className="font-semibold">Demandes de mise en relation par statut</h4>
            <CardDescription>Envoyées depuis vos mandats et reçues sur vos mandats</CardDescription>
          </CardHeader>
          <CardContent>
            {totalRequests === 0 ? (
              <p className="text-sm text-muted-foreground">Aucune demande de mise en relation pour le moment.</p>
            ) : (
              <HorizontalBarChart
                id="chart-requests"
                title="Demandes de mise en relation par statut"
                description={`${totalRequests} ${plural(totalRequests, "demande")}\u00a0: envoyées en bleu, reçues en vert.`}
                categories={charts.requests.map((r) => ({ key: r.status, label: STATUS_LABELS[r.status], longLabel: STATUS_LABELS[r.status] }))}
                series={[SENT, RECEIVED]}
                values={statusValues}
              />
            )}
          </CardContent>
        </Card>
      </div>
    </section>
  );
}

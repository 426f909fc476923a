import { Email } from "~/components/email";
import { Copy, Download } from "lucide-react";
import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Label, Textarea } from "~/components/ui/input";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { badgeVariantForStatus, RECOMMENDATION_STATUS_LABELS } from "~/features/admin/admin-labels";
import { ADMIN_MESSAGES, parseRecommendationListQuery, queryString } from "~/features/admin/admin.schema";
import { Pagination } from "~/components/pagination";
import { ScrollTable } from "~/features/admin/components/scroll-table";
import {
  exportSponsorEmails,
  getRecommendationCounts,
  listRecommendationsForAdmin,
} from "~/features/admin/recommendations-admin.server";
import { countLabel, formatAdminDate } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { AdminTab, SearchButtons, SearchField } from "~/features/admin/components/admin-tab";
import type { Route } from "./+types/recommendations";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration — Recommandations"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireAdminAccess(request);
  const query = parseRecommendationListQuery(new URL(request.url).searchParams);
  try {
    const countsRead = getRecommendationCounts();
    const [counts, list] = await Promise.all([countsRead, listRecommendationsForAdmin(query, countsRead)]);
    // Without JavaScript, 'Exporter les emails' reloads the page with ?emails=1: the addresses
    // are then shown in a read-only text box (with JavaScript they go to the clipboard).
    const emails = query.emails ? await exportSponsorEmails(actor, query.q) : null;
    return { query, counts, ...list, emails, failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "admin recommendations load failed");
    return { query, counts: null, rows: [], total: 0, page: 1, pageCount: 1, emails: null, failed: true };
  }
});

export default function RecommendationsTab({ loaderData }: Route.ComponentProps) {
  const { query, counts, rows, total, page, pageCount, emails, failed } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/recommandations";
  const [copying, setCopying] = useState(false);
  const [fallback, setFallback] = useState<string | null>(null);
  const filter = queryString({ q: query.q });

  useEffect(() => {
    if (failed) toast.error(ADMIN_MESSAGES.recommendationsLoadFailed);
  }, [failed]);

  useEffect(() => setFallback(null), [query.q]);

  async function copyEmails() {
    setCopying(true);
    try {
      const res = await fetch(`/admin/recommandations/emails${filter}`, { headers: { accept: "application/json" } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as { emails: string[] };
      const text = body.emails.join(", ");
      try {
        await navigator.clipboard.writeText(text);
        setFallback(null);
        toast.success(ADMIN_MESSAGES.emailsCopied, { description: countLabel(body.emails.length, "adresse", "adresses") });
      } catch {
        setFallback(text);
        toast.info(ADMIN_MESSAGES.emailsCopyUnavailable);
      }
    } catch {
      toast.error(ADMIN_MESSAGES.emailsExportFailed);
    } finally {
      setCopying(false);
    }
  }

  const shownEmails = fallback ?? (emails ? emails.join(", ") : null);

  return (
    <AdminTab
      title="Recommandations"
      failedMessage={failed ? ADMIN_MESSAGES.recommendationsLoadFailed : null}
      tiles={
        counts && [
          { label: "Total", value: counts.total },
          { label: "Confirmées", value: counts.confirmed },
          { label: "En attente", value: counts.pending },
        ]
      }
    >

      <Form method="get" role="search" aria-label="Rechercher une recommandation" className="grid gap-4 rounded-lg border bg-muted/50 p-4 md:grid-cols-[1fr_auto]">
        <SearchField value={query.q} placeholder="Parrain, e-mail, membre ou société…" />
        <SearchButtons resetTo="/admin/recommandations" />
      </Form>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="font-medium" aria-live="polite">
          {loading ? "Chargement..." : countLabel(total, "recommandation", "recommandations")}
        </p>
        <div className="flex flex-wrap gap-2">
          <Form
            method="get"
            onSubmit={(e) => {
              // With JavaScript: copy to the clipboard instead of reloading the page.
              e.preventDefault();
              void copyEmails();
            }}
          >
            {query.q ? <input type="hidden" name="q" value={query.q} /> : null}
            <Button type="submit" name="emails" value="1" variant="outline" disabled={copying || failed}>
              <Copy aria-hidden="true" />
              {copying ? "Export..." : "Exporter les emails"}
            </Button>
          </Form>
          <Button asChild variant="outline">
            <a href={`/admin/recommandations/export.csv${filter}`} download>
              <Download aria-hidden="true" />
              Télécharger le CSV
            </a>
          </Button>
        </div>
      </div>

      {shownEmails !== null ? (
        <div className="grid gap-2">
          <Label htmlFor="sponsor-emails">E-mails des parrains (séparés par des virgules)</Label>
          <Textarea id="sponsor-emails" readOnly rows={4} value={shownEmails} onFocus={(e) => e.currentTarget.select()} />
        </div>
      ) : null}

      {rows.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">
          {query.q ? "Aucune recommandation ne correspond à cette recherche." : "Aucune recommandation pour le moment."}
        </p>
      ) : (
        <ScrollTable label="Liste des recommandations">
          <thead className="bg-muted/60 text-xs uppercase text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2">Recommandé par</th>
              <th scope="col" className="px-3 py-2">E-mail</th>
              <th scope="col" className="px-3 py-2">Membre recommandé</th>
              <th scope="col" className="px-3 py-2">Statut</th>
              <th scope="col" className="px-3 py-2">Création</th>
              <th scope="col" className="px-3 py-2">Confirmation</th>
            </tr>
          </thead>
          <tbody className={loading ? "opacity-60" : undefined}>
            {rows.map((r) => (
              <tr key={r.id} className="border-t">
                <td className="px-3 py-2 font-medium">{r.sponsorName}</td>
                <td className="px-3 py-2">
                  <Email address={r.sponsorEmail} />
                </td>
                <td className="px-3 py-2">
                  {r.memberName}
                  <span className="block text-xs text-muted-foreground">{r.company}</span>
                </td>
                <td className="px-3 py-2">
                  <Badge variant={badgeVariantForStatus(r.status)}>{RECOMMENDATION_STATUS_LABELS[r.status]}</Badge>
                </td>
                <td className="px-3 py-2 whitespace-nowrap">{formatAdminDate(r.createdAt)}</td>
                <td className="px-3 py-2 whitespace-nowrap">{r.confirmedAt ? formatAdminDate(r.confirmedAt) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <Pagination page={page} pageCount={pageCount} href={(p) => `/admin/recommandations${queryString({ q: query.q, page: p })}`} />
    </AdminTab>
  );
}

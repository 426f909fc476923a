import { Email } from "~/components/email";
import { useEffect, useRef } from "react";
import { Form, Link, useSubmit } from "react-router";
import { toast } from "~/lib/toast";
import { Button } from "~/components/ui/button";
import { Label, NativeSelect } from "~/components/ui/input";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { ACTOR_ROLE_LABELS } from "~/features/admin/admin-labels";
import { AUDIT_EVENTS, AUDIT_TARGET_LABELS, auditActionLabel, auditDetailLines } from "~/lib/audit/audit-events";
import { ADMIN_MESSAGES, AUDIT_ACTIONS, parseAuditQuery, queryString } from "~/features/admin/admin.schema";
import { listAuditLog } from "~/features/admin/audit.server";
import { Pagination } from "~/components/pagination";
import { ScrollTable } from "~/features/admin/components/scroll-table";
import { countLabel, formatDateTime } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { AdminTab } from "~/features/admin/components/admin-tab";
import type { Route } from "./+types/journal";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration — Journal"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminAccess(request);
  const query = parseAuditQuery(new URL(request.url).searchParams);
  try {
    return { query, ...(await listAuditLog(query)), failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "admin audit log load failed");
    return { query, entries: [], total: 0, page: 1, pageCount: 1, failed: true };
  }
});


export default function JournalTab({ loaderData }: Route.ComponentProps) {
  const { query, entries, total, page, pageCount, failed } = loaderData;
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (failed) toast.error(ADMIN_MESSAGES.auditLoadFailed);
  }, [failed]);

  return (
    <AdminTab
      title="Journal d’administration"
      description="Toutes les décisions et tous les exports des administrateurs, du plus récent au plus ancien."
      failedMessage={failed ? ADMIN_MESSAGES.auditLoadFailed : null}
    >
      <Form ref={formRef} method="get" role="search" aria-label="Filtrer le journal" className="flex flex-wrap items-end gap-3 rounded-lg border bg-muted/50 p-4">
        <div className="grid min-w-60 flex-1 gap-2 sm:flex-none">
          <Label htmlFor="action">Action</Label>
          <NativeSelect
            id="action"
            name="action"
            defaultValue={query.action ?? ""}
            key={`a-${query.action}`}
            onChange={() => formRef.current && submit(formRef.current, { replace: true, preventScrollReset: true })}
          >
            <option value="">Toutes les actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {AUDIT_EVENTS[a].label}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit">Filtrer</Button>
        <Button asChild variant="outline">
          <Link to="/admin/journal">Réinitialiser</Link>
        </Button>
      </Form>

      <p className="font-medium">{countLabel(total, "entrée", "entrées")}</p>
      {entries.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">Aucune action enregistrée.</p>
      ) : (
        <ScrollTable label="Entrées du journal">
          <thead className="bg-muted/60 text-xs uppercase text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2">Date</th>
              <th scope="col" className="px-3 py-2">Auteur</th>
              <th scope="col" className="px-3 py-2">Action</th>
              <th scope="col" className="px-3 py-2">Cible</th>
              <th scope="col" className="px-3 py-2">Détails</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => {
              const lines = auditDetailLines(e.details);
              return (
                <tr key={e.id} className="border-t align-top">
                  <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(e.createdAt)}</td>
                  <td className="px-3 py-2">
                    {e.adminEmail ? <Email address={e.adminEmail} /> : "Compte supprimé"}
                    {e.actorRole !== "gone" ? <span className="block text-xs text-muted-foreground">{ACTOR_ROLE_LABELS[e.actorRole]}</span> : null}
                  </td>
                  <td className="px-3 py-2">{auditActionLabel(e.action)}</td>
                  <td className="px-3 py-2">
                    {e.targetLabel ?? (e.targetType ? ((AUDIT_TARGET_LABELS as Record<string, string>)[e.targetType] ?? e.targetType) : "—")}
                  </td>
                  <td className="px-3 py-2">
                    {lines.length ? (
                      <ul className="grid gap-0.5">
                        {lines.map((l) => (
                          <li key={l} className="break-words">
                            {l}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      "—"
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </ScrollTable>
      )}
      <Pagination page={page} pageCount={pageCount} href={(p) => `/admin/journal${queryString({ action: query.action, page: p })}`} />
    </AdminTab>
  );
}

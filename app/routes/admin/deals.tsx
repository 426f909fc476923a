import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { DismissLink } from "~/components/page";
import { FieldError, Label, Textarea } from "~/components/ui/input";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { isAdminActionError } from "~/features/admin/admin-errors";
import { badgeVariantForStatus, DEAL_STATUS_LABELS, MEMBERSHIP_LABELS } from "~/features/admin/admin-labels";
import { ADMIN_MESSAGES, dealDecisionSchema, type DealListQuery, parseDealListQuery, queryString, REASON_MAX } from "~/features/admin/admin.schema";
import { DetailOverlay } from "~/features/admin/components/detail-overlay";
import { Pagination } from "~/components/pagination";
import { ScrollTable } from "~/features/admin/components/scroll-table";
import { type AdminDealDetail, decideDeal, getDealForAdmin, listPendingDeals } from "~/features/admin/deals-admin.server";
import { countLabel, formatAdminDate } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/deals";
import { readForm } from "~/lib/form.server";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration — Transactions certifiées"), { name: "robots", content: "noindex" }];

function listHref(query: Pick<DealListQuery, "page">, extra: { deal?: string } = {}) {
  return `/admin/deals${queryString({ page: query.page, ...extra })}`;
}

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminAccess(request);
  const query = parseDealListQuery(new URL(request.url).searchParams);
  try {
    const [list, detail] = await Promise.all([listPendingDeals(query), query.deal ? getDealForAdmin(query.deal) : Promise.resolve(null)]);
    return { query, ...list, detail, failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "admin deals load failed");
    return { query, rows: [], total: 0, profilesCount: 0, page: 1, pageCount: 1, detail: null, failed: true };
  }
});

export const action = atEdge(async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireAdminAccess(request);
  const query = parseDealListQuery(new URL(request.url).searchParams);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: dealDecisionSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  const { dealId, intent, reason } = submission.value;
  try {
    await decideDeal(actor, dealId, intent === "validate" ? { outcome: "validated" } : { outcome: "rejected", reason });
  } catch (error) {
    if (!isAdminActionError(error)) logger.error({ err: error, requestId: context.requestId, intent, dealId }, "admin deal decision failed");
    return redirectWithToast(listHref(query), {
      type: "error",
      title: ADMIN_MESSAGES.dealUpdateFailed,
      description: isAdminActionError(error) ? error.message : undefined,
    });
  }
  return redirectWithToast(listHref(query), {
    type: "success",
    title: intent === "validate" ? ADMIN_MESSAGES.dealValidated : ADMIN_MESSAGES.dealRejected,
  });
});

type ActionData = { result: SubmissionResult<string[]> } | undefined;

export default function DealsTab({ loaderData, actionData }: Route.ComponentProps) {
  const { query, rows, total, profilesCount, page, pageCount, detail, failed } = loaderData;

  useEffect(() => {
    if (failed) toast.error(ADMIN_MESSAGES.dealsLoadFailed);
  }, [failed]);

  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-6">
      <div>
        <h2 id="tab-title" className="text-xl font-semibold">
          Transactions en attente de validation
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {failed
            ? ""
            : `${countLabel(total, "référence en attente", "références en attente")} — ${countLabel(profilesCount, "professionnel", "professionnels")}`}
        </p>
      </div>
      {failed ? (
        <Alert variant="destructive">
          <AlertDescription>{ADMIN_MESSAGES.dealsLoadFailed}</AlertDescription>
        </Alert>
      ) : rows.length === 0 ? (
        <p className="rounded-lg border p-8 text-center text-muted-foreground">Aucune transaction en attente de validation.</p>
      ) : (
        <ScrollTable label="Transactions en attente">
          <thead className="bg-muted/60 text-xs uppercase text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2">Professionnel</th>
              <th scope="col" className="px-3 py-2">Année</th>
              <th scope="col" className="px-3 py-2">Transaction</th>
              <th scope="col" className="px-3 py-2">Secteur</th>
              <th scope="col" className="px-3 py-2">Statut</th>
              <th scope="col" className="px-3 py-2">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className="border-t">
                <td className="px-3 py-2">
                  <span className="font-medium">{r.memberName}</span>
                  <span className="block text-xs text-muted-foreground">{r.company}</span>
                </td>
                <td className="px-3 py-2">{r.year}</td>
                <td className="px-3 py-2">{r.acquirerCedant}</td>
                <td className="px-3 py-2">{r.sectorName}</td>
                <td className="px-3 py-2">
                  <Badge variant={badgeVariantForStatus(r.status)}>{DEAL_STATUS_LABELS[r.status]}</Badge>
                </td>
                <td className="px-3 py-2">
                  <Link
                    to={listHref({ page }, { deal: r.id })}
                    preventScrollReset
                    className="text-primary underline"
                    aria-label={`Examiner la transaction ${r.acquirerCedant} de ${r.memberName}`}
                  >
                    Examiner
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <Pagination page={page} pageCount={pageCount} href={(p) => listHref({ page: p })} />

      {query.deal ? (
        detail ? (
          <DealDetail detail={detail} closeTo={listHref({ page })} actionData={actionData as ActionData} />
        ) : failed ? null : (
          <Alert variant="destructive">
            <AlertDescription>Transaction introuvable.</AlertDescription>
          </Alert>
        )
      ) : null}
    </section>
  );
}

function DealDetail({ detail, closeTo, actionData }: { detail: AdminDealDetail; closeTo: string; actionData: ActionData }) {
  const d = detail;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const [form, fields] = useForm({
    id: `deal-decision-${d.id}`,
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: dealDecisionSchema }),
  });
  const pending = d.status === "pending";
  return (
    <DetailOverlay title={`Transaction de ${d.memberName}`} description={`${d.company} — ${d.professionLabel}`} closeTo={closeTo}>
      <dl className="grid gap-3 text-sm">
        {[
          ["Professionnel", `${d.memberName} (${MEMBERSHIP_LABELS[d.membershipType] ?? d.membershipType})`],
          ["Année", String(d.year)],
          ["Transaction (parties)", d.acquirerCedant],
          [
            "Publication",
            d.named
              ? `Parties nommées — accord des parties certifié par le membre${d.partiesConsentAt ? ` le ${formatAdminDate(d.partiesConsentAt)}` : ""}`
              : "Description anonymisée",
          ],
          ["Vu par le public", `${d.year} · ${d.sectorName} · ${d.publicTitle}`],
          ["Secteur", `${d.sector} - ${d.sectorName}`],
          ["Description", d.dealDescription || "Aucune description"],
          ["Soumis le", formatAdminDate(d.createdAt)],
          ["Statut", DEAL_STATUS_LABELS[d.status]],
          ...(d.status === "rejected" ? [["Motif du rejet", d.rejectionReason || "Aucun motif indiqué"]] : []),
        ].map(([label, value]) => (
          <div key={label} className="grid gap-1 sm:grid-cols-[9rem_1fr] sm:gap-3">
            <dt className="font-medium text-muted-foreground">{label}</dt>
            <dd className="whitespace-pre-line break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <Form method="post" {...getFormProps(form)} className="grid gap-4 border-t pt-4">
        <input type="hidden" name="dealId" value={d.id} />
        {form.errors?.length ? (
          <Alert variant="destructive">
            <AlertDescription>{form.errors[0]}</AlertDescription>
          </Alert>
        ) : null}
        {pending ? (
          <div className="grid gap-2">
            <Label htmlFor={fields.reason.id}>Motif du rejet (facultatif)</Label>
            <Textarea
              {...getTextareaProps(fields.reason)}
              key={fields.reason.key}
              rows={3}
              maxLength={REASON_MAX}
              aria-invalid={fields.reason.errors ? true : undefined}
            />
            <p className="text-xs text-muted-foreground">En cas de rejet, le motif est communiqué au membre.</p>
            <FieldError errors={fields.reason.errors} />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Cette transaction a déjà été traitée.</p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DismissLink to={closeTo} label="Fermer" />
          {pending ? (
            <>
              <Button type="submit" name="intent" value="reject" variant="destructive" disabled={busyIntent !== null}>
                {busyIntent === "reject" ? "Rejet..." : "Rejeter"}
              </Button>
              <Button type="submit" name="intent" value="validate" disabled={busyIntent !== null}>
                {busyIntent === "validate" ? "Validation..." : "Valider"}
              </Button>
            </>
          ) : null}
        </div>
      </Form>
    </DetailOverlay>
  );
}

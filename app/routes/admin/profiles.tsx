import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation, useSubmit } from "react-router";
import { toast } from "~/lib/toast";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Label, NativeSelect } from "~/components/ui/input";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { AdminActionError, isAdminActionError } from "~/features/admin/admin-errors";
import { ProfileDetail, type ProfileDecisionActionData } from "~/features/admin/components/profile-detail";
import { setVerificationCheck } from "~/features/admin/verification-admin.server";
import { badgeVariantForStatus, PROFILE_STATUS_LABELS } from "~/features/admin/admin-labels";
import {
  ADMIN_MESSAGES,
  parseProfileListQuery,
  PROFILE_STATUS_PARAMS,
  profileDecisionSchema,
  type ProfileListQuery,
  queryString,
} from "~/features/admin/admin.schema";
import { Pagination } from "~/components/pagination";
import { ScrollTable } from "~/features/admin/components/scroll-table";
import {
  type AdminProfileRow,
  getProfileCounts,
  getProfileReview,
  listProfilesForAdmin,
  rejectProfile,
  reinstateMember,
  suspendMember,
  validateProfile,
} from "~/features/admin/profiles-admin.server";
import { countLabel, formatAdminDate } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { AdminTab, SearchButtons, SearchField } from "~/features/admin/components/admin-tab";
import type { Route } from "./+types/profiles";
import { readForm } from "~/lib/form.server";
import { INSURANCE_FLAG_LABELS } from "~/features/trust/verification-rules";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration — Profils"), { name: "robots", content: "noindex" }];

function listHref(query: Pick<ProfileListQuery, "q" | "statut" | "page">, extra: { profil?: string } = {}) {
  return `/admin${queryString({ q: query.q, statut: query.statut, page: query.page, ...extra })}`;
}

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireAdminAccess(request);
  const query = parseProfileListQuery(new URL(request.url).searchParams);
  try {
    // The list's total without a search is one of the tiles' counts: read once, used by both.
    const countsRead = getProfileCounts();
    // The list unfiltered: the profiles to examine come first, in a table of their own.
    const pendingFirst = !query.statut && !query.q && query.page === 1;
    const [counts, list, review, pending] = await Promise.all([
      countsRead,
      listProfilesForAdmin(query, countsRead),
      query.profil ? getProfileReview(query.profil, actor) : Promise.resolve(null),
      pendingFirst ? listProfilesForAdmin({ ...query, statut: "en-attente" }, countsRead) : Promise.resolve(null),
    ]);
    return { query, counts, ...list, pending: pending?.rows.length ? pending : null, detail: review?.detail ?? null, checklist: review?.checklist ?? null, failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "admin profiles load failed");
    return { query, counts: null, rows: [], total: 0, page: 1, pageCount: 1, pending: null, detail: null, checklist: null, failed: true };
  }
});

const SUCCESS: Record<string, string> = {
  validate: ADMIN_MESSAGES.profileValidated,
  reject: ADMIN_MESSAGES.profileRejected,
  suspend: ADMIN_MESSAGES.memberSuspended,
  reinstate: ADMIN_MESSAGES.memberReinstated,
};

export const action = atEdge(async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireAdminAccess(request);
  const query = parseProfileListQuery(new URL(request.url).searchParams);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: profileDecisionSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  const { profileId, intent, reason, validationReason, step } = submission.value;
  if (intent === "check" || intent === "uncheck") {
    try {
      if (!step) throw new AdminActionError(409, "Étape de vérification inconnue");
      await setVerificationCheck(actor, profileId, step, intent === "check");
    } catch (error) {
      if (!isAdminActionError(error)) logger.error({ err: error, requestId: context.requestId, intent, profileId }, "verification check failed");
      return redirectWithToast(listHref(query, { profil: profileId }), {
        type: "error",
        title: ADMIN_MESSAGES.profileUpdateFailed,
        description: isAdminActionError(error) ? error.message : undefined,
      });
    }
    return redirectWithToast(listHref(query, { profil: profileId }), { type: "success", title: intent === "check" ? "Étape cochée" : "Étape décochée" });
  }
  try {
    if (intent === "validate") await validateProfile(actor, profileId, { reason: validationReason });
    else if (intent === "reject") await rejectProfile(actor, profileId, reason);
    else if (intent === "suspend") await suspendMember(actor, profileId, reason);
    else await reinstateMember(actor, profileId);
  } catch (error) {
    if (!isAdminActionError(error)) logger.error({ err: error, requestId: context.requestId, intent, profileId }, "admin profile decision failed");
    return redirectWithToast(listHref(query, { profil: profileId }), {
      type: "error",
      title: ADMIN_MESSAGES.profileUpdateFailed,
      description: isAdminActionError(error) ? error.message : undefined,
    });
  }
  return redirectWithToast(listHref(query), { type: "success", title: SUCCESS[intent] });
});

export default function ProfilesTab({ loaderData, actionData }: Route.ComponentProps) {
  const { query, counts, rows, total, page, pageCount, pending, detail, checklist, failed } = loaderData;
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin";

  useEffect(() => {
    if (failed) toast.error(ADMIN_MESSAGES.profilesLoadFailed);
  }, [failed]);

  return (
    <AdminTab
      title="Profils"
      failedMessage={failed ? ADMIN_MESSAGES.profilesLoadFailed : null}
      tiles={
        counts && [
          // Each counter filters the list on its status (the search is kept).
          { label: "Total", value: counts.total, href: listHref({ q: query.q, statut: undefined, page: 1 }), current: !query.statut },
          { label: "En attente", value: counts.pending, href: listHref({ q: query.q, statut: "en-attente", page: 1 }), current: query.statut === "en-attente" },
          { label: "Validés", value: counts.validated, href: listHref({ q: query.q, statut: "valides", page: 1 }), current: query.statut === "valides" },
          { label: "Rejetés", value: counts.rejected, href: listHref({ q: query.q, statut: "rejetes", page: 1 }), current: query.statut === "rejetes" },
          { label: "Suspendus", value: counts.suspended, href: listHref({ q: query.q, statut: "suspendus", page: 1 }), current: query.statut === "suspendus" },
        ]
      }
    >

      <Form ref={formRef} method="get" action="/admin" role="search" aria-label="Rechercher un profil" className="grid gap-4 rounded-lg border bg-muted/50 p-4 md:grid-cols-[1fr_14rem_auto]">
        <SearchField value={query.q} placeholder="Nom, société, e-mail…" />
        <div className="grid gap-2">
          <Label htmlFor="statut">Statut</Label>
          <NativeSelect
            id="statut"
            name="statut"
            defaultValue={query.statut ?? ""}
            key={`s-${query.statut}`}
            onChange={() => formRef.current && submit(formRef.current, { replace: true, preventScrollReset: true })}
          >
            <option value="">Tous les statuts</option>
            {Object.entries(PROFILE_STATUS_PARAMS).map(([param, status]) => (
              <option key={param} value={param}>
                {PROFILE_STATUS_LABELS[status]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <SearchButtons resetTo="/admin" />
      </Form>

      {pending ? (
        <section aria-labelledby="pending-title" className="grid gap-2" data-testid="pending-profiles">
          <h3 id="pending-title" className="font-semibold">
            À examiner ({pending.total})
          </h3>
          <ProfileTable label="Profils en attente de validation" rows={pending.rows} loading={loading} href={(id) => listHref({ ...query, page }, { profil: id })} />
          {pending.total > pending.rows.length ? (
            <Link to={listHref({ q: "", statut: "en-attente", page: 1 })} className="w-fit text-body text-primary underline">
              Voir les {pending.total} profils en attente
            </Link>
          ) : null}
        </section>
      ) : null}

      <div>
        {pending ? <h3 className="mb-1 font-semibold">Tous les profils</h3> : null}
        <p className="font-medium" aria-live="polite">
          {loading ? "Chargement..." : countLabel(total, "profil", "profils")}
        </p>
        {rows.length === 0 ? (
          <p className="mt-4 rounded-lg border p-8 text-center text-muted-foreground">
            {query.q || query.statut ? "Aucun profil ne correspond à ces critères." : "Aucun profil pour le moment."}
          </p>
        ) : (
          <ProfileTable label="Liste des profils" rows={rows} loading={loading} href={(id) => listHref({ ...query, page }, { profil: id })} />
        )}
        <Pagination page={page} pageCount={pageCount} href={(p) => listHref({ ...query, page: p })} />
      </div>

      {query.profil ? (
        detail ? (
          <ProfileDetail detail={detail} checklist={checklist} closeTo={listHref({ ...query, page })} actionData={actionData as ProfileDecisionActionData} />
        ) : failed ? null : (
          <Alert variant="destructive">
            <AlertDescription>Profil introuvable.</AlertDescription>
          </Alert>
        )
      ) : null}
    </AdminTab>
  );
}

/** A table of profiles, each with its link to the detail overlay. */
function ProfileTable({ label, rows, loading, href }: { label: string; rows: AdminProfileRow[]; loading: boolean; href: (id: string) => string }) {
  return (
    <ScrollTable label={label}>
      <thead className="bg-muted/60 text-xs uppercase text-muted-foreground">
        <tr>
          <th scope="col" className="px-3 py-2">Nom</th>
          <th scope="col" className="px-3 py-2">Société</th>
          <th scope="col" className="px-3 py-2">Profession</th>
          <th scope="col" className="px-3 py-2">Collège</th>
          <th scope="col" className="px-3 py-2">Statut</th>
          <th scope="col" className="px-3 py-2">Date</th>
          <th scope="col" className="px-3 py-2">Actions</th>
        </tr>
      </thead>
      <tbody className={loading ? "opacity-60" : undefined}>
        {rows.map((r) => (
          <tr key={r.id} className="border-t">
            <td className="px-3 py-2 font-medium">
              {r.firstName} {r.lastName}
            </td>
            <td className="px-3 py-2">{r.company}</td>
            <td className="px-3 py-2">{r.professionLabel}</td>
            <td className="px-3 py-2">{r.collegeLabel}</td>
            <td className="px-3 py-2">
              <Badge variant={badgeVariantForStatus(r.status)}>{PROFILE_STATUS_LABELS[r.status]}</Badge>
              {r.insurance ? (
                <Badge variant={r.insurance === "to_renew" ? "destructive" : "warning"} className="mt-1 block w-fit" data-testid="insurance-flag">
                  {INSURANCE_FLAG_LABELS[r.insurance]}
                </Badge>
              ) : null}
            </td>
            <td className="px-3 py-2 whitespace-nowrap">{formatAdminDate(r.createdAt)}</td>
            <td className="px-3 py-2">
              <Link
                to={href(r.id)}
                preventScrollReset
                className="text-primary underline"
                aria-label={`Voir le profil de ${r.firstName} ${r.lastName}`}
              >
                {r.status === "pending_validation" ? "Examiner" : "Voir"}
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

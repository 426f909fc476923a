import { parseWithZod } from "@conform-to/zod/v4";
import { Search } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, useNavigation, useSubmit } from "react-router";
import { toast } from "~/lib/toast";
import { can } from "~/auth/permissions";
import { requireMember } from "~/auth/session.server";
import { PageHeader } from "~/components/page";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input, Label } from "~/components/ui/input";
import { parseDirectoryQuery } from "~/features/directory/directory.schema";
import { DIRECTORY_FILTER_OPTIONS } from "~/features/directory/filter-options";
import { PeerCard } from "~/features/internal-directory/components/peer-card";
import { searchInternalDirectory } from "~/features/internal-directory/internal-directory.server";
import { InternalMessageDialog, type MessageActionData } from "~/features/messages/components/internal-message-dialog";
import { PremiumUpsellCard } from "~/features/messages/components/premium-upsell";
import { atEdge, expectedMessage, expectedStatus, retryAfterOf } from "~/lib/errors/http";
import { CONTACT_DIALOG_REQUIRED, internalMessageSchema, MESSAGING_ERRORS } from "~/features/messages/messages.schema";
import { sendInternalMessage } from "~/features/messages/messages.server";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { DirectoryFilterFields, DirectoryPagination, DirectoryResultCount } from "~/features/directory/components/directory-filters";
import type { Route } from "./+types/directory";
import { readForm } from "~/lib/form.server";

const LOAD_FAILED = "Impossible de charger l'annuaire interne";
const BASE = "/dashboard/annuaire";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Annuaire Interne"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireMember(request);
  const query = parseDirectoryQuery(new URL(request.url).searchParams);
  const canMessage = can(actor.profile.membershipType, "internalMessaging");
  try {
    const result = await searchInternalDirectory(actor, query);
    return { query, ...result, canMessage, failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "internal directory load failed");
    return { query, rows: [], total: 0, page: 1, pageCount: 1, canMessage, failed: true };
  }
});

export const action = atEdge(async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireMember(request);
  const formData = await readForm(request);
  if (formData.get("intent") !== "contact") throw data({ message: "Action inconnue" }, { status: 400 });
  const submission = parseWithZod(formData, { schema: internalMessageSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? CONTACT_DIALOG_REQUIRED;
    return data({ ok: false, error: first } satisfies MessageActionData, { status: 400 });
  }
  try {
    await sendInternalMessage(actor, submission.value);
    return { ok: true } satisfies MessageActionData;
  } catch (error) {
    const status = expectedStatus(error);
    if (status === null) logger.error({ err: error, requestId: context.requestId }, "internal message failed");
    const retryAfter = retryAfterOf(error);
    return data({ ok: false, error: expectedMessage(error, MESSAGING_ERRORS.sendFailed) } satisfies MessageActionData, {
      status: status ?? 500,
      headers: retryAfter ? { "retry-after": retryAfter } : undefined,
    });
  }
});

export default function InternalDirectory({ loaderData }: Route.ComponentProps) {
  const { query, rows, total, page, pageCount, canMessage, failed } = loaderData;
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const loading = navigation.state === "loading" && navigation.location.pathname === BASE;

  useEffect(() => {
    if (failed) toast.error("Erreur", { description: LOAD_FAILED });
  }, [failed]);

  const autoSubmit = () => {
    if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
  };

  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-stack">
      <PageHeader
        level={2}
        titleId="tab-title"
        title="Annuaire Interne"
        description="Les membres validés du réseau, avec leurs mandats en cours. Contactez un confrère pour un co-mandat ou une mise en relation."
      />

      {canMessage ? null : (
        <PremiumUpsellCard>
          <p>La messagerie interne entre confrères est réservée aux membres Premium et fondateurs.</p>
        </PremiumUpsellCard>
      )}

      <Form
        ref={formRef}
        method="get"
        role="search"
        aria-label="Rechercher un confrère"
        className="grid grid-cols-1 gap-4 rounded-lg border bg-muted/50 p-4 md:grid-cols-4"
      >
        <div className="grid min-w-0 gap-2 md:col-span-4">
          <Label htmlFor="q">Recherche</Label>
          <div className="flex min-w-0 gap-2">
            <Input id="q" name="q" type="search" defaultValue={query.q} key={query.q} placeholder="Nom, cabinet, profession, secteur…" maxLength={100} />
            <Button type="submit">
              <Search aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Rechercher</span>
            </Button>
          </div>
        </div>
        <DirectoryFilterFields query={query} options={DIRECTORY_FILTER_OPTIONS} onChange={autoSubmit} resetTo={BASE} sectorLabel="Secteur (NAF)" />
      </Form>

      {failed ? (
        <Alert variant="destructive">
          <AlertTitle>Erreur</AlertTitle>
          <AlertDescription>{LOAD_FAILED}</AlertDescription>
        </Alert>
      ) : null}

      <DirectoryResultCount
        className="flex flex-wrap items-center justify-between gap-2"
        loading={loading}
        total={total}
        noun={["confrère trouvé", "confrères trouvés"]}
        page={page}
        pageCount={pageCount}
      />

      {rows.length === 0 && !failed ? (
        <Card className="flex flex-col items-center gap-2 p-10 text-center">
          <h3 className="text-lg font-semibold">Aucun confrère trouvé</h3>
          <p className="text-sm text-muted-foreground">Essayez de modifier vos critères de recherche ou de réinitialiser les filtres.</p>
        </Card>
      ) : (
        <ul className={`grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 ${loading ? "opacity-60" : ""}`} aria-label="Confrères">
          {rows.map((peer) => (
            <li key={peer.id}>
              <PeerCard
                peer={peer}
                contact={<InternalMessageDialog recipient={{ id: peer.id, name: `${peer.firstName} ${peer.lastName}` }} canMessage={canMessage} />}
              />
            </li>
          ))}
        </ul>
      )}

      <DirectoryPagination className="flex items-center justify-center gap-3" base={BASE} query={query} page={page} pageCount={pageCount} />
    </section>
  );
}

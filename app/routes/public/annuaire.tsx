import { Search } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation, useSubmit } from "react-router";
import { toast } from "~/lib/toast";
import { PageContainer, PageTitle } from "~/components/page";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input, Label } from "~/components/ui/input";
import { DirectoryCard } from "~/features/directory/components/directory-card";
import { parseDirectoryQuery } from "~/features/directory/directory.schema";
import { searchDirectory } from "~/features/directory/directory.server";
import { directoryFilterOptions } from "~/features/directory/labels.server";
import { withReadReplica } from "~/db/read-replica.server";
import { isDatabaseUnavailable } from "~/lib/availability.server";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { DirectoryFilterFields, DirectoryPagination, DirectoryResultCount } from "~/features/directory/components/directory-filters";
import type { Route } from "./+types/annuaire";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Annuaire des professionnels agréés",
    "Trouvez un avocat, un expert-comptable, un notaire ou un conseil en cession agréé par ses pairs pour vendre ou reprendre une entreprise ou un commerce.",
  );

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  // Public page: no guard needed beyond the public projection the feature returns.
  const query = parseDirectoryQuery(new URL(request.url).searchParams);
  // The filters' option lists: resolved here so that the page's bundle has no reference table.
  const options = directoryFilterOptions();
  try {
    // A public read: served by the read replica when there is one.
    const result = await withReadReplica(request, (handle) => searchDirectory(query, handle));
    return { query, options, ...result, failed: false };
  } catch (error) {
    // No database at all: a 503 page (entry.server), not an empty directory answered 200.
    if (isDatabaseUnavailable(error)) throw error;
    logger.error({ err: error, requestId: context.requestId }, "directory load failed");
    // Never kept by the page cache (app/lib/page-cache.server.ts).
    return data({ query, options, cards: [], total: 0, page: 1, pageCount: 1, failed: true }, { headers: { "Cache-Control": "no-store" } });
  }
});

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Annuaire({ loaderData }: Route.ComponentProps) {
  const { query, options, cards, total, page, pageCount, failed } = loaderData;
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const loading = navigation.state === "loading" && navigation.location.pathname === "/annuaire";

  useEffect(() => {
    if (failed) toast.error("Erreur", { description: "Impossible de charger l'annuaire" });
  }, [failed]);

  const autoSubmit = () => {
    if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
  };
  const filtered = Boolean(query.q || query.departement || query.secteur || query.profession);

  return (
    <PageContainer>
      <PageTitle>Annuaire des professionnels agréés</PageTitle>
      <p className="mt-2 max-w-3xl text-muted-foreground">
        Des professionnels de la transmission cooptés par leurs pairs, engagés par une charte de déontologie. Chefs
        d’entreprise, trouvez l’expert qui vous accompagnera pour céder ou reprendre une entreprise.
      </p>

      <Form ref={formRef} method="get" role="search" aria-label="Rechercher un professionnel" className="mt-8 grid gap-4 rounded-lg border bg-muted/50 p-4 md:grid-cols-4">
        <div className="grid gap-2 md:col-span-4">
          <Label htmlFor="q">Recherche</Label>
          <div className="flex gap-2">
            <Input id="q" name="q" type="search" defaultValue={query.q} key={query.q} placeholder="Nom, cabinet, profession, secteur…" maxLength={100} />
            <Button type="submit">
              <Search aria-hidden="true" />
              Rechercher
            </Button>
          </div>
        </div>
        <DirectoryFilterFields query={query} options={options} onChange={autoSubmit} resetTo="/annuaire" />
      </Form>

      <DirectoryResultCount
        className="mt-6 flex items-center justify-between"
        loading={loading}
        total={total}
        noun={["professionnel trouvé", "professionnels trouvés"]}
        page={page}
        pageCount={pageCount}
      />

      {failed ? (
        <Card role="alert" className="mt-6 flex flex-col items-center gap-3 p-10 text-center">
          <h2 className="text-xl font-semibold">L’annuaire n’a pas pu être chargé</h2>
          <p className="text-muted-foreground">Un incident technique nous empêche d’afficher les professionnels. Réessayez dans un instant.</p>
          <Button asChild variant="outline">
            <Link to="/annuaire" reloadDocument>
              Réessayer
            </Link>
          </Button>
        </Card>
      ) : cards.length === 0 ? (
        <Card className="mt-6 flex flex-col items-center gap-3 p-10 text-center">
          <h2 className="text-xl font-semibold">Aucun professionnel trouvé</h2>
          <p className="text-muted-foreground">
            {filtered ? "Essayez de modifier vos critères de recherche ou de réinitialiser les filtres." : "L’annuaire sera bientôt enrichi de nouveaux membres."}
          </p>
          <p className="mt-2 text-sm">Vous êtes un professionnel de la transmission&nbsp;?</p>
          <Button asChild variant="accent">
            <Link to="/join-founder">Rejoindre le réseau</Link>
          </Button>
        </Card>
      ) : (
        <ul className={`mt-6 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 ${loading ? "opacity-60" : ""}`}>
          {cards.map((card) => (
            <li key={card.id}>
              <DirectoryCard card={card} />
            </li>
          ))}
        </ul>
      )}

      <DirectoryPagination className="mt-8 flex items-center justify-center gap-3" base="/annuaire" query={query} page={page} pageCount={pageCount} />
    </PageContainer>
  );
}

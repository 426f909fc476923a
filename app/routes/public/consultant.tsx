import { data, Link } from "react-router";
import { PageContainer } from "~/components/page";
import { Button } from "~/components/ui/button";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/consultant";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Profil non trouvé");

export async function loader() {
  // Public profiles arrive with the directory; until then every slug is unknown.
  throw data(null, { status: 404 });
}

export function ErrorBoundary() {
  return (
    <PageContainer className="flex max-w-xl flex-col items-center gap-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Profil non trouvé</h1>
      <p className="text-muted-foreground">Ce professionnel n'existe pas ou n'est plus disponible.</p>
      <Button asChild>
        <Link to="/annuaire">Retour à l'annuaire</Link>
      </Button>
    </PageContainer>
  );
}

export default function Page() {
  return null;
}

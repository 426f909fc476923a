import { data, Link } from "react-router";
import { PageContainer } from "~/components/page";
import { Button } from "~/components/ui/button";
import { logger } from "~/lib/logger.server";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = () => [{ title: "404 — Page introuvable" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  logger.warn({ path: url.pathname, requestId: context.requestId }, "404: unknown path");
  return data(null, { status: 404 });
}

export async function action({ request }: Route.ActionArgs) {
  const url = new URL(request.url);
  logger.warn({ path: url.pathname, method: request.method }, "404: unknown path");
  return data(null, { status: 404 });
}

export default function NotFound() {
  return (
    <PageContainer className="flex max-w-xl flex-col items-center gap-4 py-24 text-center">
      <h1 className="text-6xl font-bold text-primary">404</h1>
      <p className="text-xl text-muted-foreground">Oops! Page not found</p>
      <p className="text-muted-foreground">
        La page demandée n’existe pas ou a été déplacée. Vérifiez l’adresse, ou repartez de l’une de ces pages&nbsp;:
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button asChild>
          <Link to="/">Retour à l’accueil</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/annuaire">Annuaire des professionnels</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/contact">Nous contacter</Link>
        </Button>
      </div>
    </PageContainer>
  );
}

import { isRouteErrorResponse, Link } from "react-router";
import { Button } from "~/components/ui/button";

/** The French title and message of a failed page, from what its loader or action threw. */
export function describeError(error: unknown): { status: number; title: string; message: string } {
  let title = "Une erreur est survenue";
  let message = "Nous n’avons pas pu afficher cette page. Notre équipe a été prévenue\u00a0; veuillez réessayer dans un instant.";
  let status = 500;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    if (status === 404) {
      title = "Page introuvable";
      message = "La ressource demandée n’existe pas ou n’est plus disponible.";
    } else if (status === 403 || status === 401) {
      title = "Accès refusé";
      message = "Vous n’avez pas les droits nécessaires pour effectuer cette action.";
    } else if (status === 429) {
      title = "Trop de tentatives";
      message = "Veuillez patienter quelques minutes avant de réessayer.";
    } else if (status === 503) {
      title = "Service momentanément indisponible";
      message = "Le service est en cours de rétablissement. Veuillez réessayer dans quelques instants.";
    } else if (status < 500) {
      title = "Requête invalide";
      const body = error.data as { message?: unknown } | string | undefined;
      message = typeof body === "object" && typeof body?.message === "string" ? body.message : message;
    }
  }
  return { status, title, message };
}

/** The error page's body: status, title, message, the incident reference of a 5xx, a way back. */
export function ErrorPage({ error, requestId, home = "/" }: { error: unknown; requestId?: string | null; home?: string }) {
  const { status, title, message } = describeError(error);
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <p className="text-6xl font-bold text-primary">{status}</p>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-muted-foreground">{message}</p>
      {status >= 500 && requestId ? (
        <p className="text-xs text-muted-foreground">
          Référence de l’incident&nbsp;: <code>{requestId}</code>
        </p>
      ) : null}
      <Button asChild>
        <Link to={home}>{home === "/" ? "Retour à l’accueil" : "Retour à l’espace membre"}</Link>
      </Button>
    </section>
  );
}

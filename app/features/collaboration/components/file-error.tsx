// The error of a collaboration file's page: a 404 reads "Dossier introuvable" (the same answer
// for a file that does not exist and for one the member is not part of).
import { isRouteErrorResponse } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";

export function FileErrorAlert({ error }: { error: unknown }) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const message = isRouteErrorResponse(error)
    ? ((error.data as { message?: string } | null)?.message ?? "Erreur")
    : "Une erreur est survenue. Veuillez réessayer dans un instant.";
  return (
    <Alert variant="destructive">
      <AlertTitle>{notFound ? "Dossier introuvable" : "Erreur"}</AlertTitle>
      <AlertDescription>{notFound ? "Ce dossier n’existe pas ou vous n’en êtes pas membre." : message}</AlertDescription>
    </Alert>
  );
}

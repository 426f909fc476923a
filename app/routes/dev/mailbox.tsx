// Built-in mailbox: when no SMTP server is configured, e-mails stay in the outbox table and
// can be read here (404 as soon as SMTP_URL is set).
import { isRouteErrorResponse, Link } from "react-router";
import { formatDateTime } from "~/lib/format";
import { listMailbox, MAILBOX_LIMIT, MAILBOX_STATUS_LABELS, requireLocalMailbox } from "~/lib/mail/outbox.server";
import type { Route } from "./+types/mailbox";

export const meta: Route.MetaFunction = () => [
  { title: "Boîte de réception locale" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  requireLocalMailbox(request);
  const rows = await listMailbox({ limit: MAILBOX_LIMIT });
  return {
    limit: MAILBOX_LIMIT,
    messages: rows.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      kind: m.kind,
      status: MAILBOX_STATUS_LABELS[m.status],
      createdAt: formatDateTime(m.createdAt),
    })),
  };
}

export default function Mailbox({ loaderData }: Route.ComponentProps) {
  const { messages, limit } = loaderData;
  return (
    <div className="mx-auto max-w-5xl p-6">
      <h1 className="text-2xl font-bold">Boîte de réception locale</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        Aucun serveur SMTP n’est configuré (variable SMTP_URL)&nbsp;: les e-mails ne sont pas réellement envoyés. Ils sont
        conservés ici pour être consultés. Les {limit} derniers messages sont affichés, du plus récent au plus
        ancien.
      </p>
      {messages.length === 0 ? (
        <p className="mt-6">Aucun message pour le moment.</p>
      ) : (
        <div className="scroll-cue mt-6 overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm">
            <thead>
              <tr className="border-b">
                <th scope="col" className="px-2 py-2 font-semibold">Date</th>
                <th scope="col" className="px-2 py-2 font-semibold">Destinataire</th>
                <th scope="col" className="px-2 py-2 font-semibold">Objet</th>
                <th scope="col" className="px-2 py-2 font-semibold">Type</th>
                <th scope="col" className="px-2 py-2 font-semibold">Statut</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr key={m.id} className="border-b align-top">
                  <td className="whitespace-nowrap px-2 py-2">{m.createdAt}</td>
                  <td className="px-2 py-2 break-all">{m.to}</td>
                  <td className="px-2 py-2">
                    <Link to={`/dev/mailbox/${m.id}`} className="underline">
                      {m.subject}
                    </Link>
                  </td>
                  <td className="px-2 py-2">
                    <code>{m.kind}</code>
                  </td>
                  <td className="px-2 py-2">{m.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="mx-auto max-w-5xl p-6">
      <h1 className="text-2xl font-bold">{notFound ? "Page introuvable" : "Une erreur est survenue"}</h1>
      <p className="mt-2 text-muted-foreground">
        {notFound
          ? "La ressource demandée n’existe pas ou n’est plus disponible."
          : "La boîte de réception locale n’a pas pu être affichée. Veuillez réessayer dans un instant."}
      </p>
    </div>
  );
}

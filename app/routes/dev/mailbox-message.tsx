// One message of the built-in mailbox: headers, the HTML body in a sandboxed frame (no
// scripts, no same-origin access; links open in the top window on a click), and the text body.
import { isRouteErrorResponse, Link } from "react-router";
import { formatDateTime } from "~/lib/format";
import { getMailboxMessage, MAILBOX_STATUS_LABELS, requireLocalMailbox } from "~/lib/mail/outbox.server";
import type { Route } from "./+types/mailbox-message";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `${data.message.subject} — Boîte de réception locale` : "Boîte de réception locale" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  requireLocalMailbox(request);
  const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : NaN;
  const message = Number.isSafeInteger(id) ? await getMailboxMessage(id) : null;
  if (!message) throw new Response("Not Found", { status: 404 });
  return {
    message: {
      id: message.id,
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      kind: message.kind,
      status: MAILBOX_STATUS_LABELS[message.status],
      attempts: message.attempts,
      lastError: message.lastError,
      createdAt: formatDateTime(message.createdAt),
      sentAt: formatDateTime(message.sentAt),
      html: message.html,
      text: message.text,
    },
  };
}

// Links in the message must leave the frame: the app itself refuses to be framed.
function withTopTarget(html: string): string {
  const base = '<base target="_top">';
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => m + base) : base + html;
}

export default function MailboxMessage({ loaderData }: Route.ComponentProps) {
  const { message } = loaderData;
  // The template id and the transport's error are identifiers, not product text: shown as code.
  const headers: [string, string | null, "code"?][] = [
    ["Objet", message.subject],
    ["Destinataire", message.to],
    ["Répondre à", message.replyTo],
    ["Type", message.kind, "code"],
    ["Créé le", message.createdAt],
    ["Délivré le", message.sentAt || null],
    ["Statut", `${message.status} (${message.attempts} tentative${message.attempts > 1 ? "s" : ""})`],
    ["Dernière erreur", message.lastError, "code"],
  ];
  return (
    <div className="mx-auto max-w-5xl p-6">
      <Link to="/dev/mailbox" className="text-sm underline">
        ← Boîte de réception locale
      </Link>
      <h1 className="mt-4 text-2xl font-bold break-words">{message.subject}</h1>
      <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {headers
          .filter((h): h is [string, string, "code"?] => Boolean(h[1]))
          .map(([label, value, as]) => (
            <div key={label} className="contents">
              <dt className="font-semibold">{label}</dt>
              <dd className="break-all">{as === "code" ? <code>{value}</code> : value}</dd>
            </div>
          ))}
      </dl>
      <h2 className="mt-6 text-lg font-semibold">Version HTML</h2>
      <iframe
        title={`Contenu HTML du message «\u00a0${message.subject}\u00a0»`}
        sandbox="allow-top-navigation-by-user-activation allow-popups"
        srcDoc={withTopTarget(message.html)}
        className="mt-2 h-[600px] w-full rounded border bg-white"
      />
      <h2 className="mt-6 text-lg font-semibold">Version texte</h2>
      <pre className="mt-2 overflow-x-auto whitespace-pre-wrap rounded border bg-muted p-4 text-sm">{message.text}</pre>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="mx-auto max-w-5xl p-6">
      <h1 className="text-2xl font-bold">{notFound ? "Message introuvable" : "Une erreur est survenue"}</h1>
      <p className="mt-2 text-muted-foreground">
        {notFound
          ? "Ce message n’existe pas, ou la boîte de réception locale est désactivée car un serveur SMTP est configuré."
          : "Le message n’a pas pu être affiché. Veuillez réessayer dans un instant."}
      </p>
      <Link to="/dev/mailbox" className="mt-4 inline-block underline">
        Retour à la boîte de réception locale
      </Link>
    </div>
  );
}

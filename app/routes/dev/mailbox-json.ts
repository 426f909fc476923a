// Built-in mailbox as JSON, newest first, for end-to-end tests and scripts
// (`/dev/mailbox.json?to=adresse@exemple.fr`). 404 when an SMTP server is configured.
import { listMailboxMessages, requireLocalMailbox } from "~/lib/mail/outbox.server";
import type { Route } from "./+types/mailbox-json";

export async function loader({ request }: Route.LoaderArgs) {
  requireLocalMailbox(request);
  const to = new URL(request.url).searchParams.get("to")?.trim() || undefined;
  const rows = await listMailboxMessages({ to });
  return Response.json(
    rows.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      kind: m.kind,
      createdAt: m.createdAt.toISOString(),
    })),
    { headers: { "Cache-Control": "no-store" } },
  );
}

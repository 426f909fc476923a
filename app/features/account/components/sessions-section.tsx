import { Laptop } from "lucide-react";
import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { formatDateTime } from "~/lib/format";
import { IntentField, SettingsSection, SubmitButton, useBusy } from "./settings-form";
import { Button } from "~/components/ui/button";
import { useNavigation } from "react-router";

export type SessionView = {
  id: string;
  device: string;
  ipAddress: string | null;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
};

function RevokeButton({ session }: { session: SessionView }) {
  const navigation = useNavigation();
  const busy = useBusy("revoke-session") && navigation.formData?.get("sessionId") === session.id;
  return (
    <Form method="post">
      <IntentField intent="revoke-session" />
      <input type="hidden" name="sessionId" value={session.id} />
      <Button type="submit" variant="outline" size="sm" disabled={busy} aria-label={`Fermer la session ${session.device}, ouverte le ${formatDateTime(session.createdAt)}`}>
        {busy ? "Fermeture..." : "Fermer"}
      </Button>
    </Form>
  );
}

export function SessionsSection({ sessions }: { sessions: SessionView[] }) {
  const others = sessions.filter((s) => !s.current);
  return (
    <SettingsSection
      id="sessions"
      title="Sessions actives"
      description="Les navigateurs et appareils actuellement connectés à votre compte. Fermez toute session que vous ne reconnaissez pas, puis changez votre mot de passe."
    >
      <ul className="grid gap-3" aria-label="Sessions actives">
        {sessions.map((s) => (
          <li key={s.id} className="flex flex-wrap items-start justify-between gap-3 rounded-md border p-3 sm:p-4">
            <div className="flex min-w-0 items-start gap-3">
              <Laptop className="mt-0.5 h-5 w-5 shrink-0 text-muted-foreground" aria-hidden="true" />
              <div className="grid min-w-0 gap-1 text-sm">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {s.device}
                  {s.current ? <Badge variant="success">Cette session</Badge> : null}
                </p>
                <p className="break-all text-muted-foreground">Adresse IP&nbsp;: {s.ipAddress ?? "inconnue"}</p>
                <p className="text-muted-foreground">Ouverte le {formatDateTime(s.createdAt)}</p>
                <p className="text-muted-foreground">Dernière activité le {formatDateTime(s.lastActiveAt)}</p>
              </div>
            </div>
            {s.current ? null : <RevokeButton session={s} />}
          </li>
        ))}
      </ul>
      <p className="text-xs text-muted-foreground">La dernière activité est actualisée au plus une fois par jour.</p>
      {others.length > 0 ? (
        <Form method="post">
          <IntentField intent="revoke-other-sessions" />
          <SubmitButton intent="revoke-other-sessions" label="Fermer toutes les autres sessions" busyLabel="Fermeture..." variant="outline" />
        </Form>
      ) : (
        <p className="text-sm text-muted-foreground">Aucune autre session n’est ouverte.</p>
      )}
    </SettingsSection>
  );
}

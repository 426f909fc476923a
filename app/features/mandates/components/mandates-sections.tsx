// The /mandates page's sections: tabs, 'Mes Mandats' and the delete confirmation.
import { FileText, Plus, Sparkles } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { DismissLink } from "~/components/page";
import { cn } from "~/lib/utils";
import { effectiveStatus } from "../mandate-rules";
import type { MandateCardFigures } from "../mandate-row";
import type { OwnMandate } from "../mandates.server";
import { MandateCard } from "./mandate-card";
import { mandatesHref } from "./urls";

export type MandatesTab = "mandats" | "opportunites";

/** 'Mes Mandats' / 'Opportunités': links, so that each tab has its URL. */
export function MandatesTabs({ tab, search }: { tab: MandatesTab; search: URLSearchParams }) {
  const items: Array<{ key: MandatesTab; label: string; icon: typeof FileText }> = [
    { key: "mandats", label: "Mes Mandats", icon: FileText },
    { key: "opportunites", label: "Opportunités", icon: Sparkles },
  ];
  return (
    <nav aria-label="Onglets des mandats" className="mt-6">
      <ul className="inline-flex gap-1 rounded-lg bg-muted p-1">
        {items.map((item) => (
          <li key={item.key}>
            <Link
              to={mandatesHref(search, { onglet: item.key === "opportunites" ? "opportunites" : null, filtre: null })}
              aria-current={tab === item.key ? "page" : undefined}
              className={cn(
                "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground",
                tab === item.key && "bg-background text-foreground shadow-sm",
              )}
            >
              <item.icon className="h-4 w-4" aria-hidden="true" />
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export type MyMandatesData = {
  mandates: (OwnMandate & MandateCardFigures)[];
  loadError: string | null;
  filter: "expires" | null;
  today: string;
};

/** 'Mes Mandats' (spec §2): the cards, the empty state, the expired-only filter. */
export function MyMandatesSection({ d, search }: { d: MyMandatesData; search: URLSearchParams }) {
  const returnTo = mandatesHref(search);
  if (d.loadError) {
    return (
      <Alert variant="destructive" className="mt-6">
        <AlertDescription>{d.loadError}</AlertDescription>
      </Alert>
    );
  }
  const list = d.filter === "expires" ? d.mandates.filter((m) => effectiveStatus(m.status, m.endDate, d.today) === "expired") : d.mandates;
  return (
    <section aria-labelledby="my-mandates-title" className="mt-6 grid gap-4">
      <h2 id="my-mandates-title" className="text-xl font-semibold">
        {d.filter === "expires" ? "Mes mandats expirés" : "Mes Mandats"}
      </h2>
      {d.filter === "expires" ? (
        <p className="text-sm text-muted-foreground">
          Pour renouveler un mandat expiré, modifiez sa date de fin puis réactivez-le si besoin.{" "}
          <Link className="underline" to={mandatesHref(search, { filtre: null })}>
            Afficher tous les mandats
          </Link>
        </p>
      ) : null}
      {list.length === 0 ? (
        <div className="rounded-lg border border-dashed p-8 text-center">
          <p className="font-semibold">{d.filter === "expires" ? "Aucun mandat expiré" : "Aucun mandat"}</p>
          {d.filter === "expires" ? null : (
            <>
              <p className="mt-1 text-sm text-muted-foreground">Créez votre premier mandat pour commencer</p>
              <Button asChild className="mt-4">
                <Link to={mandatesHref(search, { nouveau: "1" })}>
                  <Plus aria-hidden="true" />
                  Nouveau mandat
                </Link>
              </Button>
            </>
          )}
        </div>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {list.map((m) => (
            <MandateCard
              key={m.id}
              m={m}
              today={d.today}
              returnTo={returnTo}
              hrefs={{
                details: mandatesHref(search, { details: m.id }),
                matching: mandatesHref(search, { matching: m.id }),
                edit: mandatesHref(search, { modifier: m.id }),
                remove: mandatesHref(search, { supprimer: m.id }),
              }}
            />
          ))}
        </div>
      )}
    </section>
  );
}

/** Annuler / Supprimer of the confirmation (spec §2). */
export function DeleteConfirmation({ mandateId, closeTo }: { mandateId: string; closeTo: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  return (
    <Form method="post" action="/mandates" className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end" preventScrollReset>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="mandateId" value={mandateId} />
      <input type="hidden" name="returnTo" value={closeTo} />
      <DismissLink to={closeTo} label="Annuler" />
      <Button type="submit" variant="destructive" disabled={busy}>
        {busy ? "Suppression..." : "Supprimer"}
      </Button>
    </Form>
  );
}


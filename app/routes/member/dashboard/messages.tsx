import { requireMember } from "~/auth/session.server";
import type { Route } from "./+types/messages";

export async function loader({ request }: Route.LoaderArgs) {
  await requireMember(request);
  return null;
}

export default function Tab() {
  return (
    <section aria-labelledby="tab-title">
      <h2 id="tab-title" className="text-xl font-semibold">
        Messages
      </h2>
      <p className="mt-2 text-muted-foreground">Cette section sera disponible très prochainement.</p>
    </section>
  );
}

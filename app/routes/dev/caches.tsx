// The instance's caches: sizes and hit rates, in development only (404 otherwise).
import { cacheStats } from "~/lib/cache.server";
import type { Route } from "./+types/caches";

export function loader() {
  if (process.env.NODE_ENV !== "development") throw new Response("Page introuvable", { status: 404 });
  return { caches: cacheStats() };
}

function rate(hits: number, misses: number): string {
  const total = hits + misses;
  return total === 0 ? "—" : `${Math.round((hits / total) * 100)}\u00a0%`;
}

export default function DevCaches({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-3xl p-6">
      <h1 className="mb-4 text-xl font-semibold">Caches de l’instance</h1>
      <table className="w-full text-left text-sm">
        <thead>
          <tr>
            <th>Cache</th>
            <th>Entrées</th>
            <th>Octets</th>
            <th>Succès</th>
            <th>Échecs</th>
            <th>Taux</th>
            <th>Invalidations</th>
          </tr>
        </thead>
        <tbody>
          {loaderData.caches.map((c) => (
            <tr key={c.name}>
              <td>{c.name}</td>
              <td>{c.size}</td>
              <td>{c.bytes ?? "—"}</td>
              <td>{c.hits}</td>
              <td>{c.misses}</td>
              <td>{rate(c.hits, c.misses)}</td>
              <td>{c.invalidations}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

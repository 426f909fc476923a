// Liveness: the process is up. No guard: public by design, reveals nothing.
export function loader() {
  return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}

#!/usr/bin/env bash
# `npm test`: type check, lint, unit and integration tests (PGlite, and PostgreSQL when
# TEST_DATABASE_URL is set), browser tests and system tests, in two lanes (decision 076):
#
#   lane 1: type check, lint; Vitest (unit tests, integration tests on PGlite); Vitest again on the
#           second runtime (unit tests, integration tests on PostgreSQL)
#   lane 2: the production build (once: build/.inputs-hash); browser tests; system tests, on that
#           build; start-and-serve smoke test on the second runtime
#
# The second runtime is Node 24 from the npm registry when TEST_NODE24=1 (CI sets it), else this
# Node. Each phase's time and CPU time are printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

if [ "${TEST_NODE24:-}" = 1 ]; then
  # Fetched now so that neither lane times the download.
  NODE24=(npx -y -p node@24 node)
else
  NODE24=(node)
fi
"${NODE24[@]}" --version

times=$(mktemp)
logs=$(mktemp -d)
# phase NAME CMD…: runs CMD with its lines prefixed by NAME, records its time, the CPU time of
# its processes (user + system, PostgreSQL's server aside) and its status; a failed phase's last
# lines are printed again at the end, where a reader of a CI log's tail looks first.
phase() {
  local name=$1 start=$SECONDS status=0 cpu
  shift
  cpu=$(mktemp)
  if [ -x /usr/bin/time ]; then set -- /usr/bin/time -q -f "%U %S" -o "$cpu" "$@"; fi
  "$@" 2>&1 | tee "$logs/$name" | sed -u "s/^/[$name] /" || status=$?
  [ $status -eq 0 ] && rm -f "$logs/$name"
  printf '%-24s %5d s  CPU %5s s  %s\n' "$name" $((SECONDS - start)) "$(tail -1 "$cpu" | awk '{printf "%.0f", $1 + $2}')" \
    "$([ $status -eq 0 ] && echo ok || echo "ÉCHEC ($status)")" >>"$times"
  rm -f "$cpu"
  return $status
}

# Two lanes on two cores (decision 076). The browser suite and the system tests mostly wait (on
# Chromium, servers, timers) and both time their journeys: they keep normal priority, one after
# the other so that neither starves the other's, and the CPU-bound checks and Vitest fill the
# cores they leave idle at `nice 10`.
vitest=(node_modules/vitest/vitest.mjs run)
lane1() {
  phase typecheck nice -n 10 npm run --silent typecheck
  phase lint nice -n 10 npm run --silent lint
  # This Node: the unit tests and the integration tests on PGlite.
  phase vitest-pglite nice -n 10 env -u TEST_DATABASE_URL node "${vitest[@]}" --project 'pglite*'
  # The second runtime: the unit tests again (cheap) when it is Node 24, and the integration tests
  # on PostgreSQL (on PGlite when there is no server, so that Node 24 runs them on some driver).
  if [ "${TEST_NODE24:-}" = 1 ]; then
    phase vitest-node24-unit nice -n 10 env -u TEST_DATABASE_URL "${NODE24[@]}" "${vitest[@]}" --project pglite app scripts
  fi
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    phase vitest-postgres nice -n 10 "${NODE24[@]}" "${vitest[@]}" --project 'postgres*'
  elif [ "${TEST_NODE24:-}" = 1 ]; then
    phase vitest-node24-pglite nice -n 10 "${NODE24[@]}" "${vitest[@]}" --project 'pglite*' tests/integration
  fi
}
lane2() {
  local status=0
  phase build npm run --silent build || return 1
  phase e2e npm run --silent test:e2e || status=1
  phase system npm run --silent test:system || status=1
  phase smoke-node24 "${NODE24[@]}" node_modules/tsx/dist/cli.mjs scripts/smoke-start.ts || status=1
  return $status
}

lane1 &
lane1_pid=$!
lane2 &
lane2_pid=$!
status=0
wait $lane1_pid || status=1
wait $lane2_pid || status=1

for failed in "$logs"/*; do
  [ -e "$failed" ] || continue
  echo
  echo "=== $(basename "$failed") : échec, ses 80 dernières lignes ==="
  tail -80 "$failed"
  if [ "$(basename "$failed")" = e2e ]; then
    # What the failing pages showed and what the servers logged: a CI log keeps only its tail.
    grep -a "\[WebServer\]" "$failed" | tail -30 || true
    for context in test-results/*/error-context.md; do
      [ -e "$context" ] || continue
      echo "--- $context"
      head -60 "$context"
    done
  fi
done
rm -rf "$logs"

echo
echo "Temps par phase (total : $((SECONDS - started)) s)"
cat "$times"
awk '{cpu += $5} END {printf "CPU des phases : %d s (sur deux cœurs, au moins %d s)\n", cpu, cpu / 2}' "$times"
rm -f "$times"
exit $status

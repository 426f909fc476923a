#!/usr/bin/env bash
# `npm test`: type check, lint, unit and integration tests (PGlite, and PostgreSQL when
# TEST_DATABASE_URL is set), browser tests and system tests, in two lanes (decision 038):
#
#   lane 1: type check, lint; Vitest (unit tests, integration tests on PGlite); Vitest again on the
#           second runtime (unit tests, integration tests on PostgreSQL); system tests
#   lane 2: the production build (once: build/.inputs-hash); browser tests; start-and-serve
#           smoke test on the second runtime
#
# The second runtime is Node 24 from the npm registry when TEST_NODE24=1 (CI sets it), else this
# Node. The lanes run side by side on two cores: the browser tests, the longest phase, wait on
# Chromium and the server most of the time. Each phase's time and CPU time are printed at the end.
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
# phase NAME CMD…: runs CMD with its lines prefixed by NAME, records its time, the CPU time of
# its processes (user + system, PostgreSQL's server aside) and its status.
phase() {
  local name=$1 start=$SECONDS status=0 cpu
  shift
  cpu=$(mktemp)
  if [ -x /usr/bin/time ]; then set -- /usr/bin/time -q -f "%U %S" -o "$cpu" "$@"; fi
  "$@" 2>&1 | sed -u "s/^/[$name] /" || status=$?
  printf '%-24s %5d s  CPU %5s s  %s\n' "$name" $((SECONDS - start)) "$(tail -1 "$cpu" | awk '{printf "%.0f", $1 + $2}')" \
    "$([ $status -eq 0 ] && echo ok || echo "ÉCHEC ($status)")" >>"$times"
  rm -f "$cpu"
  return $status
}

# Lane 1's checks and Vitest at a lower priority: throughput work, while the build and the browser
# tests beside them are the longest path and wait on each answer (two long journeys ran out of
# their 90–120 s at equal priority on the loaded machine). The system tests keep their priority.
vitest=(node_modules/vitest/vitest.mjs run)
built=$(mktemp -u)
lane1() {
  phase typecheck nice -n 10 npm run --silent typecheck
  phase lint nice -n 10 npm run --silent lint
  # Vitest waits for the browser suite: side by side on two cores, each starved the other's
  # timed journeys (decision 064).
  while [ ! -e "$built.e2e-done" ]; do
    [ -e "$built.failed" ] && break
    sleep 1
  done
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
  # The system tests run lane 2's build: wait for it rather than build a second time beside it.
  while [ ! -e "$built.ok" ]; do
    [ -e "$built.failed" ] && return 1
    sleep 1
  done
  phase system npm run --silent test:system
}
lane2() {
  if phase build npm run --silent build; then touch "$built.ok"; else touch "$built.failed"; return 1; fi
  local e2e=0
  phase e2e npm run --silent test:e2e || e2e=$?
  touch "$built.e2e-done"
  [ $e2e -eq 0 ] || return $e2e
  phase smoke-node24 "${NODE24[@]}" node_modules/tsx/dist/cli.mjs scripts/smoke-start.ts
}

lane1 &
lane1_pid=$!
lane2 &
lane2_pid=$!
status=0
wait $lane1_pid || status=1
wait $lane2_pid || status=1
rm -f "$built.ok" "$built.failed" "$built.e2e-done"

echo
echo "Temps par phase (total : $((SECONDS - started)) s)"
cat "$times"
awk '{cpu += $5} END {printf "CPU des phases : %d s (sur deux cœurs, au moins %d s)\n", cpu, cpu / 2}' "$times"
rm -f "$times"
exit $status

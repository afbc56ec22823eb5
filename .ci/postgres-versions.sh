#!/usr/bin/env bash
# The whole suite with PostgreSQL 16, 17 and 18 as its server engine (or the majors given), one version after the
# other, each on throw-away servers of its own: the nightly-style run that does not fit in CI's time (CONTRIBUTING.md,
# "PostgreSQL versions"). CI itself runs every test on Debian's PostgreSQL 15 (Node 24) and on 18 (Node 22).
#
#   npm run test:postgres-versions           # 16, 17 and 18
#   npm run test:postgres-versions -- 17     # one
#
# OPENPRACTICE_TEST_ENGINES=postgres: the engine loops of the tests run their PostgreSQL cases only (SQLite and
# MariaDB do not depend on the PostgreSQL version); tests without an engine run as usual. Extra vitest arguments
# go in OPENPRACTICE_VITEST_ARGS. Ends with one line per version and fails when one did.
set -uo pipefail
cd "$(dirname "$0")/.."
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(16 17 18)
status=0
summary=()
for version in "${versions[@]}"; do
  echo "=== PostgreSQL $version: every test"
  start=$SECONDS
  # shellcheck disable=SC2086 # the extra arguments are words
  if OPENPRACTICE_TEST_PG_VERSION=$version OPENPRACTICE_TEST_ENGINES=postgres \
    bash .ci/with-databases.sh npx vitest run ${OPENPRACTICE_VITEST_ARGS:-}; then
    result=passed
  else
    result=failed
    status=1
  fi
  summary+=("PostgreSQL $version: $result in $((SECONDS - start)) s")
done
printf '%s\n' "${summary[@]}"
exit "$status"

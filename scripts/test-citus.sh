#!/usr/bin/env bash
# npm run test:citus: the whole suite on the local Citus cluster (scripts/citus-cluster.sh), in a
# fresh database; arguments go to Vitest (a file's name runs that file alone).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/citus-cluster.sh start
# CITUS_CLEAN=0 keeps the databases other runs hold (two runs at once on one cluster).
[ "${CITUS_CLEAN:-1}" = 0 ] || bash scripts/citus-cluster.sh clean
url=$(bash scripts/citus-cluster.sh createdb "omni_test_citus_$$" | tail -n 1)
# The OpenAPI fuzz compares every table's row count around each request; on Citus each count is a
# query to every shard, which made that file take 400 s at 12 cases an operation. The PGlite and
# PostgreSQL runs fuzz 12 cases an operation; here 4 (FUZZ_RUNS sets it), still every operation.
# Every suite at once (test/support/test-suites.ts): the developer's and the slow ones.
TEST_SUITE=${TEST_SUITE:-all} FUZZ_RUNS=${FUZZ_RUNS:-4} TEST_DATABASE_URL="$url" npx vitest run "$@"

#!/usr/bin/env bash
# npm run test:citus: the whole suite on the local Citus cluster (scripts/citus-cluster.sh), in a
# fresh database; arguments go to Vitest (a file's name runs that file alone).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/citus-cluster.sh start
bash scripts/citus-cluster.sh clean
url=$(bash scripts/citus-cluster.sh createdb omni_test_citus | tail -n 1)
TEST_DATABASE_URL="$url" npx vitest run "$@"

#!/usr/bin/env bash
# The main job: set up, then run the 8-flow RED dumbbell example and write its results.
#
#   bash scripts/demo.sh            -> results/dumbbell/{flows,queues,links,timeseries}.parquet,
#                                      summary.json, scenario.toml, cwnd.png, queue.png,
#                                      throughput.png, utilization.png
#   bash scripts/demo.sh OTHER.toml  -> results/OTHER/...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh

scenario="${1:-examples/dumbbell.toml}"
out="results/$(basename "$scenario" .toml)"
echo "==> tcpsim run $scenario --out $out --plot"
exec .venv/bin/tcpsim run "$scenario" --out "$out" --plot

#!/usr/bin/env bash
# The main job: set up, run the 8-flow RED dumbbell example and write its results, then
# a short reproduction of reference document 004 (the Vegas/Sack/Fack NS-2 study: paper
# versus simulator, a report with figures); it prints where the report is.
#
#   bash scripts/demo.sh            -> results/reproductions/004-quick/report/index.html (and README.md),
#                                      results/dumbbell/{flows,queues,links,timeseries}.parquet,
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
if [[ $# -gt 0 ]]; then
    exec .venv/bin/tcpsim run "$scenario" --out "$out" --plot
fi
.venv/bin/tcpsim run "$scenario" --out "$out" --plot

echo
echo "==> tcpsim reproduce 004 --quick   (short runs, one seed; the full run: tcpsim reproduce 004)"
exec .venv/bin/tcpsim reproduce 004 --quick

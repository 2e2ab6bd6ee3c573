#!/usr/bin/env bash
# Sets up, then runs every test: the Rust workspace (release) and the Python suite.
# Extra arguments go to pytest, e.g.  bash scripts/test.sh -k api -x
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh

# The binding crate is a cdylib for Python (tested from pytest); building it as a Rust
# test harness would need libpython, so it is left out here.
echo "==> cargo test --release --workspace"
cargo test --release --workspace --exclude tcpsim-py --quiet

echo "==> pytest"
exec .venv/bin/python -m pytest -q tests "$@"

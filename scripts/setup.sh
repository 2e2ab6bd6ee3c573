#!/usr/bin/env bash
# Prepares a checkout for use; safe to run again (it only redoes what changed).
#
#   - .venv/                 Python virtual environment (created with python3 -m venv)
#   - Python dependencies    maturin, numpy, pandas, pyarrow, matplotlib, tqdm, scipy, rich,
#                            filelock, tomli-w; for the tests pytest, hypothesis, dask;
#                            with TCPSIM_VALIDATION=1 also the "validation" extra (ns-3,
#                            for tests/test_ns3_*.py; .ci/run sets it)
#   - tcpsim (editable)      the Rust extension tcpsim._core built in release mode
#   - target/release/tcpsim-run   the stand-alone scenario runner (cargo build --release)
#
# Needs only python3 (with venv), cargo and a C compiler. Set TCPSIM_PYTHON to choose
# the interpreter that creates .venv (default: python3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
PYTHON="${TCPSIM_PYTHON:-python3}"

say() { printf '==> %s\n' "$*"; }

# Runs a command quietly; shows its output only when it fails.
quiet() {
    local log
    log="$(mktemp)"
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "setup: failed: $*" >&2
        return 1
    fi
    rm -f "$log"
}

for tool in "$PYTHON" cargo; do
    command -v "$tool" >/dev/null 2>&1 || { echo "setup: '$tool' not found on PATH" >&2; exit 1; }
done
if ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1 && ! command -v clang >/dev/null 2>&1; then
    echo "setup: no C compiler/linker (cc, gcc or clang) on PATH; Rust needs one to link" >&2
    exit 1
fi

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "setup: Python 3.11 or newer is needed; $PYTHON is $("$PYTHON" --version 2>&1)" >&2
    echo "       (set TCPSIM_PYTHON to another interpreter)" >&2
    exit 1
fi

if [[ ! -x "$PY" ]]; then
    say "creating .venv ($("$PYTHON" --version 2>&1))"
    quiet "$PYTHON" -m venv "$VENV"
fi

# Python dependencies: reinstalled only when pyproject.toml (or the choice of extras) changes.
extras="test"
if [[ "${TCPSIM_VALIDATION:-}" == 1 ]]; then
    extras="test validation"
fi
stamp="$VENV/.tcpsim-deps"
want="$(cksum < pyproject.toml) $extras"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    say "installing Python dependencies into .venv"
    quiet "$PY" -m pip install --upgrade pip
    deps="$("$PY" - $extras <<'PYEOF'
import pathlib, sys, tomllib
project = tomllib.loads(pathlib.Path("pyproject.toml").read_text())
deps = project["build-system"]["requires"] + project["project"]["dependencies"]
for extra in sys.argv[1:]:
    deps += project["project"]["optional-dependencies"][extra]
print("\n".join(deps))
PYEOF
)"
    mapfile -t dep_list <<<"$deps"
    quiet "$PY" -m pip install "${dep_list[@]}"
    echo "$want" > "$stamp"
fi

# maturin develop installs the package in editable mode (python/ on sys.path, the
# `tcpsim` console script in .venv/bin) and puts _core.*.so into python/tcpsim/. Once
# installed, later runs only rebuild the extension in place (--skip-install).
say "building the tcpsim Python extension (release)"
develop=(env VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH" "$VENV/bin/maturin" develop --release)
installed="$("$PY" -c 'import importlib.util as u; s = u.find_spec("tcpsim"); print(s.submodule_search_locations[0] if s else "")' 2>/dev/null || true)"
if [[ -x "$VENV/bin/tcpsim" && "$installed" == "$ROOT/python/tcpsim" ]]; then
    quiet "${develop[@]}" --skip-install
else
    quiet "${develop[@]}"
fi

say "building tcpsim-run (release)"
quiet cargo build --release -p tcpsim --bins

say "ready: .venv/bin/tcpsim and target/release/tcpsim-run"

"""Shared pytest fixtures.

- `repo_root`: the checkout's root directory.
- `tcpsim_run_bin`: path of the release `tcpsim-run` binary (target/release/tcpsim-run,
  or $TCPSIM_RUN), built with cargo once per session if it is missing.
- `tcpsim_cli`: the command prefix that runs the `tcpsim` CLI of this interpreter.
- `small_scenario` / `small_scenario_file`: a 2-flow RED dumbbell that runs in well under
  a second, with a time series (TOML text, and the same written to a file).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

SMALL_SCENARIO = """\
# Two TCP flows (Reno and NewReno recovery) over a 5 Mbps RED bottleneck.
[simulation]
duration = "5s"
seed = 7

[dumbbell]
pairs = 2
access_delays = ["1ms", "6ms"]

[dumbbell.bottleneck]
rate = "5Mbps"
delay = "10ms"
queue = { kind = "red", limit = "50p", min_th = 5, max_th = 15 }

[dumbbell.access]
rate = "100Mbps"
delay = "2ms"

[[flow]]
name = "reno"
from = "s0"
to = "d0"
recovery = "reno"
max_window = 100

[[flow]]
name = "newreno"
from = "s1"
to = "d1"
recovery = "newreno"
start = "0.1s"
max_window = 100

[monitor]
interval = "100ms"
"""


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def tcpsim_run_bin(repo_root: Path) -> Path:
    env = os.environ.get("TCPSIM_RUN")
    if env:
        return Path(env)
    exe = repo_root / "target" / "release" / "tcpsim-run"
    if not exe.exists():
        cargo = shutil.which("cargo")
        if cargo is None:
            pytest.fail("target/release/tcpsim-run is missing and cargo is not on PATH")
        proc = subprocess.run(
            [cargo, "build", "--release", "-p", "tcpsim", "--bins"],
            cwd=repo_root, capture_output=True, text=True,
        )
        if proc.returncode != 0:
            pytest.fail("cargo build --release -p tcpsim failed:\n" + proc.stderr[-4000:])
    if not exe.exists():
        pytest.fail(f"{exe} does not exist")
    return exe


@pytest.fixture(scope="session")
def tcpsim_cli() -> list:
    """`[.venv/bin/tcpsim]` (the installed console script) if present, else
    `[python, -m, tcpsim]`."""
    script = Path(sys.executable).parent / "tcpsim"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "tcpsim"]


@pytest.fixture(scope="session")
def small_scenario() -> str:
    return SMALL_SCENARIO


@pytest.fixture
def small_scenario_file(tmp_path: Path) -> Path:
    path = tmp_path / "small.toml"
    path.write_text(SMALL_SCENARIO, encoding="utf-8")
    return path

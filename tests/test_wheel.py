"""A wheel built with maturin installs into a fresh virtual environment and runs there
with no Rust on the PATH (docs/install.md).

The test builds the wheel with ``maturin build --release`` in the checkout's own target
directory, so it reuses what ``scripts/setup.sh`` (``maturin develop --release``, same
profile) already compiled: about 3 s in the suite. Run on its own in a checkout that has
never built the extension, the first build compiles everything (about 2 minutes on 2
cores) and later ones reuse it.

The fresh environment is created without pip and the wheel installed into it by this
interpreter's pip (``pip --python``), with ``--no-compile``: the same install a user's
pip does, without the ~10 s of setting up pip in the new environment and byte-compiling
numpy, pandas and the rest. The dependencies come from the wheel's own metadata (the
``dependencies`` of pyproject.toml), resolved by pip from a wheelhouse under
``target/`` that ``pip download`` fills from the package index the first time (and again
whenever the dependencies change), so later runs need no network. In the new environment
every module of the package is imported and a scenario runs through
``python -m tcpsim run`` and the ``tcpsim`` console script, with a PATH from which every
directory holding cargo, rustc or rustup is removed.
"""

from __future__ import annotations

import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator, List

import pytest

import tcpsim

REPO = Path(__file__).resolve().parents[1]
WHEELHOUSE = REPO / "target" / "pip-wheelhouse"
RUST_TOOLS = ("cargo", "rustc", "rustup")
EXAMPLE = REPO / "examples" / "ecn_red.toml"


def _maturin() -> str:
    beside = Path(sys.executable).parent / "maturin"
    found = str(beside) if beside.exists() else shutil.which("maturin")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("maturin is not installed (scripts/setup.sh installs it); CI needs it")
        pytest.skip("maturin is not installed (scripts/setup.sh installs it)")
    return found


def _path_without_rust() -> str:
    """PATH without any directory that holds a Rust tool."""
    dirs = os.environ.get("PATH", "").split(os.pathsep)
    kept = [d for d in dirs if d and not any((Path(d) / tool).exists() for tool in RUST_TOOLS)]
    path = os.pathsep.join(kept)
    assert not any(shutil.which(tool, path=path) for tool in RUST_TOOLS)
    return path


def _run(args: List[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=900, **kw)


def _ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert proc.returncode == 0, f"{' '.join(proc.args)}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _ok(_run([_maturin(), "build", "--release", "--out", out], cwd=REPO))
    (built,) = out.glob("tcpsim-*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_env(wheel, tmp_path_factory) -> Iterator[Path]:
    """A new virtual environment with the wheel and its dependencies, installed with no
    Rust on the PATH; yields its bin directory, and removes the environment (half a
    gigabyte) afterwards."""
    venv = tmp_path_factory.mktemp("venv")
    _ok(_run([sys.executable, "-m", "venv", "--without-pip", "--clear", venv]))
    bindir = venv / "bin"
    env = dict(os.environ, PATH=_path_without_rust())
    install = [sys.executable, "-m", "pip", "--python", bindir / "python", "install",
               "--no-compile", "--no-index", "--find-links", WHEELHOUSE, wheel]
    if _run(install, env=env).returncode != 0:  # a dependency is not in the wheelhouse yet
        _ok(_run([sys.executable, "-m", "pip", "download", "--dest", WHEELHOUSE, wheel]))
        _ok(_run(install, env=env))
    yield bindir
    shutil.rmtree(venv, ignore_errors=True)


def _in_env(bindir: Path, args: List[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{_path_without_rust()}")
    for leak in ("PYTHONPATH", "VIRTUAL_ENV"):  # nothing of this checkout's environment
        env.pop(leak, None)
    # The first process byte-compiles what it imports (installed with --no-compile), so
    # the next ones start in 1 s instead of 3.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return _ok(_run(args, cwd=cwd, env=env))


def test_the_wheel_installs_and_runs_a_scenario_without_rust(fresh_env, tmp_path):
    python = fresh_env / "python"
    shutil.copy(EXAMPLE, tmp_path / EXAMPLE.name)  # run outside the checkout

    modules = [m.name for m in pkgutil.walk_packages(tcpsim.__path__, "tcpsim.")
               if m.name != "tcpsim.__main__"]
    where = _in_env(fresh_env, [python, "-c", "import importlib, tcpsim\n"
                                f"for m in {modules!r}: importlib.import_module(m)\n"
                                "print(tcpsim.__file__, tcpsim.__build__)"], tmp_path)
    location, build = where.stdout.split()
    assert Path(location).is_relative_to(fresh_env.parent), location
    assert build == tcpsim.__build__, (
        f"the wheel's core is build {build}, the extension this test imports is {tcpsim.__build__}: "
        "one of them is not built from the checkout's sources (bash scripts/setup.sh rebuilds the extension)")

    run = _in_env(fresh_env, [python, "-m", "tcpsim", "run", EXAMPLE.name, "--out", "out", "--plot"], tmp_path)
    assert "ecn0" in run.stdout and (tmp_path / "out" / "flows.parquet").exists()
    assert (tmp_path / "out" / "queue.png").exists()
    models = _in_env(fresh_env, [fresh_env / "tcpsim", "models", "cc"], tmp_path)
    assert "vegas" in models.stdout

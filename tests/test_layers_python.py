"""The Python package's layers (docs/architecture.md, "Python package layers"; issue 16):
no module imports a module of a higher layer, and no module imports one that imports it
back, directly or through others. Imports inside functions count as much as those at the
top of a file.

The layers are the import-linter contract in pyproject.toml ([tool.importlinter]), run
here with its ``lint-imports`` command; the loops are found on grimp's import graph of
the package (grimp is import-linter's graph library).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = "tcpsim"


def _lint_imports() -> str:
    """The ``lint-imports`` command of this interpreter's environment."""
    beside = Path(sys.executable).parent / "lint-imports"
    found = str(beside) if beside.exists() else shutil.which("lint-imports")
    if found is None:
        pytest.fail("lint-imports not found: pip install import-linter "
                    "(a test dependency in pyproject.toml)")
    return found


def test_no_module_imports_a_higher_layer():
    proc = subprocess.run([_lint_imports(), "--no-cache"], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, f"the layers contract is broken:\n{proc.stdout}\n{proc.stderr}"
    assert "1 kept, 0 broken" in proc.stdout, proc.stdout


def import_loops(graph) -> list:
    """Every import a -> b of the package for which b leads back to a, as the loop
    a -> b -> ... -> a (one shortest way back each)."""
    loops = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back:
                loops.append((importer,) + tuple(back))
    return loops


def _describe(graph, loop) -> str:
    steps = []
    for a, b in zip(loop, loop[1:]):
        lines = sorted({d["line_number"] for d in graph.get_import_details(importer=a, imported=b)})
        steps.append(f"{a} -> {b} (line {', '.join(map(str, lines))})")
    return "\n    ".join(steps)


def test_no_import_loops():
    graph = grimp.build_graph(PACKAGE, cache_dir=None)
    assert len(graph.modules) > 30  # the whole package was read
    loops = import_loops(graph)
    assert not loops, "import loops in the package:\n  " + "\n  ".join(
        _describe(graph, loop) for loop in loops)


def test_a_loop_is_found_and_shown():
    graph = grimp.ImportGraph()
    for name in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(name)
    graph.add_import(importer="p.a", imported="p.b", line_number=3, line_contents="from . import b")
    graph.add_import(importer="p.b", imported="p.c", line_number=5, line_contents="from . import c")
    graph.add_import(importer="p.c", imported="p.a", line_number=7, line_contents="from . import a")
    loops = import_loops(graph)
    assert ("p.a", "p.b", "p.c", "p.a") in loops and len(loops) == 3
    assert _describe(graph, loops[0]) == \
        "p.a -> p.b (line 3)\n    p.b -> p.c (line 5)\n    p.c -> p.a (line 7)"


def _run_fresh(code: str) -> str:
    """Runs `code` in a fresh interpreter (nothing of tcpsim imported yet); returns what
    it printed, failing the test if it failed."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_import_tcpsim_loads_the_sweep_machinery_only_when_asked():
    code = (
        "import sys, tcpsim\n"
        "assert 'tcpsim.sweep' not in sys.modules, 'loaded eagerly'\n"
        "assert {'Sweep', 'load_sweep', 'run_sweep'} <= set(tcpsim.__all__)\n"
        "assert {'Sweep', 'load_sweep', 'run_sweep', 'sweep'} <= set(dir(tcpsim))\n"
        "from tcpsim.sweep import Sweep, run_sweep\n"
        "assert tcpsim.Sweep is Sweep and tcpsim.run_sweep is run_sweep\n"
        "assert tcpsim.sweep is sys.modules['tcpsim.sweep']\n"
        "from tcpsim import load_sweep\n"
        "try:\n"
        "    tcpsim.no_such_name\n"
        "except AttributeError as e:\n"
        "    assert 'no_such_name' in str(e)\n"
        "else:\n"
        "    raise AssertionError('no AttributeError')\n"
    )
    _run_fresh(code)


#: Modules that take a large share of a second to import (pandas alone about half a
#: second; docs/performance.md, "Traces and the Python layer"): ``import tcpsim`` and the
#: command line's parser load none of them; the functions that need one import it.
HEAVY_MODULES = ("pandas", "pyarrow", "numpy", "matplotlib", "scipy", "dask", "rich", "tqdm")


def _heavy_modules_loaded(code: str) -> list:
    """The `HEAVY_MODULES` that `code`, run in a fresh interpreter, left loaded."""
    probe = code + (
        "\nimport json, sys\n"
        f"print(json.dumps([m for m in {HEAVY_MODULES!r} if m in sys.modules]))\n")
    return json.loads(_run_fresh(probe).strip().splitlines()[-1])


def test_import_tcpsim_loads_no_heavy_module():
    assert _heavy_modules_loaded("import tcpsim") == []


def test_the_command_line_parser_loads_no_heavy_module():
    # Every subcommand's parser (run, sweep, reproduce, models, plot, ...) is built.
    code = "from tcpsim.cli import build_parser\nbuild_parser().parse_args(['run', 'x.toml'])"
    assert _heavy_modules_loaded(code) == []


def test_the_probe_sees_a_heavy_module_once_a_name_needs_it():
    # tcpsim.aggregate is analysis', which needs pandas: the check above can fail.
    assert "pandas" in _heavy_modules_loaded("import tcpsim\ntcpsim.aggregate")


def test_lazy_names_are_the_modules_own():
    code = (
        "import sys, tcpsim\n"
        "from tcpsim import aggregate, window, metrics, analysis\n"
        "import tcpsim.analysis as a, tcpsim.metrics as m\n"
        "assert aggregate is a.aggregate and window is a.window\n"
        "assert metrics is m and analysis is a and tcpsim.metrics is m\n"
        "assert {'aggregate', 'window', 'metrics', 'analysis'} <= set(dir(tcpsim))\n"
        "from tcpsim.reproduce import make_plan, Measurements, reproduce\n"
        "import tcpsim.reproduce.runner as r, tcpsim.reproduce.checks as c\n"
        "assert make_plan is r.make_plan and Measurements is c.Measurements\n"
        "import tcpsim.reproduce as rp\n"
        "try:\n"
        "    rp.no_such_name\n"
        "except AttributeError as e:\n"
        "    assert 'no_such_name' in str(e)\n"
        "else:\n"
        "    raise AssertionError('no AttributeError')\n"
    )
    _run_fresh(code)

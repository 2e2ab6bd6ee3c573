"""Every command the documentation shows runs as written, in the order it is shown:
the ```sh block of README.md's "Using it", the examples of every ``--help``, and the
``tcpsim`` lines of the ```sh blocks in docs/. They run from a scratch directory that
looks like the top of a checkout (examples/ and bench/ linked in), in one shared
directory per source, so a command sees what the commands before it wrote (the README
plots a sweep only after running it).

The ``tshark`` lines of docs/ run too, after the commands that write what they read
(they need Wireshark's ``tshark``: left out where it is missing, except under CI, which
installs it). A command passes when it exits 0 without a traceback. ``HOST`` / ``SCHEDULER`` stand for
a Dask scheduler the reader has; none is here, so those commands must stop with one
line saying the scheduler cannot be reached and exit status 1 (``TCPSIM_CONNECT_TIMEOUT``
shortens the wait). Lines of other programs (``dask scheduler``) are not run.
Plain commands run in this process (`tcpsim.cli.main`, what the console script calls);
commands with shell syntax (globs, ``>``, ``&&``) run in bash.

A full reproduction (``tcpsim reproduce DOC`` without ``--quick``) takes minutes to tens
of minutes; in the default suite it runs with ``--quick`` added (same code path, short
durations, one seed), and as written when ``TCPSIM_FULL_REPRODUCTION=1`` (the flag of
the full-run test in test_reproduce.py). Commands with ``--ns2`` need ns-2.35 (``ns``):
they are left out where it is missing, except under CI, which installs it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from tcpsim import cli

REPO = Path(__file__).resolve().parents[1]
PLACEHOLDERS = ("HOST", "SCHEDULER")
SHELL = re.compile(r"[*?<>|&;$`]")


def _sh_blocks(text: str) -> List[str]:
    return re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)


def _commands(block: str, programs: tuple = ("tcpsim",)) -> List[str]:
    """The command lines of `programs` in a block, comments removed, continuations joined."""
    out, buf = [], ""
    for line in block.splitlines():
        line = line.strip()
        if buf:
            line = buf + " " + line
            buf = ""
        if line.endswith("\\"):
            buf = line[:-1].strip()
            continue
        line = re.sub(r"\s+#.*$", "", line) if not line.startswith("#") else ""
        if any(line.startswith(f"{p} ") or line == p for p in programs):
            out.append(line)
    return out


def _help_examples() -> List[str]:
    parser = cli.build_parser()
    texts = [parser.format_help()]
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    texts += [p.format_help() for p in sub.choices.values()]
    lines: List[str] = []
    for text in texts:
        if "examples:" not in text:
            continue
        section = text.split("examples:", 1)[1]
        for cmd in _commands(section):
            if cmd not in lines:
                lines.append(cmd)
    return lines


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """One directory for the module: README, then --help, then docs/ run in it, as a
    reader would, so later commands reuse the sweep runs earlier ones finished."""
    root = tmp_path_factory.mktemp("checkout")
    for name in ("examples", "bench"):
        (root / name).symlink_to(REPO / name)
    return root


@pytest.fixture
def checkout(scratch, monkeypatch):
    monkeypatch.chdir(scratch)
    monkeypatch.setenv("TCPSIM_CONNECT_TIMEOUT", "2")
    return scratch


def _shortened(command: str) -> str:
    """The command as run here: full reproductions get ``--quick`` unless the full run
    is asked for (see the module's docstring)."""
    long_reproduction = (command.startswith("tcpsim reproduce ") and "--quick" not in command
                         and not any(p in command for p in PLACEHOLDERS))
    if long_reproduction and not os.environ.get("TCPSIM_FULL_REPRODUCTION"):
        return command + " --quick"
    return command


def _run(command: str, capsys) -> tuple:
    command = _shortened(command)
    if SHELL.search(command) or not command.startswith("tcpsim"):
        env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
        proc = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=300, env=env)
        return proc.returncode, proc.stdout, proc.stderr
    capsys.readouterr()
    try:
        status = cli.main(shlex.split(command)[1:])
    except SystemExit as e:  # --help
        status = e.code or 0
    out, err = capsys.readouterr()
    return status, out, err


def _check(commands: List[str], capsys, where: str) -> None:
    assert commands, f"no tcpsim commands found in {where}"
    for command in commands:
        if "--ns2" in command and shutil.which("ns") is None and not os.environ.get("CI"):
            continue  # needs ns-2.35 (`ns`), which CI installs
        if command.startswith("tshark") and shutil.which("tshark") is None and not os.environ.get("CI"):
            continue  # needs Wireshark's tshark, which CI installs
        status, out, err = _run(command, capsys)
        assert "Traceback" not in err, f"{where}: {command}\n{err}"
        if any(p in command for p in PLACEHOLDERS):
            assert status == 1, f"{where}: {command} -> {status}\n{err}"
            assert "cannot connect to the Dask scheduler" in err, f"{where}: {command}\n{err}"
        else:
            assert status == 0, f"{where}: {command} -> {status}\n{err}"


def test_readme_commands_run_in_order(checkout, capsys):
    text = (REPO / "README.md").read_text(encoding="utf-8")
    using = text.split("## Using it", 1)[1]
    commands = _commands(_sh_blocks(using)[0])
    assert commands.index("tcpsim sweep examples/sweep_red.toml") < \
        commands.index("tcpsim plot results/sweeps/sweep_red")
    _check(commands, capsys, "README.md")
    assert (checkout / "results" / "db" / "cwnd.png").exists()
    assert list((checkout / "results" / "sweeps" / "sweep_red").glob("sweep_*.png"))


def test_help_examples_run(checkout, capsys):
    commands = _help_examples()
    assert "tcpsim models red" in commands and any("plot" in c for c in commands)
    _check(commands, capsys, "--help")


def test_docs_commands_run(checkout, capsys):
    commands = []
    for page in sorted((REPO / "docs").rglob("*.md")):
        for block in _sh_blocks(page.read_text(encoding="utf-8")):
            commands += [c for c in _commands(block, ("tcpsim", "tshark")) if c not in commands]
    assert any(c.startswith("tshark -r results/traced/") for c in commands), "docs/traces.md's tshark lines"
    _check(commands, capsys, "docs/")


def test_docs_index_lists_every_page():
    index = (REPO / "docs" / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([^)#]+\.md)", index))
    pages = {p.relative_to(REPO / "docs").as_posix() for p in (REPO / "docs").rglob("*.md")}
    missing = sorted(pages - linked - {"README.md"})
    assert not missing, f"docs/README.md does not list: {missing}"
    assert not sorted(l for l in linked if not (REPO / "docs" / l).exists())

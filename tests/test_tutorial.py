"""docs/tutorial.md runs as written, and shows the output it really prints.

Every ```python block of the tutorial is executed in order, in one namespace, in a
temporary directory. A ```text block that directly follows a python block (only blank
lines between) is that block's printed output; it must match what the block prints now.
A block that prints something must be followed by its output.

When a change to the simulator legitimately changes the numbers, regenerate the output
blocks from a real run (and reread the prose around them):

    .venv/bin/python tests/test_tutorial.py --update
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional, Tuple

TUTORIAL = Path(__file__).resolve().parents[1] / "docs" / "tutorial.md"

FENCE = re.compile(r"^```([A-Za-z0-9_-]*)[^\n]*\n(.*?)^```[ \t]*$\n?", re.M | re.S)


class Block:
    def __init__(self, start: int, end: int, code: str):
        self.start, self.end, self.code = start, end, code
        self.output: Optional[Tuple[int, int, str]] = None  # (start, end, text)


def parse(text: str) -> List[Block]:
    """The python blocks of the Markdown, each with its output block if it has one."""
    blocks: List[Block] = []
    last: Optional[Block] = None
    for match in FENCE.finditer(text):
        lang, body = match.group(1), match.group(2)
        if lang == "python":
            last = Block(match.start(), match.end(), body)
            blocks.append(last)
        elif lang == "text" and last is not None and last.output is None \
                and text[last.end:match.start()].strip() == "":
            last.output = (match.start(), match.end(), body)
            last = None
        else:
            last = None
    return blocks


def normalize(out: str) -> str:
    return "\n".join(line.rstrip() for line in out.strip("\n").splitlines())


def execute(blocks: List[Block], workdir: Path) -> List[str]:
    """Runs the blocks in order in `workdir`; returns what each printed."""
    namespace = {"__name__": "__main__"}
    outputs = []
    old = os.getcwd()
    os.chdir(workdir)
    try:
        for i, block in enumerate(blocks):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                try:
                    exec(compile(block.code, f"docs/tutorial.md block {i + 1}", "exec"), namespace)
                except Exception as e:
                    raise AssertionError(
                        f"docs/tutorial.md python block {i + 1} failed: {e!r}\n{block.code}") from e
            outputs.append(buf.getvalue())
    finally:
        os.chdir(old)
    return outputs


def update(text: str, blocks: List[Block], outputs: List[str]) -> str:
    """The Markdown with every output block replaced by (or set to) what was printed."""
    pieces, pos = [], 0
    for block, out in zip(blocks, outputs):
        out = normalize(out)
        if block.output is not None:
            start, end, _ = block.output
            pieces.append(text[pos:start])
            if out:
                pieces.append(f"```text\n{out}\n```\n")
            pos = end
        elif out:
            pieces.append(text[pos:block.end])
            pieces.append(f"\n```text\n{out}\n```\n")
            pos = block.end
    pieces.append(text[pos:])
    return "".join(pieces)


# ---------------------------------------------------------------------------- the test


def test_tutorial_runs_and_shows_its_real_output(tmp_path):
    text = TUTORIAL.read_text(encoding="utf-8")
    blocks = parse(text)
    assert len(blocks) >= 5, "docs/tutorial.md lost its python blocks"
    started = time.monotonic()
    outputs = execute(blocks, tmp_path)
    elapsed = time.monotonic() - started

    # what the tutorial says it writes
    for png in ("tutorial_out/red_newreno/queue.png", "tutorial_out/droptail_newreno/throughput.png",
                "tutorial_out/queues.png", "tutorial_out/sweep_jain.png",
                "tutorial_out/sweep_goodput.png"):
        path = tmp_path / png
        assert path.exists() and path.stat().st_size > 10_000, png
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png

    fix = "run `.venv/bin/python tests/test_tutorial.py --update` and reread the prose"
    for i, (block, out) in enumerate(zip(blocks, outputs), 1):
        printed = normalize(out)
        if block.output is None:
            assert printed == "", (
                f"docs/tutorial.md python block {i} prints output the page does not show; {fix}")
            continue
        shown = normalize(block.output[2])
        assert printed == shown, (
            f"docs/tutorial.md python block {i}: the output shown differs from what it prints "
            f"now; if the change is expected, {fix}.\n--- shown\n{shown}\n--- printed\n{printed}")
    # the page promises a run time of a few seconds; leave room for slow CI machines
    assert elapsed < 120, f"the tutorial took {elapsed:.0f} s"


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(__doc__)
    text = TUTORIAL.read_text(encoding="utf-8")
    blocks = parse(text)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        outputs = execute(blocks, Path(tmp))
        elapsed = time.monotonic() - started
    TUTORIAL.write_text(update(text, blocks, outputs), encoding="utf-8")
    print(f"{TUTORIAL}: {len(blocks)} python blocks run in {elapsed:.1f} s; output blocks updated")

"""The repository stands alone: nothing in it refers to a path outside it (the material
the project was built from is not in a clone). Documents are cited by their
bibliographic reference, not by a file of ours elsewhere.

Every file git tracks is read as text (binary files are skipped) and searched for paths
that leave the repository: ``../shared/...``, ``/work/...`` and the like.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"\.\./shared\b|\bshared/(seeds|reference)\b|/work/(shared|main)\b")


def _tracked() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [REPO / p for p in out.decode().split("\0") if p]


def test_no_file_refers_to_a_path_outside_the_repository():
    found = []
    for path in _tracked():
        if path == Path(__file__).resolve():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary (figures, parquet) or gone from the work tree
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()[:120]}")
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_the_check_sees_such_paths():
    assert OUTSIDE.search("source = \"../shared/seeds/004.txt\"")
    assert OUTSIDE.search("see /work/shared/reference/001.md")
    assert not OUTSIDE.search("the flows share a bottleneck (shared by many)")

"""The repository stands alone: nothing in it refers to a path outside it (the material
the project was built from is not in a clone). Documents are cited by their
bibliographic reference, not by a file of ours elsewhere.

Every file git tracks is read as text (binary files are skipped) and searched for paths
that leave the repository: ``../shared/...``, ``/work/...`` and the like.

The reproduction inputs (``experiments/``) cite each document by its own numbering, never
by our reading notes on it (which are not in the repository): the only section sign they
may hold is one of document 004's own Roman section numbers (§I to §V), and a published
number is given as the document prints it (``printed``), not as an ``ocr`` quotation.
Nowhere else does a file cite documents 001 or 004 by an Arabic "§" number (001 numbers
its sections "Sect. 5.1", 004 in Roman) or cite "reference §..." notes.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"\.\./shared\b|\bshared/(seeds|reference)\b|/work/(shared|main)\b")


#: Document 004's own section numbers, the only "§" the experiment files may use.
DOC004_SECTION = re.compile(r"§(?:I|II|III|IV|V)\b")
SECTION_SIGN = re.compile(r"§")
#: A key named ``ocr`` in a TOML file (a line ``ocr = ...`` or ``{ ocr = ... }``).
OCR_KEY = re.compile(r"(?:^|[{,])\s*ocr\s*=")
#: A citation of our reading notes on document 001 or 004 rather than of the document.
NOTES_CITATION = re.compile(r"\b(?:(?:reference|document|doc\.?)\s+)?00[14]\s*§\s*\d|\breference\s+(?:file'?s?\s+)?§")


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


def _experiment_citation_problems(rel: str, text: str) -> list[str]:
    """What in one file under experiments/ is not cited by the document's own numbering."""
    found = []
    own_roman = rel.startswith("experiments/004/")
    for n, line in enumerate(text.splitlines(), 1):
        signs = len(SECTION_SIGN.findall(line))
        allowed = len(DOC004_SECTION.findall(line)) if own_roman else 0
        if signs > allowed:
            found.append(f"{rel}:{n}: a section sign that is not document 004's §I-§V: {line.strip()[:120]}")
        if rel.endswith(".toml") and OCR_KEY.search(line.split("#", 1)[0]):
            found.append(f"{rel}:{n}: key 'ocr' (give the value as printed: 'printed'): {line.strip()[:120]}")
    return found


def test_experiments_cite_each_document_by_its_own_numbering():
    found = []
    for path in _tracked():
        rel = path.relative_to(REPO).as_posix()
        if not rel.startswith("experiments/"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        found += _experiment_citation_problems(rel, text)
    assert not found, "citations not of the document's own numbering:\n" + "\n".join(found)


def test_no_file_cites_our_notes_on_documents_001_and_004():
    found = []
    for path in _tracked():
        rel = path.relative_to(REPO).as_posix()
        # the committed reports are regenerated from experiments/ (tcpsim reproduce)
        if path == Path(__file__).resolve() or rel.startswith("docs/reproductions/"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if NOTES_CITATION.search(line):
                found.append(f"{rel}:{n}: {line.strip()[:120]}")
    assert not found, "citations of our reading notes, not of the documents:\n" + "\n".join(found)


def test_the_citation_checks_see_what_they_should():
    assert _experiment_citation_problems("experiments/001/numbers.toml", 'where = "Sect. 5.1; reference §4.3"')
    assert _experiment_citation_problems("experiments/004/p1_red.toml", "# Part 1 (§1.2)")
    assert _experiment_citation_problems("experiments/001/e1.toml", "# see §II")   # 004's numbers only in 004
    assert not _experiment_citation_problems("experiments/004/p1_red.toml", 'section = "§II; Table 2"; §IV and §V')
    assert _experiment_citation_problems("experiments/004/p1_red.toml", "# §IIIb")   # not a Roman number
    assert _experiment_citation_problems("experiments/004/numbers.toml", 'ocr = "63.8438Mbs"')
    assert _experiment_citation_problems("experiments/004/numbers.toml", 'x = { ocr = "1" }')
    assert not _experiment_citation_problems("experiments/004/numbers.toml", 'printed = "63.8438Mbs"  # not ocr = "x"')
    assert not _experiment_citation_problems("experiments/004/numbers.toml", 'reading = "the OCR lost it"')
    for cited in ["reference §4.3", "reference document 001 §1.2", "001 §5.2", "Reference 004 §5.1",
                  "the reference file's §2.3"]:
        assert NOTES_CITATION.search(cited), cited
    for own in ["001 Sect. 5.2", "004 §II", "RFC 3168 §6.1", "reference document 002 §2.4", "ns-2 manual §7.2"]:
        assert not NOTES_CITATION.search(own), own


def test_the_check_sees_such_paths():
    assert OUTSIDE.search("source = \"../shared/seeds/004.txt\"")
    assert OUTSIDE.search("see /work/shared/reference/001.md")
    assert not OUTSIDE.search("the flows share a bottleneck (shared by many)")

"""The generated blocks of the docs match the registry, and every registered model has
its parameter table in docs/models/ (tcpsim.docgen)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tcpsim import docgen, models

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"


def test_docs_match_the_registry_and_every_model_has_a_page():
    problems = docgen.check(DOCS)
    assert not problems, "\n\n".join(problems)


def test_the_replaced_hand_tables_are_generated_blocks():
    for page, ref in [("models/droptail.md", "queue/droptail"), ("models/red.md", "queue/red"),
                      ("models/tcp.md", "agent/tcp"), ("models/cbr.md", "agent/cbr"),
                      ("scenario.md", "agent/tcp"), ("scenario.md", "queue/red"),
                      ("scenario.md", "keys/tcp_flow"), ("models/README.md", "index")]:
        assert f"<!-- registry:{ref} -->" in (DOCS / page).read_text(encoding="utf-8"), (page, ref)


def test_every_model_is_in_the_index():
    text = (DOCS / "models" / "README.md").read_text(encoding="utf-8")
    for spec in models.models():
        assert f"| `{spec.name}`" in text and spec.summary in text


@pytest.fixture
def docs(tmp_path):
    root = tmp_path / "docs"
    shutil.copytree(DOCS, root)
    return root


def test_a_stale_table_is_reported_and_rewritten(docs):
    page = docs / "models" / "red.md"
    row = '| `min_th` | number or "auto" | packets |'
    page.write_text(page.read_text().replace(f'{row} `5` |', f'{row} `6` |'))
    problems = docgen.check(docs)
    assert len(problems) == 1 and "red.md: generated tables are out of date" in problems[0]
    assert f"-{row} `6` |" in problems[0]       # the diff
    assert docgen.write(docs) == [page]
    assert docgen.check(docs) == []


def test_a_model_without_a_page_is_reported_and_a_stub_fixes_it(docs):
    page = docs / "models" / "droptail.md"
    text = page.read_text()
    start = text.index("<!-- registry:queue/droptail -->")
    end = text.index("<!-- /registry -->", start) + len("<!-- /registry -->")
    page.write_text(text[:start] + text[end:])
    problems = docgen.check(docs)
    assert any("queue discipline 'droptail' has no parameter table" in p and "--stub queue/droptail" in p
               for p in problems), problems
    new = docgen.stub(docs, "queue/droptail")
    assert new.name == "queue-droptail.md"            # droptail.md is taken
    assert "## Validation" in new.read_text() and '| `limit` |' in new.read_text()
    docgen.write(docs)                                 # the index now links the new page
    assert docgen.check(docs) == []


def test_markers_naming_nothing_and_unclosed_markers_are_errors(docs):
    page = docs / "models" / "red.md"
    page.write_text(page.read_text() + "\n<!-- registry:queue/nosuch -->\n<!-- /registry -->\n")
    assert any("names no registered model" in p for p in docgen.check(docs))
    page.write_text(page.read_text() + "\n<!-- registry:queue/red -->\n")
    assert any("complete blocks" in p for p in docgen.check(docs))


def test_markers_quoted_in_prose_are_not_blocks(docs):
    page = docs / "models" / "red.md"
    page.write_text(page.read_text() + "\nWrite `<!-- registry:queue/red -->` in a page.\n")
    assert docgen.check(docs) == []


def test_main_check_exit_status(docs, capsys):
    assert docgen.main(["--docs", str(docs), "--check"]) == 0
    (docs / "models" / "cbr.md").write_text((docs / "models" / "cbr.md").read_text().replace("`\"448Kbps\"`", "`\"1Mbps\"`"))
    assert docgen.main(["--docs", str(docs), "--check"]) == 1
    assert "cbr.md" in capsys.readouterr().err
    assert docgen.main(["--docs", str(docs)]) == 0
    assert docgen.main(["--docs", str(docs), "--check"]) == 0

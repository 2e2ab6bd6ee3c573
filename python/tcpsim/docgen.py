"""Writes the registry's tables into the Markdown documentation.

Documentation pages hold generated blocks between markers; everything between a start
marker and ``<!-- /registry -->`` is rewritten from the core's registry, the prose around
it is left alone:

- ``<!-- registry:queue/red -->``: the parameter table of one model (family id / name,
  as ``tcpsim models`` names them), the table the core writes (``model::markdown_table``);
- ``<!-- registry:keys/tcp_flow -->`` (also ``keys/link``, ``keys/flow``): the scenario
  keys that select a model in that table, with the registered models and the default;
- ``<!-- registry:profile/linux -->``: the defaults a TCP profile gives a flow's keys;
- ``<!-- registry:index -->``: every registered model by family, linked to its page.

Usage (from the repository root)::

    python -m tcpsim.docgen                  # rewrite every generated block under docs/
    python -m tcpsim.docgen --check          # exit 1 if a block is stale or a model has no page
    python -m tcpsim.docgen --stub cc/vegas  # start docs/models/vegas.md for a new model

Every registered model must have its parameter table in a page of ``docs/models/``;
``tests/test_docs_registry.py`` runs the check, so a new model cannot land without its
page, nor a default change without its tables.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from . import models as reg
from .models_cli import markdown_index, markdown_table

END = "<!-- /registry -->"
NOTE = "<!-- generated from the registry by `python -m tcpsim.docgen`; edit the model's SPEC in the core, not this block -->"
# Markers stand alone on their lines (a marker quoted in prose or code is not one).
BLOCK = re.compile(r"^(?P<start><!-- registry:(?P<id>[A-Za-z0-9_./-]+) -->\n)(?P<body>.*?)^(?P<end><!-- /registry -->)$", re.S | re.M)
START = re.compile(r"^<!-- registry:(?P<id>[A-Za-z0-9_./-]+) -->$", re.M)
MODELS_DIR = "models"


class DocError(Exception):
    """A marker the generator cannot fill (unknown model, missing end marker)."""


def default_docs_dir() -> Path:
    """``docs/`` of the repository this package is installed from (editable install),
    else ``./docs``."""
    repo_docs = Path(__file__).resolve().parents[2] / "docs"
    return repo_docs if repo_docs.is_dir() else Path("docs")


# ---------------------------------------------------------------------- rendering


def render(block_id: str, page: Path, docs: Path) -> str:
    """The generated text of one block (without its markers)."""
    if block_id == "index":
        return markdown_index(reg.models(), model_pages(docs, relative_to=page.parent))
    if block_id.startswith("keys/"):
        return keys_table(block_id[len("keys/"):])
    if block_id.startswith("profile/"):
        profile = reg.find_profile(block_id[len("profile/"):])
        if profile is None:
            raise DocError(f"'{block_id}' names no TCP profile (profiles: {', '.join(p.name for p in reg.profiles())})")
        return profile.markdown_table()
    family_id, _, name = block_id.partition("/")
    if not name or not reg.is_family(family_id):
        raise DocError(f"'{block_id}' is not FAMILY/NAME, keys/SCOPE, profile/NAME or index")
    spec = reg.find(family_id, name)
    if spec is None:
        raise DocError(f"'{block_id}' names no registered model: {reg.unknown_model_message(name, reg.family(family_id))}")
    return markdown_table(spec)


def keys_table(scope: str) -> str:
    """The keys that select a model in a table of `scope` ("flow", "tcp_flow", "link")."""
    fams = [f for f in reg.families(with_models=True) if f.scope == scope]
    if not fams:
        raise DocError(f"no family has scope '{scope}' (scopes: flow, tcp_flow, link)")
    rows = ["| key | selects | registered models | default |", "|---|---|---|---|"]
    for f in fams:
        key = f"`{f.key}`" + (f", `{f.key}_reverse`" if scope == "link" else "")
        names = ", ".join(f"`{s.name}`" for s in reg.models(f.id))
        default = f'`"{f.default}"`' if f.default else "none"
        rows.append(f"| {key} | {f.title} | {names} | {default} |")
    return "\n".join(rows) + "\n"


def update_text(text: str, page: Path, docs: Path) -> str:
    """`text` with every generated block rewritten."""
    starts = len(START.findall(text))
    blocks = list(BLOCK.finditer(text))
    if starts != len(blocks):
        raise DocError(f"{starts} '<!-- registry:... -->' markers but {len(blocks)} complete blocks; "
                       f"each needs a '{END}' after it")

    def fill(m: re.Match) -> str:
        body = render(m.group("id"), page, docs)
        return f"{m.group('start')}{NOTE}\n\n{body}{m.group('end')}"

    return BLOCK.sub(fill, text)


def pages(docs: Path) -> List[Path]:
    return sorted(p for p in docs.rglob("*.md") if p.is_file())


def model_pages(docs: Path, relative_to: Optional[Path] = None) -> Dict[str, str]:
    """``family/name`` -> the page of ``docs/models/`` holding the model's table (the
    first, in name order), as a path relative to `relative_to`."""
    out: Dict[str, str] = {}
    for page in pages(docs / MODELS_DIR):
        for m in START.finditer(page.read_text(encoding="utf-8")):
            ref = m.group("id")
            if "/" in ref and not ref.startswith(("keys/", "profile/")) and ref not in out:
                target = page.resolve()
                base = (relative_to or docs).resolve()
                out[ref] = _relative(target, base)
    return out


def _relative(target: Path, base: Path) -> str:
    import os

    return os.path.relpath(target, base).replace(os.sep, "/")


# ---------------------------------------------------------------------- check and write


def check(docs: Path) -> List[str]:
    """Problems: stale blocks (with a diff), markers that name nothing, registered
    models without a table in ``docs/models/``. Empty when the docs are current."""
    problems: List[str] = []
    for page in pages(docs):
        text = page.read_text(encoding="utf-8")
        try:
            new = update_text(text, page, docs)
        except DocError as e:
            problems.append(f"{page}: {e}")
            continue
        if new != text:
            diff = "".join(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                str(page), f"{page} (from the registry)", n=1))
            problems.append(f"{page}: generated tables are out of date; run `python -m tcpsim.docgen`\n{diff}")
    documented = model_pages(docs)
    for spec in reg.models():
        if spec.ref not in documented:
            problems.append(
                f"{spec.family.title} '{spec.name}' has no parameter table in {docs / MODELS_DIR}/: "
                f"add a page with '<!-- registry:{spec.ref} -->' ... '{END}' "
                f"(`python -m tcpsim.docgen --stub {spec.ref}` starts one), then run `python -m tcpsim.docgen`"
            )
    return problems


def write(docs: Path) -> List[Path]:
    """Rewrites every page whose generated blocks changed; returns those pages."""
    changed = []
    for page in pages(docs):
        text = page.read_text(encoding="utf-8")
        try:
            new = update_text(text, page, docs)
        except DocError as e:
            raise DocError(f"{page}: {e}") from None
        if new != text:
            page.write_text(new, encoding="utf-8")
            changed.append(page)
    return changed


def stub(docs: Path, ref: str) -> Path:
    """Starts ``docs/models/<name>.md`` for a registered model: the sections every model
    page has (STYLE.md B15) and its generated parameter table."""
    family_id, _, name = ref.partition("/")
    spec = reg.get(family_id, name)
    path = docs / MODELS_DIR / f"{spec.name}.md"
    if path.exists():
        path = docs / MODELS_DIR / f"{spec.family.id}-{spec.name}.md"
    if path.exists():
        raise DocError(f"{path} exists already")
    f = spec.family
    use = f'`type = "{spec.name}"` in a `[[flow]]`' if f.scope == "flow" else f'`{f.key} = "{spec.name}"` or `{f.key} = {{ kind = "{spec.name}", ... }}`'
    text = f"""# {spec.name}: {spec.summary}

Scenario: {use}. `tcpsim models {f.id} {spec.name}` prints this model's parameters and a
runnable example.

## Model description

TODO: what the model does, its equations, and the choices the source left open.

## References

- {spec.source}

## Parameters

<!-- registry:{spec.ref} -->
{END}

## Deviations

TODO: from the paper, from ns-2 / Linux / ns-3.

## Validation

TODO: the unit tests, golden tables and differential cases that check it.
"""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(update_text(text, path, docs), encoding="utf-8")
    return path


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tcpsim.docgen",
        description="Rewrite the registry-generated blocks of the Markdown docs (parameter "
                    "tables, model keys, the model index), or check that they are current.",
        epilog="examples:\n  python -m tcpsim.docgen\n  python -m tcpsim.docgen --check\n"
               "  python -m tcpsim.docgen --stub queue/drr",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--docs", type=Path, default=None, help="documentation directory (default: the repository's docs/)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 listing stale blocks and undocumented models")
    parser.add_argument("--stub", metavar="FAMILY/NAME", help="start docs/models/<name>.md for a registered model")
    args = parser.parse_args(argv)
    docs = args.docs or default_docs_dir()
    try:
        if args.stub:
            print(stub(docs, args.stub))
            return 0
        if args.check:
            problems = check(docs)
            for p in problems:
                print(p, file=sys.stderr)
            return 1 if problems else 0
        for page in write(docs):
            print(f"updated {page}")
        missing = [p for p in check(docs) if "has no parameter table" in p]
        for p in missing:
            print(p, file=sys.stderr)
        return 1 if missing else 0
    except (DocError, reg.UnknownModelError) as e:
        print(f"docgen: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

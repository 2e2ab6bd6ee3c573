"""``tcpsim models``: list the registered models, or describe one — summary, source, a
parameter table and a runnable scenario snippet — all read from the core's registry
(`tcpsim.models`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Sequence

from . import models as reg

EPILOG = """\
examples:
  tcpsim models
        every model, by family, with its summary
  tcpsim models red
        one model: summary, source, parameters (type, unit, default, range, meaning,
        source of the default) and a scenario that uses it
  tcpsim models cc reno
        a name several families share ("reno" is a congestion control and a loss
        recovery) for one family; without the family both are shown
  tcpsim models queue
        the models of one family (agent, cc, recovery, receiver, queue, error_model)
  tcpsim models red --json
        the registry entry as JSON (defaults: times in s, rates in bit/s, sizes in B)
  tcpsim models red --example > red.toml && tcpsim run red.toml
        just the runnable example scenario

exit status: 0 success, 2 unknown model or family.
"""


def add_cli(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "models",
        help="list the registered models, or describe one",
        description="List every registered model (traffic agents, congestion controls, loss "
                    "recoveries, receivers, queue disciplines, error models) or describe one: "
                    "summary, source, parameters with type, unit, default, range, meaning and "
                    "source, and a runnable scenario using it. Everything comes from the "
                    "registry in the simulator core, so it is always current.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("words", nargs="*", metavar="[FAMILY] [NAME]",
                   help="a model name (red), a family (queue), or both (cc reno)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the registry entries as JSON")
    out.add_argument("--markdown", action="store_true",
                     help="print Markdown: the parameter tables (as in docs/models/), or the index")
    out.add_argument("--example", action="store_true",
                     help="print only the runnable example scenario of the model")
    return p


def cli_main(args) -> int:
    profile = reg.find_profile(args.words[0]) if len(args.words) == 1 and not reg.lookup(args.words[0]) else None
    if profile is not None and not (args.json or args.example):
        print(profile.markdown_table() if args.markdown else format_profile(profile), end="")
        return 0
    try:
        describe, specs = _select(args.words)
    except reg.UnknownModelError as e:
        print(f"tcpsim: error: {e}", file=sys.stderr)
        return 2
    except _Usage as e:
        print(f"tcpsim models: error: {e}", file=sys.stderr)
        return 2
    if args.example and not describe:
        print("tcpsim models: error: --example needs a model name (tcpsim models red --example)", file=sys.stderr)
        return 2
    if args.json:
        doc = registry_subset(specs, with_example=describe) if args.words else reg.registry_json()
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    elif args.markdown:
        print(markdown_tables(specs) if describe else markdown_index(specs))
    elif args.example:
        print("\n\n".join(example(s) for s in specs), end="")
    elif describe:
        print(format_models(specs, args.words[-1]))
    else:
        print(format_list(specs))
    return 0


class _Usage(Exception):
    pass


def _select(words: Sequence[str]):
    """(describe?, [specs]) for the command's words: a model name or family + name
    describes, no word or a family lists."""
    if len(words) > 2:
        raise _Usage(f"expected at most a family and a name, got {len(words)} words")
    if not words:
        return False, reg.models()
    if len(words) == 2:
        fam = reg.family(words[0])
        return True, [reg.get(fam.id, words[1])]
    word = words[0]
    found = reg.lookup(word)
    if found:
        return True, found
    if reg.is_family(word):
        return False, reg.models(reg.family(word).id)
    names = list(dict.fromkeys(s.name for s in reg.models()))
    hint = reg.closest(word, names)
    if hint is not None:
        owners = ", ".join(s.family.title for s in reg.lookup(hint))
        raise reg.UnknownModelError(f"unknown model '{word}'; did you mean '{hint}' ({owners})? "
                                    "`tcpsim models` lists them all")
    hint = reg.closest(word, [f.id for f in reg.families()])
    if hint is not None:
        raise reg.UnknownModelError(f"unknown model or family '{word}'; did you mean the family '{hint}'?")
    raise reg.UnknownModelError(f"unknown model or family '{word}'; registered models: {', '.join(names)} "
                                f"(families: {', '.join(f.id for f in reg.families())})")


# ---------------------------------------------------------------------- text


def where(spec: reg.ModelSpec) -> str:
    """How a scenario selects the model, in words."""
    f, name = spec.family, spec.name
    if f.scope == "flow":
        how = f'type = "{name}" in a [[flow]]'
    elif f.scope == "tcp_flow":
        how = f'{f.key} = "{name}" (or {f.key} = {{ kind = "{name}", ... }}) in a TCP [[flow]]'
    else:
        how = (f'{f.key} = "{name}" (or {f.key} = {{ kind = "{name}", ... }}) on a [[link]], '
               f'[dumbbell.bottleneck], [dumbbell.access] or [chain]; {f.key}_reverse for the reverse direction')
    if f.default == name:
        how += f" — the default {f.title}"
    return how


def format_list(specs: Sequence[reg.ModelSpec]) -> str:
    out: List[str] = []
    width = max((len(s.name) for s in specs), default=0)
    for fam in reg.families():
        group = [s for s in specs if s.family == fam]
        if not group:
            continue
        key = "a [[flow]]'s type" if fam.scope == "flow" else f"{fam.key} = ..."
        out.append(f"{fam.title} [{fam.id}] ({key})")
        for s in group:
            mark = " (default)" if fam.default == s.name else ""
            out.append(f"  {s.name.ljust(width)}  {s.summary}{mark}")
        out.append("")
    if len(specs) == len(reg.models()) and reg.profiles():
        out.append('TCP profiles (profile = "..." in a TCP [[flow]]: defaults for the keys the flow does not write)')
        width = max(len(p.name) for p in reg.profiles())
        for p in reg.profiles():
            out.append(f"  {p.name.ljust(width)}  {p.summary}")
        out.append("")
    out.append("`tcpsim models NAME` describes one (`tcpsim models FAMILY NAME` for a name two families share).")
    return "\n".join(out)


def format_profile(p: reg.Profile) -> str:
    """A TCP profile in words: what it is and the value it gives each key."""
    out = [f"{p.name}: TCP profile ({p.summary})", f"source: {p.source}",
           f'used as: profile = "{p.name}" in a type = "{p.type}" [[flow]]; keys the flow writes win', "", "defaults:"]
    width = max(len(k) for k, _, _ in p.defaults)
    for key, value, why in p.defaults:
        out.append(f"  {key.ljust(width)} = {value}")
        out.append(f"  {' ' * width}   ({why})")
    return "\n".join(out) + "\n"


def format_models(specs: Sequence[reg.ModelSpec], word: str) -> str:
    parts = []
    if len(specs) > 1:
        fams = ", ".join(f"{s.family.title} [{s.family.id}]" for s in specs)
        parts.append(f"'{word}' names {len(specs)} models: {fams}. Both are shown; "
                     f"`tcpsim models {specs[0].family.id} {word}` shows one.")
    parts += [format_model(s) for s in specs]
    return "\n\n".join(parts)


def format_model(spec: reg.ModelSpec) -> str:
    lines = [
        f"{spec.name} — {spec.family.title} [{spec.family.id}]",
        f"  {spec.summary}",
        f"  source: {spec.source}",
        f"  use: {where(spec)}",
    ]
    lines += [f"  relation: {t}" for t in spec.relations.text]
    lines.append("")
    if spec.params:
        lines.append("parameters (unset: left out of the scenario, the default applies):")
        rows = [[p.name, p.type_text, p.unit, p.default_toml or "(unset)", p.range_text()] for p in spec.params]
        table = _table(["name", "type", "unit", "default", "range"], rows)
        header, rule, *body = table.splitlines()
        lines += ["  " + header, "  " + rule]
        for row_text, p in zip(body, spec.params):
            lines.append("  " + row_text)
            lines.append(f"      {p.doc}")
            lines.append(f"      source: {p.source}")
    else:
        lines.append("parameters: none")
    lines += ["", "example (every parameter at its default; `tcpsim models "
              f"{spec.family.id} {spec.name} --example > x.toml && tcpsim run x.toml`):", ""]
    lines += ["  " + l if l else "" for l in example(spec).splitlines()]
    return "\n".join(lines)


def _table(header: List[str], rows: List[List[str]]) -> str:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows])


# ---------------------------------------------------------------------- example scenario


def _param_lines(spec: reg.ModelSpec, skip: Sequence[str] = ()) -> List[str]:
    """``name = default  # doc`` for each parameter; unset ones as comments."""
    items = []
    for p in spec.params:
        if p.name in skip:
            continue
        if p.default_toml:
            items.append((f"{p.name} = {p.default_toml}", p.doc))
        elif p.required and p.example_toml:
            items.append((f"{p.name} = {p.example_toml}", p.doc))
        else:
            items.append((f"# {p.name} = ...", f"unset by default: {p.doc}"))
    width = max((len(a) for a, _ in items), default=0)
    return [f"{a.ljust(width)}  # {d}" for a, d in items]


def example(spec: reg.ModelSpec) -> str:
    """A complete scenario that uses `spec` with every parameter at its default: two
    nodes, one link, one flow. `tests/test_cli.py` runs the core's validator on the
    example of every registered model."""
    f = spec.family
    lines = [
        f"# {spec.name} ({f.title}): {spec.summary}",
        "[simulation]",
        'duration = "10s"',
        "",
        "[network]",
        'nodes = ["a", "b"]',
        "",
        "[[link]]",
        'from = "a"',
        'to = "b"',
        'rate = "10Mbps"',
        'delay = "20ms"',
    ]
    if f.scope == "link":
        lines += ["", f"[link.{f.key}]", f'kind = "{spec.name}"'] + _param_lines(spec)
    lines += ["", "[[flow]]", 'from = "a"', 'to = "b"']
    if f.scope == "flow":
        if spec.name != f.default:
            lines.append(f'type = "{spec.name}"')
        lines += _param_lines(spec)
    elif f.scope == "tcp_flow":
        if spec.relations.reads_sack:
            lines.append('receiver = { kind = "every_packet", sack = true }  # this recovery reads SACK blocks')
        lines += ["", f"[flow.{f.key}]", f'kind = "{spec.name}"'] + _param_lines(spec)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- JSON, Markdown


def registry_subset(specs: Sequence[reg.ModelSpec], with_example: bool = False) -> Dict[str, Any]:
    """The registry JSON restricted to `specs` (and their families)."""
    doc = reg.registry_json()
    wanted = {(s.family.key, s.name): s for s in specs}
    keys = {s.family.key for s in specs}
    out_models = []
    for m in doc["models"]:
        spec = wanted.get((m["family"], m["name"]))
        if spec is None:
            continue
        if with_example:
            m = {**m, "example": example(spec)}
        out_models.append(m)
    return {"families": [f for f in doc["families"] if f["key"] in keys], "models": out_models}


def markdown_table(spec: reg.ModelSpec) -> str:
    """The parameter table of `docs/models/` (the core's), or a line saying there is none."""
    if not spec.params:
        return f"The {spec.family.title} `{spec.name}` has no parameters.\n"
    return spec.markdown_table()


def markdown_tables(specs: Sequence[reg.ModelSpec]) -> str:
    parts = []
    for s in specs:
        parts.append(f"### `{s.name}` ({s.family.title})\n\n{s.summary}. Source: {s.source}.\n\n{markdown_table(s)}")
    return "\n".join(parts)


def markdown_index(specs: Sequence[reg.ModelSpec], pages: Optional[Dict[str, str]] = None) -> str:
    """A Markdown list of models by family; `pages` maps ``family/name`` to a link."""
    out: List[str] = []
    for fam in reg.families():
        group = [s for s in specs if s.family == fam]
        if not group:
            continue
        key = "a flow's `type`" if fam.scope == "flow" else f"`{fam.key} = ...`"
        out += [f"### {fam.title[0].upper()}{fam.title[1:]} ({key})", "", "| name | summary | page |", "|---|---|---|"]
        for s in group:
            page = (pages or {}).get(s.ref)
            link = f"[{page.rsplit('/', 1)[-1]}]({page})" if page else "—"
            default = " (default)" if fam.default == s.name else ""
            out.append(f"| `{s.name}`{default} | {s.summary.replace('|', chr(92) + '|')} | {link} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"

"""The report of a reproduction: the same content as Markdown (``README.md``, figures as
PNG files beside it) and as one self-contained HTML page (``index.html``, figures
embedded as base64 PNG, no scripts), plus the measurements as CSV and the verdicts as
JSON."""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pandas as pd

from ..results import _atomic_write
from .checks import NO_TWIN, Measurements, Verdict, cited_values, fmt, short_error, stale_reasons, summary
from .figures import draw
from .spec import CHECK_KINDS, Document, parse_ref

# ---------------------------------------------------------------- a tiny document model


@dataclass
class Block:
    kind: str                       # "h", "p", "ul", "table", "figure"
    text: str = ""
    level: int = 2
    items: List[str] = field(default_factory=list)
    header: List[str] = field(default_factory=list)
    rows: List[List[str]] = field(default_factory=list)
    png: bytes = b""
    #: The figure in the other formats asked for (``--format pdf``): {"pdf": bytes}.
    other_formats: Dict[str, bytes] = field(default_factory=dict)
    name: str = ""
    css: str = ""                   # table id / class


def _md_cell(s: str) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def to_markdown(blocks: List[Block]) -> str:
    out: List[str] = []
    for b in blocks:
        if b.kind == "h":
            out.append("#" * b.level + " " + b.text)
        elif b.kind == "p":
            out.append(b.text)
        elif b.kind == "ul":
            out.extend(f"- {i}" for i in b.items)
        elif b.kind == "table":
            out.append("| " + " | ".join(_md_cell(h) for h in b.header) + " |")
            out.append("|" + "---|" * len(b.header))
            out.extend("| " + " | ".join(_md_cell(c) for c in r) + " |" for r in b.rows)
        elif b.kind == "figure":
            also = "".join(f" ([{f}](figures/{b.name}.{f}))" for f in b.other_formats)
            out.append(f"![{b.text}](figures/{b.name}.png)\n\n*{b.text}*{also}")
        out.append("")
    return "\n".join(out)


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.88em}
th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top;text-align:left}
th{background:#f3f3f3}
td.pass{background:#e3f6e3}td.miss{background:#fde2e1}td.notrun{background:#eee}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #ddd}
figcaption{font-size:.9em;color:#444}
code{background:#f5f5f5;padding:0 .2em}
"""


def to_html(blocks: List[Block], title: str) -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(title)}</title>", f"<style>{CSS}</style></head><body>"]
    for b in blocks:
        if b.kind == "h":
            out.append(f"<h{b.level}>{e(b.text)}</h{b.level}>")
        elif b.kind == "p":
            out.append(f"<p>{_inline(b.text)}</p>")
        elif b.kind == "ul":
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in b.items) + "</ul>")
        elif b.kind == "table":
            attr = f' id="{b.css}"' if b.css else ""
            rows = []
            for r in b.rows:
                cells = []
                for c in r:
                    cls = {"pass": "pass", "miss": "miss", "not run": "notrun", "no twin": "notrun"}.get(c, "")
                    cells.append(f'<td class="{cls}">{_inline(c)}</td>' if cls else f"<td>{_inline(c)}</td>")
                rows.append("<tr>" + "".join(cells) + "</tr>")
            out.append(f"<table{attr}><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in b.header)
                       + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
        elif b.kind == "figure":
            data = base64.b64encode(b.png).decode("ascii")
            out.append(f'<figure class="fig" id="{e(b.name)}"><img alt="{e(b.text)}" '
                       f'src="data:image/png;base64,{data}"><figcaption>{e(b.text)}</figcaption></figure>')
    out.append("</body></html>")
    return "\n".join(out)


def _inline(text: str) -> str:
    """Escapes text; `code` spans become <code>."""
    parts = str(text).split("`")
    return "".join(html.escape(p) if i % 2 == 0 else f"<code>{html.escape(p)}</code>" for i, p in enumerate(parts))


# ---------------------------------------------------------------- content


def agreement(ours: List[Verdict], theirs: List[Verdict]) -> Dict[str, Any]:
    """How the checks evaluated on the ns-2.35 twins compare with ours, over the checks
    ns-2 could evaluate (its verdict is neither "not run" nor "no twin", `checks.NO_TWIN`):
    ``compared``, ``same`` (same
    verdict), ``ns2_passed``, ``ours_passed``, ``differ`` (the check ids that differ) and
    ``per_kind`` (kind -> the same four counts)."""
    by_id = {v.check.id: v for v in theirs}
    out: Dict[str, Any] = {"compared": 0, "same": 0, "ns2_passed": 0, "ours_passed": 0, "differ": [], "per_kind": {}}
    for v in ours:
        t = by_id.get(v.check.id)
        if t is None or t.verdict in ("not run", NO_TWIN):
            continue
        k = out["per_kind"].setdefault(v.check.kind, {"compared": 0, "same": 0, "ns2_passed": 0, "ours_passed": 0})
        for d in (out, k):
            d["compared"] += 1
            d["same"] += v.verdict == t.verdict
            d["ns2_passed"] += t.verdict == "pass"
            d["ours_passed"] += v.verdict == "pass"
        if v.verdict != t.verdict:
            out["differ"].append(v.check.id)
    return out


def run_counts(runs: int, computed: int, reused: int) -> str:
    """The runs of a reproduction in words that add up: the runs its experiments name,
    how many are distinct (a configuration named twice, by two experiments or cases, is
    run once), and of those how many were computed now and how many reused from the
    cache. "36 runs, 33 distinct (3 repeat another's configuration and share its results):
    33 computed, 0 reused"."""
    distinct = computed + reused
    text = f"{runs} runs"
    if distinct != runs:
        repeats = runs - distinct
        text += (f", {distinct} distinct ({repeats} repeat{'s' if repeats == 1 else ''} another's "
                 "configuration and share its results)")
    return text + f": {computed} computed, {reused} reused from an earlier run"


def build(doc: Document, outcome, verdicts: List[Verdict], m: Measurements, command: str,
          ns2: Optional[Tuple[pd.DataFrame, List[Verdict]]] = None,
          readings: Optional[Dict[str, Dict[str, List[Verdict]]]] = None,
          formats: Tuple[str, ...] = ()) -> List[Block]:
    from .._core import __version__

    plan = outcome.plan
    twin = {v.check.id: v for v in ns2[1]} if ns2 else {}
    m2 = Measurements(ns2[0], {}) if ns2 else None
    B: List[Block] = []
    B.append(Block("h", f"Reproduction of document {doc.id}: {doc.short}", level=1))
    B.append(Block("p", doc.title))
    B.append(Block("p", f"Generated by `{command}` with tcpsim {__version__}: "
                        f"{'quick mode (short runs), ' if plan.quick else ''}{len(plan.seeds)} seed(s) per point, "
                        f"{run_counts(len(plan.runs), outcome.computed, outcome.reused)} and "
                        f"{len(plan.traced)} traced runs. Document: {doc.citation}; "
                        f"experiment files: `experiments/{doc.path.name}/`."))
    # Summary
    B.append(Block("h", "Summary: checks passed per kind"))
    s = summary(verdicts)
    rows = [[r.kind, str(r.passed), str(r.missed), str(r.not_run), str(r.total)] for r in s.itertuples()]
    rows.append(["all", str(s.passed.sum()), str(s.missed.sum()), str(s.not_run.sum()), str(s.total.sum())])
    B.append(Block("table", header=["kind", "passed", "missed", "not run", "total"], rows=rows, css="summary"))
    stale = stale_reasons([v.check for v in verdicts], m, doc.findings)
    if stale:
        B.append(Block("p", "Reasons that do not fit this run's measurements (a cited measurement missing or "
                            "off its condition, or a counter named without its value): rewrite them."))
        B.append(Block("ul", items=stale))
    if doc.findings:
        # document.toml's findings, each citation shown with its value on this run
        B.append(Block("h", "Findings"))
        for text in doc.findings:
            B.append(Block("p", cited_values(text, m, m2)[0]))
    if plan.unavailable:
        B.append(Block("p", "Cases that could not run (their checks are 'not run'):"))
        B.append(Block("ul", items=[f"{e}/{c}: {short_error(msg)}" for (e, c), msg in plan.unavailable.items()]))
    if ns2:
        a = agreement(verdicts, ns2[1])
        B.append(Block("h", "ns-2.35 on the same reconstruction"))
        B.append(Block("p", "Each experiment with an ns-2 twin (`[experiment.ns2]`, a Tcl script that builds the same "
                            "network, queues, flows and agents in ns-2.35) was also run in ns-2 for every case, point "
                            "and seed, measured with the same metric definitions (the document's metrics from ns-2's "
                            "own trace), and the checks were evaluated on ns-2's numbers. A miss that ns-2 shares "
                            "comes from the reconstruction or the document, not from tcpsim. "
                            f"Of the {a['compared']} checks ns-2 could evaluate, tcpsim and ns-2 give the same "
                            f"verdict on {a['same']}; ns-2 passes {a['ns2_passed']}, tcpsim {a['ours_passed']}. "
                            "Checks on metrics that need our time series (such as `cwnd_cuts`) are 'not run' for "
                            "ns-2 and left out."))
        if doc.ns2_note:
            B.append(Block("p", doc.ns2_note))
        krows = [[k, str(d["ours_passed"]), str(d["ns2_passed"]), str(d["same"]), str(d["compared"])]
                 for k, d in sorted(a["per_kind"].items())]
        B.append(Block("table", header=["kind", "tcpsim passed", "ns-2.35 passed", "same verdict", "checks compared"],
                       rows=krows, css="ns2"))
        if a["differ"]:
            B.append(Block("p", "Checks on which the two simulators differ (each experiment's table below shows both "
                                "sides' numbers):"))
            B.append(Block("ul", items=[f"{cid}: tcpsim {next(v.verdict for v in verdicts if v.check.id == cid)}, "
                                        f"ns-2.35 {twin[cid].verdict}" for cid in a["differ"]]))
    if readings and readings.get("tcpsim"):
        B.extend(_readings_blocks(doc, verdicts, readings))
    # Assumptions
    B.append(Block("h", "Assumptions shared by the experiments"))
    B.append(Block("ul", items=list(doc.assumptions)))
    if doc.errata:
        B.append(Block("h", "Errata and contradictions of the document, and what we took"))
        B.append(Block("ul", items=list(doc.errata)))
    # Experiments
    for ex in doc.experiments:
        B.append(Block("h", f"{ex.name}: {ex.title}"))
        B.append(Block("p", f"Document: {ex.section}. Scenario file: `experiments/{doc.path.name}/{ex.path.name}`."
                       + (f" Reading: {ex.reading}." if ex.reading else "")
                       + (f" Needs: {ex.needs}." if ex.needs else "")))
        case_rows = []
        for c in ex.cases:
            state = plan.unavailable.get((ex.name, c.name))
            sets = ", ".join(f"{k} = {json.dumps(v)}" for k, v in c.set.items()) or "(the base)"
            ran = "could not run: " + short_error(state) if state else "ran"
            if ns2 and c.no_twin:
                ran += "; no ns-2 twin (ns2 = false)"
            case_rows.append([c.name, c.label, sets, c.reading or "", ran])
        B.append(Block("table", header=["case", "label", "sets", "reading", "state"], rows=case_rows))
        vals = [v for v in doc.values if v.ours and parse_ref(v.ours).experiment == ex.name]
        if vals:
            B.append(Block("p", "The document's numbers beside ours (mean ± SD over seeds):"))
            vrows = []
            for v in vals:
                paper = "unreadable" if v.unreadable else fmt(v.value, 8)
                st = m.stat(parse_ref(v.ours))
                ref = parse_ref(v.ours)
                ours = st.text(5) if st.n else ("not run" if (ref.experiment, ref.case) in plan.unavailable else "—")
                vrows.append([v.where, f"`{v.printed}`" if v.printed else "", paper, v.unit, ours,
                              parse_ref(v.ours).metric, v.reading])
            B.append(Block("table", header=["where", "printed", "paper", "unit", "ours", "our metric", "reading"],
                           rows=vrows))
        exv = [vd for vd in verdicts if _first_experiment(vd) == ex.name]
        if exv:
            B.append(Block("p", "Checks:"))
            header = ["check", "kind", "claim (where)", "paper", "ours", "verdict", "reason"]
            # a reason's cited measurements (`spec.Citation`) shown with their values
            rows = [[vd.check.id, vd.check.kind, f"{vd.check.claim} ({vd.check.where})", vd.paper,
                     vd.detail or vd.ours, vd.verdict, cited_values(vd.reason, m, m2)[0]] for vd in exv]
            if ns2:
                header[6:6] = ["ns-2.35", "ns-2.35 verdict"]
                for vd, row in zip(exv, rows):
                    t = twin.get(vd.check.id)
                    row[6:6] = [_ns2_words(t.detail or t.ours) if t and t.verdict not in ("not run", NO_TWIN) else "—",
                                t.verdict if t else "not run"]
            B.append(Block("table", header=header, rows=rows))
        for fig in ex.figures:
            drawn = draw(ex, fig, outcome, m, formats)
            if drawn is None:
                B.append(Block("p", f"{fig.caption}: not drawn (its runs could not run)."))
                continue
            images, note = drawn
            B.append(Block("figure", text=f"{fig.caption} — redrawn from our runs ({note}).", png=images.pop("png"),
                           other_formats=images, name=fig.id))
    # The trace workflow
    if outcome.trace_checks:
        B.append(Block("h", "The ns-2 trace workflow"))
        B.append(Block("p", "Each traced run wrote ns-2 trace lines (`[trace] ns2`, docs/traces.md) for the links of its "
                            "TCP paths; the document's metrics (packets sent, lost, drop rate, mean delay, throughput, "
                            "ACKs) were computed from the trace as its awk/perl scripts do "
                            "(`tcpsim.reproduce.measures.trace_measures`) and compared with our own counters of the "
                            "same run:"))
        n_ok = sum(c["ok"] for cs in outcome.trace_checks.values() for c in cs)
        n_all = sum(len(cs) for cs in outcome.trace_checks.values())
        trows = []
        for (e, c, p, seed), cs in sorted(outcome.trace_checks.items(), key=lambda t: (t[0][0], t[0][1], t[0][2] or "", t[0][3])):
            bad = [x for x in cs if not x["ok"]]
            trows.append([f"{e}/{c}" + (f"@{p}" if p else ""), str(seed), str(outcome.trace_lines.get((e, c, p, seed), "")),
                          f"{len(cs) - len(bad)}/{len(cs)}",
                          "; ".join(f"{x['what']}: trace {fmt(x['trace'], 10)} vs counter {fmt(x['counter'], 10)}"
                                    for x in (bad or cs[:1]))])
        B.append(Block("p", f"{n_ok} of {n_all} comparisons agree exactly."))
        B.append(Block("table", header=["run", "seed", "trace lines", "agree", "comparison (disagreements, or the first)"],
                       rows=trows, css="traces"))
    # Unreadable cells
    unread = [v for v in doc.values if v.unreadable]
    if unread:
        B.append(Block("h", "Cells the OCR does not let us read (not guessed)"))
        B.append(Block("table", header=["where", "printed", "note"],
                       rows=[[v.where, f"`{v.printed}`", v.reading] for v in unread]))
    return B


def _readings_blocks(doc: Document, verdicts: List[Verdict],
                     readings: Dict[str, Dict[str, List[Verdict]]]) -> List[Block]:
    """The checks again under the document's other readings (variant experiments)."""
    main = {v.check.id: v for v in verdicts}
    sims = list(readings)                      # "tcpsim", and "ns-2.35" with --ns2
    B = [Block("h", "Other readings of the document"),
         Block("p", "Where the document can be read two ways, the other reading is a set of variant experiments "
                    "(`variant_of`, `variant`): the same runs with the other choice. Each check on an experiment "
                    "that has a variant is evaluated again on the variant's runs; the main reading's verdict is "
                    "beside it. A reading that fits the document better passes more.")]
    srows = []
    for name in readings["tcpsim"]:
        row = [name]
        for sim in sims:
            vs = [v for v in readings[sim].get(name, []) if v.verdict not in ("not run", NO_TWIN)]
            row.append(f"{sum(v.verdict == 'pass' for v in vs)}/{len(vs)}")
            o = [v for v in vs if v.check.kind == "ordering"]
            row.append(f"{sum(v.verdict == 'pass' for v in o)}/{len(o)}")
        ids = {v.check.id for v in readings["tcpsim"][name] if v.verdict != "not run"}
        mv = [main[i] for i in ids if i in main and main[i].verdict != "not run"]
        row.append(f"{sum(v.verdict == 'pass' for v in mv)}/{len(mv)}")
        srows.append(row)
    header = ["reading"] + [h for sim in sims for h in (f"{sim}: checks passed", f"{sim}: orderings passed")] \
        + ["main reading, the same checks (tcpsim)"]
    B.append(Block("table", header=header, rows=srows, css="readings"))
    for name, vs in readings["tcpsim"].items():
        files = [e for e in doc.experiments if e.variant == name]
        B.append(Block("h", f"Reading: {name}", level=3))
        if files and files[0].reading:
            B.append(Block("p", files[0].reading + " Experiment files: "
                           + ", ".join(f"`{e.path.name}` (variant of `{e.variant_of}`)" for e in files) + "."))
        twin = {v.check.id: v for v in readings.get("ns-2.35", {}).get(name, [])}
        rows = []
        for v in vs:
            if v.verdict == "not run":
                continue
            row = [v.check.id, v.check.kind, v.paper, v.detail or v.ours, v.verdict]
            if twin:
                t = twin.get(v.check.id)
                row.append(t.verdict if t else "not run")
            base = main.get(v.check.id)
            row.append(base.verdict if base else "not run")
            rows.append(row)
        header = ["check", "kind", "paper", "this reading", "verdict"] + (["ns-2.35"] if twin else []) \
            + ["main reading"]
        B.append(Block("table", header=header, rows=rows))
    return B


def _ns2_words(text: str) -> str:
    """A verdict's numbers in words, said of ns-2 ("ours: ..." -> "ns-2: ...")."""
    return re.sub(r"^ours\b", "ns-2", text)


def _first_experiment(vd: Verdict) -> str:
    raw = vd.check.raw
    ref = (raw.get("items") or [raw.get("ours") or raw.get("series")])[0]
    return parse_ref(ref).experiment


def write(report_dir: Path, doc: Document, outcome, verdicts: List[Verdict], m: Measurements, command: str,
          ns2: Optional[Tuple[pd.DataFrame, List[Verdict]]] = None,
          readings: Optional[Dict[str, Dict[str, List[Verdict]]]] = None,
          formats: Tuple[str, ...] = ()) -> Path:
    """Writes README.md, index.html, figures/*.png (and each figure in `formats`, e.g.
    figures/*.pdf), measurements.csv, verdicts.json, and with `ns2` (the twins'
    measurements and verdicts) measurements_ns2.csv."""
    from .._figure_format import FORMATS

    report_dir.mkdir(parents=True, exist_ok=True)
    blocks = build(doc, outcome, verdicts, m, command, ns2, readings, formats)
    figs = report_dir / "figures"
    figs.mkdir(exist_ok=True)
    for old in (p for f in FORMATS for p in figs.glob(f"*.{f}")):
        old.unlink()
    for b in blocks:
        if b.kind == "figure":
            _atomic_write(figs / f"{b.name}.png", lambda p, b=b: p.write_bytes(b.png))
            for f, data in b.other_formats.items():
                _atomic_write(figs / f"{b.name}.{f}", lambda p, data=data: p.write_bytes(data))
    title = f"Reproduction of document {doc.id}"
    _atomic_write(report_dir / "README.md", lambda p: p.write_text(to_markdown(blocks), encoding="utf-8"))
    _atomic_write(report_dir / "index.html", lambda p: p.write_text(to_html(blocks, title), encoding="utf-8"))
    table = outcome.table.sort_values(["experiment", "case", "point", "seed", "metric"], na_position="first")
    _atomic_write(report_dir / "measurements.csv", lambda p: table.to_csv(p, index=False))
    m2 = Measurements(ns2[0], {}) if ns2 else None
    vjson = []
    for v in verdicts:
        reason, cited = cited_values(v.reason, m, m2)
        vjson.append({"id": v.check.id, "kind": v.check.kind, "verdict": v.verdict, "claim": v.check.claim,
                      "paper": v.paper, "ours": v.ours, "detail": v.detail, "reason": reason})
        if cited:
            vjson[-1]["citations"] = cited
    for name, vs in (readings or {}).get("tcpsim", {}).items():
        for v in vs:
            row = next((r for r in vjson if r["id"] == v.check.id), None)
            if row is not None:
                row.setdefault("readings", {})[name] = {"verdict": v.verdict, "detail": v.detail or v.ours}
    stale = report_dir / "measurements_ns2.csv"
    if ns2:
        twin = {t.check.id: t for t in ns2[1]}
        for row in vjson:
            t = twin.get(row["id"])
            if t is not None:
                row["ns2"] = {"verdict": t.verdict, "ours": t.ours, "detail": t.detail}
        t2 = ns2[0].sort_values(["experiment", "case", "point", "seed", "metric"], na_position="first")
        _atomic_write(stale, lambda p: t2.to_csv(p, index=False))
    elif stale.exists():
        stale.unlink()
    _atomic_write(report_dir / "verdicts.json", lambda p: p.write_text(json.dumps(vjson, indent=1), encoding="utf-8"))
    return report_dir

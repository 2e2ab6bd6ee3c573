"""Evaluating a document's checks on our measurements.

Kinds (docs/reproducing.md#checks):

- ``value``: our mean within ``tolerance`` (relative, ``"30%"``) or ``abs`` (absolute)
  of the published number (``published = "value id"`` or ``value = x``);
- ``ratio``: the ratio of our means of two ``items`` within ``tolerance`` (relative) of
  the published ratio (``published = [id_a, id_b]`` or ``ratio = x``);
- ``ordering``: our means of ``items`` strictly in ``order`` (``"descending"`` or
  ``"ascending"``);
- ``trend``: our means along the experiment's axis (``series = "exp:case@*:metric"``)
  move in ``direction`` (``"increasing"``/``"decreasing"``): Spearman's rank
  correlation with the axis at least 0.8 in that direction, and the last point beyond
  the first;
- ``shape``: a named property of several measurements: ``shape = "fewer"`` (the first
  item's mean below every other item's).

Verdicts: ``pass``, ``miss`` or ``not run`` (a measurement is missing: the case could
not run, e.g. its model is not built in); on the ns-2 twins' measurements also
``no twin`` (`NO_TWIN`: the check needs a case that has no twin on purpose, ``ns2 =
false``; `ns2.without_twin`).
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from .spec import REASON_KEYS, Check, Citation, Document, Ref, citations, parse_ref

#: The ns-2 verdict of a check on a case without a twin (``ns2 = false``).
NO_TWIN = "no twin"

#: Spearman correlation a trend needs.
TREND_RHO = 0.8


@dataclass
class Stat:
    mean: float
    sd: float
    n: int

    def text(self, digits: int = 4) -> str:
        if self.n == 0 or math.isnan(self.mean):
            return "—"
        m = fmt(self.mean, digits)
        if self.n > 1:
            return f"{m} ± {fmt(self.sd, 2)} (n={self.n})"
        return m


def fmt(x: Optional[float], digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if x == 0:
        return "0"
    if abs(x) >= 1000 and float(x).is_integer():
        return f"{int(x):,}".replace(",", " ")
    return f"{x:.{digits}g}"


def short_error(msg: str) -> str:
    """The core's complaint without the file and grid context: from "key '...'" on."""
    i = msg.rfind("key '")
    return msg[i:] if i >= 0 else msg


def _label(refs: List[Ref], r: Ref) -> str:
    """A case name, with its experiment when the items span experiments."""
    return f"{r.experiment}:{r.case}" if len({x.experiment for x in refs}) > 1 else r.case


class Measurements:
    """Means and spreads over seeds of the per-seed table of a run."""

    def __init__(self, table: pd.DataFrame, unavailable: Dict[Tuple[str, str], str]):
        self.unavailable = unavailable
        if len(table):
            t = table.copy()
            t["point"] = t["point"].fillna("")
            g = t.groupby(["experiment", "case", "point", "metric"])["value"]
            self._stats = pd.DataFrame({"mean": g.mean(), "sd": g.std(ddof=1), "n": g.count()})
        else:
            # indexed as a filled table is, so a lookup misses with KeyError (a plain
            # empty frame refuses the four-part key: the --ns2 table of a document
            # without any twin is empty)
            index = pd.MultiIndex.from_tuples([], names=["experiment", "case", "point", "metric"])
            self._stats = pd.DataFrame(columns=["mean", "sd", "n"], index=index)

    def stat(self, ref: Ref) -> Stat:
        key = (ref.experiment, ref.case, ref.point or "", ref.metric)
        try:
            row = self._stats.loc[key]
        except KeyError:
            return Stat(float("nan"), float("nan"), 0)
        sd = float(row["sd"]) if not pd.isna(row["sd"]) else 0.0
        return Stat(float(row["mean"]), sd, int(row["n"]))

    def series(self, ref: Ref, points: List[str]) -> List[Tuple[str, Stat]]:
        out = []
        for p in points:
            s = self.stat(Ref(ref.experiment, ref.case, p, ref.metric))
            if s.n:
                out.append((p, s))
        return out

    def why_missing(self, ref: Ref) -> str:
        msg = self.unavailable.get((ref.experiment, ref.case))
        if msg:
            return f"case '{ref.case}' of {ref.experiment} could not run ({short_error(msg)})"
        return f"no measurement {ref} in this run (not traced, or the axis value was not run)"


@dataclass
class Verdict:
    check: Check
    verdict: str          # "pass", "miss", "not run"
    ours: str             # our numbers in words
    paper: str            # the document's numbers in words
    detail: str           # the comparison
    reason: str = ""      # why it missed / did not run


def _tolerance(raw: Dict[str, Any]) -> Tuple[str, float]:
    if "abs" in raw:
        return "abs", float(raw["abs"])
    t = str(raw.get("tolerance", "0%")).strip()
    if t.endswith("%"):
        return "rel", float(t[:-1]) / 100
    return "rel", float(t)


def _spearman(x: List[float], y: List[float]) -> float:
    rx = pd.Series(x).rank().to_numpy()
    ry = pd.Series(y).rank().to_numpy()
    if np.std(rx) == 0 or np.std(ry) == 0:
        return 0.0
    return float(np.corrcoef(rx, ry)[0, 1])


def evaluate(doc: Document, m: Measurements, quick: bool = False) -> List[Verdict]:
    out = []
    for c in doc.checks:
        if quick and not c.quick:
            continue
        out.append(_evaluate(doc, c, m))
    return out


def readings(doc: Document) -> Dict[str, Dict[str, str]]:
    """The other readings of the document: reading name -> {experiment: its variant}, from
    the variant experiments that inherit another (`spec.Experiment.variant`)."""
    out: Dict[str, Dict[str, str]] = {}
    for e in doc.experiments:
        if e.variant:
            out.setdefault(e.variant, {})[e.variant_of] = e.name
    return out


def _moved(doc: Optional[Document], mapping: Dict[str, str], ref: str) -> Optional[str]:
    """`ref` on its experiment's variant in `mapping`, or None when the reading leaves it
    where it is: another experiment, or a case the variant does not run (a variant of
    some cases, ``cases = [...]``: the others keep the main reading's runs)."""
    r = parse_ref(ref)
    if r.experiment not in mapping:
        return None
    variant = mapping[r.experiment]
    if doc is not None and r.case not in [c.name for c in doc.experiment(variant).cases]:
        return None
    return ref.replace(r.experiment + ":", variant + ":", 1)


def _remapped(c: Check, mapping: Dict[str, str], doc: Optional[Document] = None) -> Optional[Check]:
    """`c` with its references to the experiments in `mapping` moved to their variants
    (of the cases each variant runs, when `doc` is given), or None when none moves."""
    def move(ref: str) -> str:
        moved = _moved(doc, mapping, ref)
        return ref if moved is None else moved

    raw = dict(c.raw)
    refs = list(raw.get("items", [])) + [raw[k] for k in ("ours", "series") if k in raw]
    if not any(_moved(doc, mapping, r) is not None for r in refs):
        return None
    if "items" in raw:
        raw["items"] = [move(r) for r in raw["items"]]
    for k in ("ours", "series"):
        if k in raw:
            raw[k] = move(raw[k])
    return dataclasses.replace(c, raw=raw)


def evaluate_readings(doc: Document, m: Measurements, quick: bool = False) -> Dict[str, List[Verdict]]:
    """The checks again under each other reading (`readings`): every check that refers to
    an experiment with a variant in that reading, evaluated on the variant's runs."""
    out: Dict[str, List[Verdict]] = {}
    for name, mapping in readings(doc).items():
        vs = []
        for c in doc.checks:
            if quick and not c.quick:
                continue
            moved = _remapped(c, mapping, doc)
            if moved is not None:
                vs.append(_evaluate(doc, moved, m))
        out[name] = vs
    return out


def _published(doc: Document, raw: Dict[str, Any]) -> Optional[float]:
    if "published" in raw and isinstance(raw["published"], str):
        return doc.value(raw["published"]).value
    return raw.get("value")


def _evaluate(doc: Document, c: Check, m: Measurements) -> Verdict:
    raw = c.raw
    refs = [parse_ref(r) for r in raw.get("items", [])]
    if "ours" in raw:
        refs = [parse_ref(raw["ours"])]
    if c.kind == "trend":
        return _trend(doc, c, m)
    stats = [m.stat(r) for r in refs]
    missing = [r for r, s in zip(refs, stats) if s.n == 0 or math.isnan(s.mean)]
    ours = "; ".join(f"{r.case}{'@' + r.point if r.point else ''} {r.metric}: {s.text()}" for r, s in zip(refs, stats))
    if c.kind == "value":
        pub = _published(doc, raw)
        paper = fmt(pub)
        if missing:
            return Verdict(c, "not run", ours, paper, "", m.why_missing(missing[0]))
        mode, tol = _tolerance(raw)
        x = stats[0].mean
        dev = abs(x - pub)
        ok = dev <= (tol if mode == "abs" else tol * abs(pub))
        lim = f"±{fmt(tol)}" if mode == "abs" else f"±{tol * 100:g} %"
        detail = f"ours {fmt(x)} vs {fmt(pub)} ({lim})"
    elif c.kind == "ratio":
        if isinstance(raw.get("published"), list):
            a, b = (doc.value(p).value for p in raw["published"])
            pub = a / b
        else:
            pub = float(raw["ratio"])
        paper = f"ratio {fmt(pub)}"
        if missing:
            return Verdict(c, "not run", ours, paper, "", m.why_missing(missing[0]))
        _, tol = _tolerance(raw)
        r = stats[0].mean / stats[1].mean if stats[1].mean else float("inf")
        ok = abs(r / pub - 1) <= tol
        detail = f"our ratio {fmt(r)} vs {fmt(pub)} (±{tol * 100:g} %)"
    elif c.kind == "ordering":
        order = raw.get("order", "descending")
        rel = " > " if order == "descending" else " < "
        paper = rel.join(_label(refs, r) for r in refs)
        if missing:
            return Verdict(c, "not run", ours, paper, "", m.why_missing(missing[0]))
        xs = [s.mean for s in stats]
        pairs = list(zip(xs, xs[1:]))
        ok = all(a > b for a, b in pairs) if order == "descending" else all(a < b for a, b in pairs)
        ranked = sorted(zip(xs, refs), key=lambda t: t[0], reverse=(order == "descending"))
        detail = "ours: " + rel.join(f"{_label(refs, r)} {fmt(x)}" for x, r in ranked)
    elif c.kind == "shape":
        shape = raw.get("shape")
        paper = f"{refs[0].case} has fewer than " + ", ".join(r.case for r in refs[1:])
        if missing:
            return Verdict(c, "not run", ours, paper, "", m.why_missing(missing[0]))
        if shape != "fewer":
            return Verdict(c, "not run", ours, paper, "", f"unknown shape {shape!r}")
        xs = [s.mean for s in stats]
        ok = all(xs[0] < x for x in xs[1:])
        detail = "ours: " + ", ".join(f"{r.case} {fmt(x)}" for x, r in zip(xs, refs))
    else:  # pragma: no cover - kinds are checked on load
        raise ValueError(c.kind)
    return _verdict(c, ok, ours, paper, detail)


def _verdict(c: Check, ok: bool, ours: str, paper: str, detail: str) -> Verdict:
    if ok:
        reason = ""
        if c.known_miss:
            reason = "expected a miss before the run (" + c.known_miss + "), but it passes"
        return Verdict(c, "pass", ours, paper, detail, reason)
    if c.known_miss:
        reason = "expected before the run: " + c.known_miss
    elif c.raw.get("miss_reason"):
        reason = "analysed after the run: " + c.raw["miss_reason"]
    else:
        reason = "not expected before the run; no likely reason has been written down yet"
    return Verdict(c, "miss", ours, paper, detail, reason)


def _trend(doc: Document, c: Check, m: Measurements) -> Verdict:
    ref = parse_ref(c.raw["series"])
    ex = doc.experiment(ref.experiment)
    direction = c.raw.get("direction", "decreasing")
    paper = f"{direction} with {ex.axis_name}"
    pts = m.series(ref, [str(v) for v in ex.axis_values])
    ours = ", ".join(f"{p}: {fmt(s.mean)}" for p, s in pts)
    if len(pts) < 3:
        return Verdict(c, "not run", ours, paper, "", m.why_missing(Ref(ref.experiment, ref.case, str(ex.axis_values[0]), ref.metric))
                       if not pts else "fewer than 3 axis values were run")
    xs = list(range(len(pts)))
    ys = [s.mean for _, s in pts]
    rho = _spearman(xs, ys)
    sign = -1 if direction == "decreasing" else 1
    ok = sign * rho >= TREND_RHO and sign * (ys[-1] - ys[0]) > 0
    return _verdict(c, ok, ours, paper, f"Spearman ρ = {rho:+.2f} (needs {'≤ −' if sign < 0 else '≥ +'}{TREND_RHO})")


def summary(verdicts: List[Verdict]) -> pd.DataFrame:
    """Checks passed per kind: columns kind, passed, missed, not_run, total."""
    from .spec import CHECK_KINDS

    rows = []
    for k in CHECK_KINDS:
        vs = [v for v in verdicts if v.check.kind == k]
        rows.append({"kind": k, "passed": sum(v.verdict == "pass" for v in vs),
                     "missed": sum(v.verdict == "miss" for v in vs),
                     "not_run": sum(v.verdict == "not run" for v in vs), "total": len(vs)})
    return pd.DataFrame(rows)


# ============================================================================ reasons


#: Words in a reason that name a counter, and the counter a reason using them must cite
#: with a condition (``{REF > 0}``, ``{REF = 0}``, ...), so that a reason resting on, say,
#: RED's early drops cannot stand beside a run that made none.
COUNTER_WORDS = {
    "bottleneck_early_drops": re.compile(r"early[- ]drop|random(ly)? drop", re.I),
    "bottleneck_forced_drops": re.compile(r"forced drop|tail[- ]drop|overflow", re.I),
    "bottleneck_marks": re.compile(r"\bECN marks?\b|\bmarked\b", re.I),
    "tcp_timeouts": re.compile(r"\btime[- ]?outs?\b|\btimed out\b", re.I),
}


def _cited_value(st: Stat) -> str:
    if st.n == 0 or math.isnan(st.mean):
        return "not measured"
    # the spread over seeds, where there is one (a run without random draws repeats)
    return fmt(st.mean) + (f" ± {fmt(st.sd, 2)}" if st.n > 1 and st.sd > 0 else "")


def cited_values(text: str, m: Measurements, twin: Optional[Measurements] = None) -> Tuple[str, List[Dict[str, Any]]]:
    """A reason with each citation (`spec.Citation`) replaced by the measurement and its
    value, ``[`REF` = ours (ns-2.35: theirs)]``, a failed condition marked ``STALE``;
    and the citations as records (ref, condition, ours, ns2, holds)."""
    records: List[Dict[str, Any]] = []
    try:
        cits = citations(text)
    except ValueError:
        return text, records
    out = text
    for c in cits:
        st = m.stat(c.ref)
        theirs = twin.stat(c.ref) if twin is not None else None
        holds = bool(st.n and c.holds(st.mean))
        words = f"`{c.ref}` = {_cited_value(st)}"
        if theirs is not None and theirs.n:
            words += f" (ns-2.35: {_cited_value(theirs)})"
        if c.op and not holds:
            words += f"; STALE: this reason needs {c.condition}"
        out = out.replace(c.text, f"[{words}]", 1)
        records.append({"ref": str(c.ref), "condition": c.condition, "ours": st.mean if st.n else None,
                        "ns2": theirs.mean if theirs is not None and theirs.n else None, "holds": holds})
    return out, records


def stale_reasons(checks: List[Check], m: Measurements, findings: Sequence[str] = ()) -> List[str]:
    """What is wrong with the reasons of `checks` (``known_miss``, ``miss_reason``) and
    with the document's `findings` against measurements `m`: a cited measurement that
    was not measured, a citation's condition that fails, and a text naming a counter
    (`COUNTER_WORDS`: early drops, tail drops, marks, timeouts) without citing that
    counter with a condition."""
    texts = [(f"numbers.toml, check '{c.id}', key '{key}'", c.raw.get(key, ""))
             for c in checks for key in REASON_KEYS]
    texts += [(f"document.toml, key 'findings', paragraph {i + 1}", f) for i, f in enumerate(findings)]
    problems = []
    for where, text in texts:
        if not text:
            continue
        cits = citations(text)
        for cit in cits:
            st = m.stat(cit.ref)
            if st.n == 0 or math.isnan(st.mean):
                problems.append(f"{where}: cites {cit.ref}, which this run did not measure")
            elif not cit.holds(st.mean):
                problems.append(f"{where}: cites {cit.ref} = {fmt(st.mean)}, but the reason needs {cit.condition}")
        for metric, words in COUNTER_WORDS.items():
            said = words.search(text)
            if said and not any(cit.ref.metric == metric and cit.op for cit in cits):
                problems.append(f"{where}: speaks of {said.group(0)!r} but cites no {metric} with a condition "
                                f"(such as {{EXPERIMENT:CASE@POINT:{metric} > 0}})")
    return problems

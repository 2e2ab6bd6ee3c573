"""``tcpsim reproduce``: a published study run again, number by number.

A document's reproduction files live in ``experiments/<document>/`` (format:
docs/reproducing.md): ``document.toml`` (assumptions, experiments, seeds), one file per
experiment (a base scenario, cases, an axis, figures) and ``numbers.toml`` (the
document's published numbers and the checks on them). `reproduce` runs every experiment
on the sweep machinery (local processes or Dask; finished runs are reused), the traced
runs of the ns-2 trace workflow, evaluates the checks and writes a report folder
(README.md, a self-contained index.html, figures, measurements.csv, verdicts.json).

    >>> from tcpsim.reproduce import reproduce
    >>> r = reproduce("004", quick=True)          # results/reproductions/004-quick/report
    >>> r.summary                                  # checks passed per kind

Modules: `spec` (reading the files), `runner` (plan, runs, traced runs), `measures`
(metrics from counters and from traces), `checks` (verdicts), `figures`, `report`,
`cli`; and the analyses of the documents themselves, as code: `quick_vegas` (reference
document 001's equations and its definition of convergence time).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

from .spec import Document, list_documents, load_document

if TYPE_CHECKING:
    import pandas as pd

    from .checks import Verdict
    from .runner import Outcome

#: Names loaded on first use (PEP 562): `checks` and `runner` import pandas, which the
#: ``tcpsim`` command line's parser (it loads `cli` from this package) should not pay for.
_LAZY = {
    "Measurements": "checks", "Verdict": "checks", "evaluate": "checks",
    "evaluate_readings": "checks", "summary": "checks",
    "Outcome": "runner", "make_plan": "runner", "run_plan": "runner",
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))

__all__ = ["reproduce", "Reproduction", "load_document", "list_documents"]

#: Default output directory (run cache and report) of `reproduce`.
DEFAULT_OUT = Path("results") / "reproductions"


@dataclass
class Reproduction:
    document: Document
    outcome: Outcome
    verdicts: List[Verdict]
    summary: pd.DataFrame
    report_dir: Path
    #: With ``ns2=True``: the checks evaluated on the ns-2.35 twins' measurements.
    ns2_verdicts: Optional[List[Verdict]] = None


def reproduce(document: str, *, quick: bool = False, seeds: Optional[int] = None, jobs: Optional[int] = None,
              scheduler: Optional[str] = None, out: Optional[Path] = None, report_dir: Optional[Path] = None,
              progress: bool = True, command: Optional[str] = None, ns2: bool = False,
              format: str = "png") -> Reproduction:
    """Runs document `document`'s experiments and writes its report.

    Args:
        document: a name under ``experiments/`` (``"004"``) or a directory.
        quick: short runs (each experiment's ``[experiment.quick]``), one seed.
        seeds: seeds per point (default: the document's ``seeds``; 1 with `quick`).
        jobs: local worker processes (default: all cores).
        scheduler: a Dask scheduler address; runs go there instead.
        out: run cache (default ``results/reproductions``); runs are kept in
            ``out/<document>[-quick]/`` and reused by later calls.
        report_dir: where the report goes (default ``out/<document>[-quick]/report``).
        ns2: also run the experiments' ns-2.35 twins (module `ns2`; needs ``ns``) and
            show ns-2's verdict beside ours in the report.
        format: the figures' file format besides the PNG the report embeds: ``"pdf"``
            or ``"svg"`` also writes ``figures/<id>.pdf`` (``.svg``); ``"png"``, the
            default, only the PNGs.
    """
    from .._figure_format import check_format
    from .checks import Measurements, evaluate, evaluate_readings, summary
    from .runner import make_plan, run_plan

    check_format(format)
    doc = load_document(document)
    if ns2:
        from .ns2 import NOT_INSTALLED, ns_binary

        if ns_binary() is None:
            raise RuntimeError(NOT_INSTALLED)
    out = Path(out) if out is not None else DEFAULT_OUT
    cache = out / (doc.id + ("-quick" if quick else ""))
    plan = make_plan(doc, quick=quick, seeds=seeds)
    outcome = run_plan(plan, cache, jobs=jobs, scheduler=scheduler, progress=progress)
    m = Measurements(outcome.table, plan.unavailable)
    verdicts = evaluate(doc, m, quick=quick)
    readings = {"tcpsim": evaluate_readings(doc, m, quick=quick)}
    twin = None
    if ns2:
        from .ns2 import run_ns2, without_twin

        table = run_ns2(plan, cache, jobs=jobs or os.cpu_count() or 1, progress=progress)
        m2 = Measurements(table, {})
        twin = (table, without_twin(doc, evaluate(doc, m2, quick=quick)))
        readings["ns-2.35"] = {name: without_twin(doc, vs) for name, vs in evaluate_readings(doc, m2, quick=quick).items()}
    from . import report

    rdir = Path(report_dir) if report_dir is not None else cache / "report"
    cmd = command or f"tcpsim reproduce {doc.id}" + (" --quick" if quick else "") + (" --ns2" if ns2 else "")
    report.write(rdir, doc, outcome, verdicts, m, cmd, ns2=twin, readings=readings,
                 formats=() if format == "png" else (format,))
    return Reproduction(doc, outcome, verdicts, summary(verdicts), rdir, twin[1] if twin else None)

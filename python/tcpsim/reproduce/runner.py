"""Running a document's experiments: expanding cases × axis × seeds into sweep runs,
running them on the sweep machinery (local processes or Dask; finished runs reused),
the traced runs of the ns-2 trace workflow, and the table of measurements."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import pandas as pd

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

from .. import models
from .._core import ScenarioError, __build__
from .._progress import Counter
from ..results import _atomic_write, load_results
from ..sweep import Run, Sweep, canonical_toml, run_id, run_sweep
from .measures import (aqm_measures, cubic_epoch_measures, event_measures, group_measures, handoff_measures,
                       TRACE_MEASURES_COLUMNS, read_trace,
                       run_measures, smoothness_measures, trace_counter_checks, trace_measures,
                       window_measures)
from .spec import Document, Experiment, point_key

#: (experiment, case, point, seed)
Key = Tuple[str, str, Optional[str], int]


class _Batch(Sweep):
    """Runs of several sweeps (every experiment and case of a document) run as one
    sweep: one progress bar, one pool, one output directory. Its parameter columns are
    experiment, case, point and seed."""

    def __init__(self, name: str, runs: List[Run]):  # noqa: D107 - no Sweep.__init__
        self.name = self.source = self.base_name = name
        self.seeds = None
        self.out = None
        self._entries = []
        self._runs = runs

    @property
    def columns(self) -> List[str]:
        return ["experiment", "case", "point", "seed"]


@dataclass
class Plan:
    """What a reproduction runs."""

    document: Document
    quick: bool
    seeds: List[int]
    runs: Dict[Key, Run] = field(default_factory=dict)
    traced: Dict[Key, Tuple[str, str, List[str]]] = field(default_factory=dict)  # key -> (id, text, links)
    unavailable: Dict[Tuple[str, str], str] = field(default_factory=dict)

    def batch(self) -> _Batch:
        seen, runs = set(), []
        for (exp, case, point, seed), r in self.runs.items():
            if r.run_id in seen:
                continue
            seen.add(r.run_id)
            runs.append(Run(r.run_id, {"experiment": exp, "case": case, "point": point or "", "seed": seed},
                            r.toml_text))
        return _Batch(f"reproduce-{self.document.id}{'-quick' if self.quick else ''}", runs)


#: A run of more flows than this keeps only its aggregate measures: one measure per flow
#: and per link direction (``flow_kbps.NAME``, ``queue_drops.FROM_to_TO``, ...) would make
#: a 1000-source run of document 002 write 14 000 rows (each of its 4002 link directions
#: twice) into the report's measurements.csv, which no check reads. The documents' checks
#: name single flows and queues only in runs of at most 100 flows.
PER_ENTITY_MAX_FLOWS = 200


def _without_per_entity(measures: Dict[str, float]) -> Dict[str, float]:
    """`measures` less those of one flow or one queue (``flow_*.NAME``, ``queue_*.NAME``)."""
    return {k: v for k, v in measures.items()
            if not ("." in k and k.startswith(("flow_", "queue_")))}


def _case_sweep(doc: Document, ex: Experiment, case, quick: bool, seeds: List[int]) -> Sweep:
    grid: Dict[str, List[Any]] = {k: [v] for k, v in case.set.items()}
    if quick:
        for k, v in ex.quick.items():
            grid.setdefault(k, [v])
    if ex.axis_key is not None and ex.axis_linked:
        # the linked keys take the value at the same place as the axis value
        index = {str(v): i for i, v in enumerate(ex.axis_values)}
        keys = ", ".join([ex.axis_key] + list(ex.axis_linked))
        grid[keys] = [[v] + [vals[index[str(v)]] for vals in ex.axis_linked.values()] for v in ex.points(quick)]
    elif ex.axis_key is not None:
        grid[ex.axis_key] = ex.points(quick)
    return Sweep(ex.base, grid=grid, seeds=seeds, name=f"{doc.id}/{ex.name}/{case.name}", source=str(ex.path))


def _with_trace(text: str, links: List[str]) -> str:
    doc = _toml.loads(text)
    doc["trace"] = {"ns2": list(links), "dir": "traces"}
    return canonical_toml(doc)


def make_plan(doc: Document, quick: bool = False, seeds: Optional[int] = None) -> Plan:
    """Expands every experiment and case of `doc`. A case whose scenario the core rejects
    (e.g. a model not built in) is listed in ``plan.unavailable`` with the message."""
    n = 1 if quick and seeds is None else (seeds or doc.seeds)
    plan = Plan(doc, quick, list(range(1, n + 1)))
    for ex in doc.experiments:
        for case in ex.cases:
            try:
                sweep = _case_sweep(doc, ex, case, quick, plan.seeds)
            except ScenarioError as e:
                plan.unavailable[(ex.name, case.name)] = str(e)
                continue
            for r in sweep.runs():
                point = point_key(r.params.get(ex.axis_key)) if ex.axis_key else None
                key = (ex.name, case.name, point, int(r.params["seed"]))
                plan.runs[key] = r
                if ex.trace_links and (ex.trace_at is None or point in [str(a) for a in ex.trace_at]):
                    text = _with_trace(r.toml_text, ex.trace_links)
                    plan.traced[key] = (run_id(text), text, list(ex.trace_links))
    return plan


# ============================================================================ traced runs


def _traced_task(task: Dict[str, Any]) -> Dict[str, Any]:
    """Runs one scenario with its ns-2 trace, computes the document's metrics from the
    trace and compares them with the run's own counters. Runs in a worker process (or
    on a Dask worker); the trace is written to a temporary directory and deleted."""
    from ..api import run

    if task["version"] != __build__:
        # as the sweep's runs check (sweep/executors.py): a worker with another tcpsim
        # would put its numbers in the cache under this build's run id
        raise RuntimeError(f"this worker has tcpsim {__build__} but the reproduction was planned with "
                           f"tcpsim {task['version']}; install the same version everywhere")
    with tempfile.TemporaryDirectory(prefix="tcpsim-trace-") as tmp:
        res = run(task["text"], out=tmp)
        tr = read_trace(Path(tmp) / "traces" / "trace.tr", TRACE_MEASURES_COLUMNS)
        tm = trace_measures(tr)
        lines = int(len(tr))
    return {"run_id": task["run_id"], "measures": tm, "lines": lines,
            "counter_checks": trace_counter_checks(tm, res, task["links"])}


def _run_traced(plan: Plan, cache: Path, jobs: int, scheduler: Optional[str], progress: Union[bool, str]) -> Dict[str, Dict[str, Any]]:
    tdir = cache / "traces"
    tdir.mkdir(parents=True, exist_ok=True)
    results: Dict[str, Dict[str, Any]] = {}
    todo = {}
    for rid, text, links in plan.traced.values():
        p = tdir / f"{rid}.json"
        if p.is_file():
            try:
                results[rid] = json.loads(p.read_text())
                continue
            except ValueError:
                pass
        todo[rid] = {"run_id": rid, "text": text, "links": links, "version": __build__}
    bar = Counter(progress, len(todo), f"{plan.document.id} traces")

    def keep(out: Dict[str, Any]) -> None:
        results[out["run_id"]] = out
        _atomic_write(tdir / f"{out['run_id']}.json", lambda p: p.write_text(json.dumps(out, indent=1)))
        bar.update(1)

    try:
        tasks = list(todo.values())
        if scheduler and tasks:  # no connection when every traced run is cached
            import distributed

            from ..sweep.executors import _connect, default_connect_timeout

            with _connect(distributed, scheduler, default_connect_timeout()) as client:
                futs = [client.submit(_traced_task, t, key=f"tcpsim-trace-{t['run_id']}") for t in tasks]
                # the client's loop: our client is not the default one (set_as_default=False),
                # and as_completed without a loop looks for a default client
                for fut in distributed.as_completed(futs, loop=client.loop):
                    keep(fut.result())
        else:
            run_in_processes(_traced_task, tasks, jobs, keep)
    finally:
        bar.close()
    return results


def run_in_processes(fn: Callable[[Dict[str, Any]], Dict[str, Any]], tasks: List[Dict[str, Any]], jobs: int,
                     keep: Callable[[Dict[str, Any]], None]) -> None:
    """Runs `fn` on every task, here (one job or one task) or in `jobs` worker processes,
    handing each result to `keep` as it comes."""
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            keep(fn(t))
        return
    import concurrent.futures as cf

    from ..sweep.executors import _mp_context

    with cf.ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=_mp_context()) as pool:
        for fut in cf.as_completed([pool.submit(fn, t) for t in tasks]):
            keep(fut.result())


# ============================================================================ running


@dataclass
class Outcome:
    """Everything measured: per run and seed (``table``: experiment, case, point, seed,
    metric, value), the run directory of each key, and the trace/counter comparisons."""

    plan: Plan
    table: pd.DataFrame
    run_dirs: Dict[Key, Path]
    trace_checks: Dict[Key, List[Dict[str, Any]]]
    trace_lines: Dict[Key, int]
    computed: int
    reused: int


def run_plan(plan: Plan, cache: Path, *, jobs: Optional[int] = None, scheduler: Optional[str] = None,
             progress: Union[bool, str] = True) -> Outcome:
    """Runs (or reuses) every run of `plan` under `cache` and measures them; `progress`
    as `tcpsim._progress.Counter` takes it (True: bars, "plain": lines, False: none)."""
    cache.mkdir(parents=True, exist_ok=True)
    jobs = jobs or os.cpu_count() or 1
    batch = plan.batch()
    table = run_sweep(batch, cache, scheduler=scheduler, workers=None if scheduler else jobs,
                      progress=progress)
    info = table.attrs.get("sweep", {})
    traced = _run_traced(plan, cache, jobs, scheduler, progress) if plan.traced else {}
    rows: List[Dict[str, Any]] = []
    run_dirs: Dict[Key, Path] = {}
    measured: Dict[str, Dict[str, float]] = {}
    for key, r in plan.runs.items():
        d = cache / "runs" / r.run_id
        run_dirs[key] = d
        if r.run_id not in measured:
            res = load_results(d)
            measured[r.run_id] = run_measures(res)
            ex = plan.document.experiment(key[0])
            measured[r.run_id].update(group_measures(res, ex.windows))
            if ex.events and ex.base_rtt_s:
                measured[r.run_id].update(event_measures(res, ex.events, ex.base_rtt_s))
            if ex.windows:
                measured[r.run_id].update(window_measures(res, ex.windows))
            if ex.samples is not None:
                measured[r.run_id].update(smoothness_measures(
                    res, ex.samples.from_s, ex.samples.every_s, ex.samples.buffer_pkts))
            if ex.outage_s is not None:
                measured[r.run_id].update(handoff_measures(res, ex.outage_s))
            if ex.aqm:
                measured[r.run_id].update(aqm_measures(res))
            if ex.cubic_flow:
                # C and beta as the model's defaults, read from its spec
                cubic = models.get("cc", "cubic").defaults()
                measured[r.run_id].update(cubic_epoch_measures(res, ex.cubic_flow, float(cubic["beta"]),
                                                               float(cubic["c"])))
            if len(res.flows) > PER_ENTITY_MAX_FLOWS:
                measured[r.run_id] = _without_per_entity(measured[r.run_id])
        m = dict(measured[r.run_id])
        tc = plan.traced.get(key)
        if tc is not None and tc[0] in traced:
            m.update(traced[tc[0]]["measures"])
        for name, v in m.items():
            rows.append({"experiment": key[0], "case": key[1], "point": key[2], "seed": key[3],
                         "metric": name, "value": v})
    df = pd.DataFrame(rows, columns=["experiment", "case", "point", "seed", "metric", "value"])
    checks = {k: traced[v[0]]["counter_checks"] for k, v in plan.traced.items() if v[0] in traced}
    lines = {k: traced[v[0]]["lines"] for k, v in plan.traced.items() if v[0] in traced}
    return Outcome(plan, df, run_dirs, checks, lines,
                   computed=int(info.get("computed", 0)), reused=int(info.get("reused", 0)))

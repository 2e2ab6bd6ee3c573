"""`run_sweep`: expands a sweep, reuses the runs already finished in its output directory,
runs the rest on an executor and writes the sweep table."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable, Dict, Mapping, Optional, Union

from .._core import __build__
from ..results import PathLike, Results, _atomic_write
from .executors import _Progress, _run_dask, _run_local, check_scheduler, default_connect_timeout
from .metrics import METRICS
from .spec import Sweep, SweepError
from .store import (_Lock, _clean, _jsonable, _read_marker, _sweep_record, _table, _write_json,
                    default_out)

def run_sweep(
    sweep: Union[Sweep, PathLike],
    out_dir: Optional[PathLike] = None,
    *,
    executor: Optional[str] = None,
    client=None,
    scheduler: Optional[str] = None,
    connect_timeout: Optional[float] = None,
    workers: Optional[int] = None,
    progress: Union[bool, str, Callable[[int, int], object]] = True,
    metrics: Optional[Callable[[Results], Mapping[str, Any]]] = None,
    retries: int = 2,
):
    """Runs every run of `sweep` not already finished in `out_dir`, and returns the sweep
    table (also written atomically to ``out_dir/sweep.parquet``).

    Args:
        sweep: a `Sweep`, or the path of a sweep spec file.
        out_dir: output directory (default: the spec's ``out``, else
            ``results/sweeps/<name>``). Finished runs found there are reused.
        executor: ``"local"`` (processes on this machine) or ``"dask"``; default
            ``"dask"`` when `client` or `scheduler` is given, else ``"local"``.
        client: a ``distributed.Client`` to run on (not closed afterwards).
        scheduler: address of a Dask scheduler, ``"tcp://HOST:PORT"``; without `client`
            and `scheduler`, ``executor="dask"`` starts a local Dask cluster.
        connect_timeout: seconds to wait for `scheduler` to answer (default: the
            environment variable ``TCPSIM_CONNECT_TIMEOUT``, else 30).
        workers: local: number of processes (default ``os.cpu_count()``; 1 runs in this
            process). Dask: wait until this many workers have joined before submitting.
        progress: show a tqdm progress bar on standard error (runs done / total);
            ``"plain"``: a plain line every ``TCPSIM_PROGRESS_INTERVAL`` seconds (default
            10), for logs and CI; or a callable ``progress(done, total)``.
        metrics: optional ``metrics(results) -> {name: value}`` adding columns; it runs
            in this process on each run's saved results (new and reused alike).
        retries: Dask: times a task that raised is retried (a task whose worker died is
            always rescheduled by the scheduler).

    Returns:
        A pandas DataFrame indexed by ``run_id``: the parameter columns (grid keys and
        ``seed``), the `METRICS` columns, any `metrics` columns, and ``reused`` (True if
        the run was found finished rather than computed now).

    Raises:
        tcpsim.ScenarioError: the sweep (or a run of it) is invalid; nothing was run.
        SweepError: some runs failed (the others are kept: run the sweep again to retry
            only the failed ones), or another sweep is writing to `out_dir`.
        KeyboardInterrupt: interrupted; finished runs are kept.
    """
    if not isinstance(sweep, Sweep):
        sweep = Sweep.from_spec(sweep)
    if executor is None:
        executor = "dask" if (client is not None or scheduler) else "local"
    if executor not in ("local", "dask"):
        raise ValueError(f"executor must be 'local' or 'dask', not {executor!r}")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive integer, not {workers!r}")
    if connect_timeout is None:
        connect_timeout = default_connect_timeout()
    elif not connect_timeout > 0:
        raise ValueError(f"connect_timeout must be a positive number of seconds, not {connect_timeout!r}")

    runs = sweep.runs()  # validates every run before anything starts
    out = Path(out_dir) if out_dir is not None else default_out(sweep)
    runs_dir = out / "runs"
    runs_dir.mkdir(parents=True, exist_ok=True)
    started = time.time()

    with _Lock(out) as lock:
        _clean(runs_dir, {r.run_id for r in runs})
        finished = {r.run_id for r in runs if _read_marker(runs_dir / r.run_id) is not None}
        reused = set(finished)
        todo = [r for r in runs if r.run_id not in finished]
        failures: Dict[str, str] = {}
        _write_json(out / "sweep.json", _sweep_record(sweep, runs))

        bar = _Progress(progress, len(runs), len(finished), sweep.name)

        def done(rid: str) -> None:
            finished.add(rid)
            bar.advance(failures)

        def failed(rid: str, why: str) -> None:
            failures[rid] = why
            bar.advance(failures)

        tasks = [
            {
                "run_id": r.run_id, "text": r.toml_text, "name": f"{sweep.name}/{r.run_id}",
                "params": _jsonable(r.params), "sweep": sweep.name, "version": __build__,
                "runs_dir": str(runs_dir.resolve()),
            }
            for r in todo
        ]
        if executor == "dask" and not tasks and client is None and scheduler:
            check_scheduler(scheduler, connect_timeout)  # unreachable is an error even with nothing to run
        try:
            if tasks:
                if executor == "local":
                    n = workers or os.cpu_count() or 1
                    # The runs' metrics (analysis.jain) and the sweep table need pandas:
                    # imported once here, the pool's forked processes inherit it instead
                    # of importing it each (about 0.5-0.9 s of CPU apiece).
                    import pandas  # noqa: F401
                    _run_local(tasks, n, done, failed, lock.fd)
                else:
                    _run_dask(tasks, runs_dir, client, scheduler, connect_timeout, workers, retries,
                              done, failed)
        finally:
            bar.close()

        table = _table(sweep, runs, runs_dir, reused, metrics)
        elapsed = time.time() - started
        table.attrs["sweep"] = {
            "name": sweep.name, "runs": len(runs), "computed": len(finished - reused),
            "reused": len(reused), "failed": len(failures), "seconds": round(elapsed, 3),
        }
        if failures:
            first = next(iter(failures.items()))
            raise SweepError(
                f"{len(failures)} of {len(runs)} runs failed (the {len(table)} finished runs "
                f"are kept in {runs_dir}; run the sweep again to retry only the failed ones); "
                f"first: run {first[0]}: {first[1]}",
                failures=failures, results=table,
            )
        _atomic_write(out / "sweep.parquet", lambda p: table.to_parquet(p))
        _warn_identical_seeds(table, sweep)
        _warn_empty_groups(table, sweep, runs_dir)
        return table


class SeedWarning(UserWarning):
    """Every seed of a grid point gave the same results: the seeds average nothing."""


#: Metrics compared between the seeds of a point (not the wall-clock time).
_COMPARED = tuple(m for m in METRICS if m not in ("wall_s",))


def identical_seed_points(table, sweep: Sweep):
    """The grid points (dicts of parameter values) whose runs, two or more seeds, all
    have the same metrics."""
    import pandas as pd

    if "seed" not in table or table["seed"].nunique() < 2:
        return []
    keys = [c for c in sweep.columns if c != "seed" and c in table]
    cols = [c for c in _COMPARED if c in table]
    groups = table.groupby([table[k].astype(str) for k in keys], sort=False) if keys \
        else [((), table)]
    points = []
    for _, sub in groups:
        if len(sub) < 2:
            continue
        same = all(sub[c].astype(str).nunique(dropna=False) == 1 for c in cols)
        if same:
            row = sub.iloc[0]
            points.append({k: row[k] for k in keys})
    return points


def _warn_identical_seeds(table, sweep: Sweep) -> None:
    import warnings

    points = identical_seed_points(table, sweep)
    table.attrs.setdefault("sweep", {})["identical_seed_points"] = len(points)
    if not points:
        return
    n_points = table.groupby([table[c].astype(str) for c in sweep.columns if c != "seed"],
                             sort=False).ngroups if len(sweep.columns) > 1 else 1
    example = ", ".join(f"{k} = {v}" for k, v in points[0].items()) or "the base scenario"
    warnings.warn(
        f"{sweep.name}: {len(points)} of {n_points} grid points give identical results for "
        f"every seed (e.g. {example}): nothing in those runs draws on the seed, so the "
        "seeds average nothing. Add randomness that matters (a random send delay per TCP "
        "flow, overhead = \"1ms\" as ns-2's overhead_; RED's random drops; see "
        "docs/sweeps.md, 'Seeds')",
        SeedWarning, stacklevel=3)


class GroupWarning(UserWarning):
    """A group of flows of ``[sweep.groups.flows]`` has no flow in any run."""


def _warn_empty_groups(table, sweep: Sweep, runs_dir: Path) -> None:
    import warnings

    import pandas as pd

    if sweep.groups is None or sweep.groups.flows is None or table.empty:
        return
    empty = [g for g in sweep.groups.flows
             if f"{g}.flows" in table and not (table[f"{g}.flows"] > 0).any()]
    if not empty:
        return
    names = pd.read_parquet(runs_dir / table.index[0] / "flows.parquet", columns=["name"])["name"]
    shown = ", ".join(map(str, names[:6])) + (", ..." if len(names) > 6 else "")
    warnings.warn(
        f"{sweep.name}: group{'s' if len(empty) > 1 else ''} "
        + ", ".join(f"'{g}' ({', '.join(sweep.groups.flows[g])})" for g in empty)
        + f" of [sweep.groups.flows] matched no flow in any run; patterns match flow names "
        f"such as {shown}", GroupWarning, stacklevel=3)

"""Parameter sweeps: one base scenario, a grid of values and a list of seeds, run as many
independent simulations on local processes or on a Dask cluster.

    >>> from tcpsim.sweep import Sweep, run_sweep
    >>> sweep = Sweep("examples/dumbbell.toml",
    ...               grid={"dumbbell.bottleneck.queue.max_th": [30, 60, 90],
    ...                     "flow[*].recovery": ["reno", "newreno"]},
    ...               seeds=[1, 2, 3])
    >>> table = run_sweep(sweep, "results/sweeps/red")      # 18 runs, all cores
    >>> table.groupby("dumbbell.bottleneck.queue.max_th")["jain_index"].mean()

A sweep *expands* to runs: the Cartesian product of the grid values (first key
outermost) times the seeds. Each run is the base scenario with those values assigned,
written out as canonical TOML (keys sorted, no comments); its **run id** is a hash of
that text and of the tcpsim version, so the same scenario always gets the same id.

On disk (``out_dir``)::

    sweep.parquet           one row per run (index run_id): parameters + summary metrics
    sweep.json              the expanded sweep: name, grid, seeds, run ids
    runs/<run_id>/          that run's results (Results.save) + scenario.toml + run.json

A run directory only ever appears complete: it is written under ``runs/.tmp-*`` and
renamed into place, with ``run.json`` (which lists every file and its size) written last.
A run counts as finished only when ``run.json`` exists and every file it lists has the
recorded size. Running a sweep again therefore reuses every finished run and computes
only the rest, so an interrupted or partly failed sweep resumes without redoing or losing
work, and the table holds exactly one row per run.

Executors: local processes (default, ``os.cpu_count()`` of them) or Dask
(``scheduler="tcp://HOST:PORT"`` or ``client=distributed.Client(...)``). With Dask every
run is one task keyed by its run id; the worker returns the result files to this process,
which writes them, so workers need no shared file system and a run whose worker dies is
simply recomputed by the scheduler on another worker. See ``docs/sweeps.md``.

Modules: `spec` (the `Sweep` spec, grid expansion, run ids, validation), `metrics`
(`run_metrics`), `groups` (``[sweep.groups]``: per-group columns), `store` (run directories, ``run.json``
markers, locking, resume clean-up, the sweep table, `load_sweep`), `executors` (local
processes, Dask, progress bar), `runner` (`run_sweep`) and `cli` (``tcpsim sweep``).
"""

from __future__ import annotations

# Every name of the former single module stays importable from here.
from .spec import Run, Sweep, SweepError, run_id  # noqa: F401
from ..keypaths import canonical_toml  # noqa: F401
from .metrics import METRICS, METRICS_VERSION, run_metrics  # noqa: F401
from .store import LAYOUT_VERSION, MARKER, _Lock, default_out, is_finished, load_sweep  # noqa: F401
from .executors import DEFAULT_CONNECT_TIMEOUT  # noqa: F401
from .runner import GroupWarning, SeedWarning, identical_seed_points, run_sweep  # noqa: F401
from .groups import GROUP_METRICS, FlowGroups  # noqa: F401
from .cli import CLI_EPILOG, add_cli, cli_main, format_sweep  # noqa: F401

__all__ = [
    "Sweep",
    "Run",
    "SweepError",
    "SeedWarning",
    "GroupWarning",
    "run_sweep",
    "load_sweep",
    "run_metrics",
    "canonical_toml",
    "METRICS",
]

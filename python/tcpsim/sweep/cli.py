"""The ``tcpsim sweep`` command: `add_cli`, `cli_main`, the ``--dry-run`` listing and
`format_sweep`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from .._core import ScenarioError
from .._progress import for_stderr
from ..overrides import add_arguments as add_override_arguments, from_flags
from .runner import GroupWarning, SeedWarning, run_sweep
from .spec import Run, Sweep, SweepError, _short
from .store import _read_marker, default_out

CLI_EPILOG = """\
examples:
  tcpsim sweep examples/sweep_red.toml
        run every run of the spec on all local cores; results/sweeps/sweep_red/
  tcpsim sweep examples/sweep_red.toml --out results/red --workers 4
        four local processes, results in results/red/
  tcpsim sweep examples/sweep_red.toml --scheduler tcp://HOST:8786
        run on a Dask cluster (workers need tcpsim installed; results come back here)
  tcpsim sweep examples/sweep_red.toml --dry-run
        check the spec and list the runs, and which are already finished

A sweep spec is a TOML file:

  [sweep]
  base = "dumbbell.toml"              # relative to the spec (or an inline [base] table)
  seeds = [1, 2, 3]
  [sweep.grid]
  "dumbbell.bottleneck.queue.max_th" = [30, 60, 90]
  "flow[*].recovery" = ["reno", "newreno"]

Running the same command again reuses finished runs: an interrupted sweep resumes.
Output: DIR/sweep.parquet (one row per run), DIR/runs/<run_id>/ (each run's results).
exit status: 0 success, 1 some runs failed or other failure, 2 invalid spec or usage
error, 130 interrupted. The format is described in docs/sweeps.md.
"""


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Registers ``tcpsim sweep`` on an argparse subparsers object; returns its parser.
    Dispatch to `cli_main` when ``args.command == "sweep"``."""
    p = subparsers.add_parser(
        "sweep",
        help="run a parameter sweep (grid x seeds) locally or on a Dask cluster",
        description="Expand a sweep spec (base scenario + parameter grid + seeds) into runs and\n"
                    "run those not already finished, on local processes or a Dask cluster.",
        epilog=CLI_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("spec", metavar="SPEC", help="sweep spec file (.toml)")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default: the spec's sweep.out, else "
                        "results/sweeps/<spec name>); finished runs there are reused")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run on the Dask cluster of this scheduler (needs dask[distributed])")
    p.add_argument("--workers", "-j", metavar="N", type=int,
                   help="local: number of processes (default: all cores); with --scheduler: "
                        "wait for N workers before starting")
    p.add_argument("--dry-run", action="store_true",
                   help="check the spec and list its runs without running anything")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="print nothing but errors (no progress bar, no table)")
    add_override_arguments(p, seed_help="the base scenario's seed (simulation.seed), for a "
                                        "spec without seeds")
    p.add_argument("--connect-timeout", metavar="SECONDS", type=float,
                   help="with --scheduler: give up connecting after this many seconds "
                        "(default 30)")
    return p


def cli_main(args) -> int:
    """Runs ``tcpsim sweep`` for parsed `args`; returns the exit status."""
    def fail(message: str, status: int) -> int:
        print(f"tcpsim: error: {message}", file=sys.stderr)
        return status

    if args.workers is not None and args.workers < 1:
        return fail("--workers must be at least 1", 2)
    try:
        sweep = Sweep.from_spec(Path(args.spec), overrides=from_flags(args.overrides, args.seed))
        runs = sweep.runs()
    except ScenarioError as e:
        return fail(str(e), 2)
    out = Path(args.out) if args.out else default_out(sweep)

    if args.dry_run:
        if not args.quiet:
            print(_dry_run_listing(sweep, runs, out / "runs"))
        return 0

    if args.connect_timeout is not None and not args.connect_timeout > 0:
        return fail("--connect-timeout must be a positive number of seconds", 2)
    # a bar on a terminal; plain lines now and then in logs and CI
    progress = for_stderr(args.quiet)
    import warnings

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", SeedWarning)
            warnings.simplefilter("always", GroupWarning)
            table = run_sweep(sweep, out, scheduler=args.scheduler,
                              connect_timeout=args.connect_timeout, workers=args.workers,
                              progress=progress)
        for w in caught:
            if issubclass(w.category, (SeedWarning, GroupWarning)):
                print(f"tcpsim: warning: {w.message}", file=sys.stderr)
            else:
                warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    except ScenarioError as e:
        return fail(str(e), 2)
    except SweepError as e:
        if not args.quiet and e.failures:
            for rid, why in list(e.failures.items())[:10]:
                print(f"run {rid} failed: {why}", file=sys.stderr)
        return fail(str(e).split("; first:")[0], 1)
    except KeyboardInterrupt:
        print(f"tcpsim: interrupted; finished runs are kept in {out}/runs - run the same "
              "command again to resume", file=sys.stderr)
        return 130
    except OSError as e:
        return fail(f"cannot write to {out}: {e}", 1)
    if not args.quiet:
        print(format_sweep(table, sweep))
        info = table.attrs.get("sweep", {})
        print(f"\n{info.get('runs', len(table))} runs ({info.get('computed', '?')} computed, "
              f"{info.get('reused', '?')} reused) in {info.get('seconds', 0):.1f} s; "
              f"table: {out / 'sweep.parquet'}, runs: {out / 'runs'}/<run_id>/")
    return 0


def _dry_run_listing(sweep: Sweep, runs: List[Run], runs_dir: Path) -> str:
    lines = [f"{sweep!r}: {len(runs)} runs"]
    done = 0
    for r in runs:
        ok = _read_marker(runs_dir / r.run_id) is not None
        done += ok
        shown = ", ".join(f"{k}={_short(v, 30)}" for k, v in r.params.items())
        lines.append(f"  {r.run_id}  {'finished' if ok else 'to run  '}  {shown}")
    lines.append(f"{done} finished, {len(runs) - done} to run, output {runs_dir.parent}")
    return "\n".join(lines)


def format_sweep(table, sweep: Optional[Sweep] = None, limit: int = 40) -> str:
    """Means over seeds of the main metrics, one line per grid point."""
    import pandas as pd

    if table.empty:
        return "no runs"
    keys = [c for c in (sweep.columns if sweep is not None else []) if c != "seed" and c in table]
    cols = {"goodput_bps": "goodput Mbps", "jain_index": "Jain", "drops": "drops",
            "bottleneck_utilization": "util %", "bottleneck_queue_mean_pkts": "queue p"}
    # each group's goodput share ([sweep.groups])
    shares = [c for c in table.columns if c.endswith(".goodput_share")]
    cols.update({c: f"{c[: -len('.goodput_share')]} share" for c in shares})
    t = table.copy()
    t["goodput_bps"] = t["goodput_bps"] / 1e6
    t["bottleneck_utilization"] = t["bottleneck_utilization"] * 100
    agg = {c: "mean" for c in cols}
    agg["seed"] = "count"
    if keys:
        from ..units import sort_key

        # grid points by value: numbers and quantities with units ("50p" < "100p")
        order = sorted(range(len(t)), key=lambda i: tuple(sort_key(t[k].iloc[i]) for k in keys))
        t = t.iloc[order]
        g = t.groupby([t[k].astype(str) for k in keys], sort=False).agg(agg).reset_index()
    else:
        g = t.agg(agg).to_frame().T
    g = g.rename(columns={**cols, "seed": "runs"})
    with pd.option_context("display.width", 200, "display.max_columns", 50,
                           "display.float_format", "{:.3f}".format):
        text = g.head(limit).to_string(index=False)
    more = f"\n({len(g) - limit} more grid points in sweep.parquet)" if len(g) > limit else ""
    return f"Sweep {sweep.name if sweep else ''} (means over seeds)\n{text}{more}".replace("Sweep  (", "Sweep (")

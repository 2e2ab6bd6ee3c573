"""The ``tcpsim`` command line."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import List, Optional, Sequence

from .overrides import FLAGS_HELP as OVERRIDES_HELP, add_arguments as add_override_arguments

EPILOG = """\
examples:
  tcpsim run examples/dumbbell.toml
        run a scenario and print the per-flow and per-queue tables
  tcpsim run examples/dumbbell.toml --out results/dumbbell --plot
        also write Parquet tables, summary.json and cwnd/queue/throughput/utilization PNGs
  tcpsim run examples/dumbbell.toml --out results/dumbbell --csv --quiet
        write Parquet and CSV tables, print nothing
  tcpsim run examples/dumbbell.toml --seed 3 --set dumbbell.bottleneck.rate=20Mbps \\
        --set "flow[*].cc=vegas" --set "flow[*].cc.alpha=2" --set simulation.duration=20s
        the same scenario with another seed and some keys changed (--set KEY=VALUE, the
        key paths of sweeps); summary.json lists the overrides
  tcpsim validate examples/*.toml
        check scenario files without running them (--set and --seed check them changed)
  tcpsim plot results/dumbbell
        redraw the plots of saved results
  tcpsim sweep examples/sweep_red.toml
        run a parameter sweep (grid x seeds) on all cores; see docs/sweeps.md
  tcpsim sweep examples/sweep_red.toml --scheduler tcp://HOST:8786
        the same sweep on a Dask cluster
  tcpsim models
        every congestion control, recovery, receiver, queue, agent and error model
  tcpsim reproduce 004 --quick
        rerun a reference document's experiments and write a paper-versus-simulator report
  tcpsim models red
        one model: its parameters with defaults, units, ranges and sources, and an example

exit status: 0 success, 1 other failure, 2 invalid scenario or usage error.
The scenario format is described in docs/scenario.md.
"""


PLOT_EPILOG = """\
examples:
  tcpsim plot results/dumbbell
        cwnd, throughput, queue (with drops), utilization, loss rate and queueing
        delay vs time of one run, the CDF of per-flow goodput and a goodput-RTT
        scatter
  tcpsim plot results/sweeps/sweep_red
        metrics vs a swept parameter, mean +- SD over seeds
  tcpsim plot results/sweeps/sweep_red --x dumbbell.bottleneck.queue.max_th \\
        --hue "flow[*].recovery" --y jain_index,goodput_bps --error ci95
  tcpsim plot results/sweeps/sweep_red --x dumbbell.bottleneck.queue.max_th \\
        --col "flow[*].recovery" --y jain_index
        one panel per loss recovery (facets), lines by the remaining parameter
"""


def _add_format_argument(parser, what: str) -> None:
    from ._figure_format import DPI, FORMATS

    parser.add_argument("--format", choices=FORMATS, default=FORMATS[0],
                        help=f"file format of {what}: {', '.join(FORMATS)} (default {FORMATS[0]}, "
                             f"at {DPI} dpi; pdf and svg are vector files for papers)")


def _memory_size(text: str) -> int:
    """A size with the scenario files' units ("16GiB"), in bytes."""
    from ._core import parse_quantity

    try:
        return parse_quantity("size", text)[0]
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tcpsim",
        description="Packet-level network simulator for TCP congestion control and AQM research.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser(
        "run",
        help="run a scenario file",
        description="Run a scenario and print per-flow and per-queue summaries.",
        epilog=EPILOG + "\n" + OVERRIDES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("scenario", metavar="SCENARIO", help="scenario file (.toml)")
    run.add_argument("--out", metavar="DIR",
                     help="write results here (Parquet tables + summary.json); "
                          "default with --csv/--plot: results/<scenario name>")
    run.add_argument("--csv", action="store_true", help="also write each table as CSV")
    run.add_argument("--plot", action="store_true",
                     help="write the run's plots (see `tcpsim plot --help`; the time-series ones need [monitor] interval)")
    _add_format_argument(run, "--plot's files")
    run.add_argument("--quiet", "-q", action="store_true",
                     help="print nothing but errors (no tables, no progress bar)")
    run.add_argument("--all", action="store_true",
                     help=f"print a row for every flow (default: all up to {FLOW_ROWS} flows; "
                          "beyond, the highest and lowest goodputs)")
    add_override_arguments(run)
    _add_limit_arguments(run)

    val = sub.add_parser(
        "validate",
        help="check scenario files without running them",
        description="Check scenario files (every key, unit, node, route and queue limit) "
                    "without running them; exit 2 with the first error of each bad file.",
        epilog="examples:\n  tcpsim validate examples/dumbbell.toml\n  tcpsim validate examples/*.toml bench/*.toml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    val.add_argument("scenarios", metavar="SCENARIO", nargs="+", help="scenario files (.toml)")
    add_override_arguments(val, seed_help="check with this seed (simulation.seed); for a "
                                          "sweep spec, the base scenario's seed")
    _add_limit_arguments(val)

    plot = sub.add_parser(
        "plot",
        help="draw the plots of a saved run or sweep directory",
        description="Draw plots (PNG, or PDF or SVG with --format) from a results directory (written by `tcpsim run --out`): "
                    "cwnd.png, throughput.png, queue.png, utilization.png, loss.png, "
                    "delay.png (from the time series), goodput_cdf.png, "
                    "throughput_delay.png (from the flows table); or from a sweep "
                    "directory (written by `tcpsim sweep`, holding sweep.parquet): one "
                    "sweep_<metric>.png per metric, mean over seeds with error bars, "
                    "against a swept parameter.",
        epilog=PLOT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    plot.add_argument("results", metavar="DIR",
                      help="directory written by `tcpsim run --out` or by `tcpsim sweep`")
    plot.add_argument("--out", metavar="DIR", help="where to write the plots (default: DIR)")
    _add_format_argument(plot, "the plots")
    plot.add_argument("--x", metavar="PARAM",
                      help="sweep: parameter on the x axis (default: the numeric parameter "
                           "with the most values)")
    plot.add_argument("--y", metavar="METRIC", action="append",
                      help="sweep: metric column to plot; repeat or separate with commas "
                           "(default: goodput_bps, jain_index, bottleneck_utilization, "
                           "bottleneck_queue_mean_pkts, drops, rtt_mean_s)")
    plot.add_argument("--hue", metavar="PARAM",
                      help="sweep: parameter drawn as separate lines (default: the remaining "
                           "parameter with the fewest values)")
    plot.add_argument("--col", metavar="PARAM",
                      help="sweep: one panel per value of this parameter (facets), for "
                           "sweeps of two parameters or more")
    plot.add_argument("--error", choices=("sd", "ci95", "none"), default="sd",
                      help="sweep: error bars across seeds, +-1 standard deviation (sd, the "
                           "default) or the 95%% confidence interval of the mean (ci95)")

    from .sweep import add_cli as add_sweep_cli
    from .models_cli import add_cli as add_models_cli
    from .reproduce.cli import add_cli as add_reproduce_cli

    add_sweep_cli(sub)
    add_models_cli(sub)
    add_reproduce_cli(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; returns the exit status. Never shows a Python traceback:
    every failure is one ``tcpsim: error: ...`` line on standard error (set
    ``TCPSIM_DEBUG=1`` to see the traceback of an unexpected error)."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`tcpsim models | head`): stop quietly, as `cat` does,
        # with the shell's status for a process ended by SIGPIPE.
        _quiet_stdout()
        return 141
    except KeyboardInterrupt:
        print("tcpsim: interrupted", file=sys.stderr)
        return 130
    except RecursionError:
        return _fail("the input is nested too deeply to read")
    except MemoryError:
        return _fail("out of memory", status=1)
    except SystemExit:
        raise
    except Exception as e:  # a bug, or an input nobody foresaw: one line, not a traceback
        import os

        if os.environ.get("TCPSIM_DEBUG"):
            raise
        return _fail(f"unexpected {type(e).__name__}: {_one_line(e)} (this is a bug in "
                     "tcpsim; TCPSIM_DEBUG=1 shows where)", status=1)


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return text if len(text) <= 300 else text[:297] + "..."


def _quiet_stdout() -> None:
    """Points standard output at /dev/null so that the interpreter's final flush does
    not fail again on the closed pipe."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _command_parser(parser: argparse.ArgumentParser, command: Optional[str]) -> argparse.ArgumentParser:
    """The parser of subcommand `command` (the top-level parser if there is none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices.get(command, parser)
    return parser


def _main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        # Say it with the usage of the command that was given (`tcpsim run ... --seed 3`
        # shows run's usage, not the list of commands).
        _command_parser(parser, getattr(args, "command", None)).error(f"unrecognized arguments: {' '.join(extra)}")
    if args.version:
        from ._core import __version__

        print(f"tcpsim {__version__}")
        return 0
    if args.command is None:
        parser.print_help()
        return 2
    if args.command == "run":
        return _cmd_run(args)
    if args.command == "validate":
        return _cmd_validate(args)
    if args.command == "plot":
        return _cmd_plot(args)
    if args.command == "models":
        from .models_cli import cli_main as models_main

        return models_main(args)
    if args.command == "sweep":
        from .sweep import cli_main as sweep_main

        return sweep_main(args)
    if args.command == "reproduce":
        from .reproduce.cli import cli_main as reproduce_main

        return reproduce_main(args)
    parser.error(f"unknown command {args.command}")
    return 2


def _fail(message: str, status: int = 2) -> int:
    print(f"tcpsim: error: {message}", file=sys.stderr)
    return status


def _cmd_run(args) -> int:
    from ._core import ScenarioError, run_toml
    from .api import read_scenario, run_with_progress
    from .overrides import from_flags, overridden_text, record
    from .results import Results

    try:
        text, name = read_scenario(Path(args.scenario))
    except OSError as e:
        return _fail(f"cannot read scenario {args.scenario}: {e.strerror or e}")
    except ScenarioError as e:
        return _fail(str(e))
    if _is_sweep_spec(text):
        return _fail(f"{args.scenario} is a sweep spec, not a scenario; run it with "
                     f"`tcpsim sweep {args.scenario}`")

    out = args.out
    if out is None and (args.csv or args.plot):
        out = str(Path("results") / Path(args.scenario).stem)

    label = Path(args.scenario).stem
    try:
        limits = {"max_memory": args.max_memory, "max_samples": args.max_samples}
        overrides = from_flags(args.overrides, args.seed)
        text = overridden_text(text, name, overrides, **limits)
        if args.quiet:
            raw = run_toml(text, name, None, output_dir=out, **limits)
        else:  # a bar on a terminal, a plain line now and then in logs and CI
            raw = run_with_progress(text, name, label, out, limits, delay=1.0)
    except ScenarioError as e:
        return _fail(str(e))
    results = Results.from_core(raw, scenario_text=text)
    if overrides:  # results say how they were made
        results.summary["overrides"] = record(overrides)

    if not args.quiet:
        print(format_report(results, flow_rows=None if args.all else FLOW_ROWS))
    if out is not None:
        try:
            results.save(out, csv=args.csv)
            written = ["tables"]
            if args.plot:
                from .plots import plot_all

                pngs = plot_all(results, out, format=args.format)
                if pngs:
                    written.append("plots " + ", ".join(p.name for p in pngs))
                if not args.quiet:
                    _say_skipped(results)
        except OSError as e:
            return _fail(f"cannot write results to {out}: {e}", status=1)
        if not args.quiet:
            print(f"\nresults written to {out}/ ({'; '.join(written)})")
    return 0


def _is_sweep_spec(text: str) -> bool:
    """Whether TOML text is a sweep spec (has a top-level [sweep] table)."""
    import re

    return re.search(r"^\s*\[\s*sweep\s*[.\]]", text, re.M) is not None


def _add_limit_arguments(parser) -> None:
    """--max-memory and --max-samples, with the core's defaults in the help."""
    from .api import default_limits

    d = default_limits()
    parser.add_argument("--max-memory", metavar="SIZE", type=_memory_size,
                        help="refuse a scenario whose estimated memory exceeds SIZE, such as "
                             f"16GiB (default {_binary_size(d['max_memory'])})")
    parser.add_argument("--max-samples", metavar="N", type=_positive_int,
                        help="refuse a scenario whose monitor would record more than N "
                             f"time-series values (default {d['max_samples']})")


def _binary_size(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n % size == 0:
            return f"{n // size}{unit}"
    return f"{n}B"


def _cmd_validate(args) -> int:
    """Checks scenarios and sweep specs. A sweep spec is expanded and every run
    validated, as `tcpsim sweep --dry-run` does; results directories and other files
    are named for what they are, with the command that takes them."""
    from ._core import ScenarioError, validate_toml
    from .api import read_scenario
    from .overrides import from_flags, overridden_text

    try:
        overrides = from_flags(args.overrides, args.seed)
    except ScenarioError as e:
        return _fail(str(e))
    limits = {"max_memory": args.max_memory, "max_samples": args.max_samples}
    status = 0
    for item in args.scenarios:
        path = Path(item)
        try:
            if path.is_dir():
                kind = _directory_kind(path)
                raise ScenarioError(f"{item} is {kind}, not a scenario file")
            text, name = read_scenario(path)
            if _is_sweep_spec(text):
                from .sweep import Sweep

                sweep = Sweep.from_spec(path, overrides=overrides)
                n = len(sweep.runs())
                print(f"{item}: ok (sweep spec, {n} run{'s' if n != 1 else ''}; "
                      f"run it with `tcpsim sweep {item}`)")
            else:
                if overrides:
                    overridden_text(text, name, overrides, **limits)
                else:
                    validate_toml(text, name, **limits)
                print(f"{item}: ok")
        except ScenarioError as e:
            print(f"tcpsim: error: {e}", file=sys.stderr)
            status = 2
        except OSError as e:
            print(f"tcpsim: error: cannot read scenario {item}: {e.strerror or e}",
                  file=sys.stderr)
            status = 2
    return status


def _directory_kind(d: Path) -> str:
    if (d / "sweep.parquet").exists() or (d / "sweep.json").exists():
        return "a sweep output directory (`tcpsim plot` draws it)"
    if (d / "flows.parquet").exists() or (d / "flows.csv").exists():
        return "a results directory (`tcpsim plot` draws it)"
    return "a directory"


def _cmd_plot(args) -> int:
    d = Path(args.results)
    if not d.is_dir():
        return _fail(f"no such directory: {d}")
    sweep_opts = [f"--{k}" for k in ("x", "y", "hue", "col") if getattr(args, k)]
    if (d / "sweep.parquet").exists():
        return _plot_sweep(args, d)
    if (d / "flows.parquet").exists() or (d / "flows.csv").exists():
        if sweep_opts:
            verb = "applies" if len(sweep_opts) == 1 else "apply"
            return _fail(f"{', '.join(sweep_opts)} {verb} only to sweep directories; {d} "
                         "holds the results of one run")
        return _plot_run(args, d)
    if (d / "sweep.json").exists() or (d / "runs").is_dir():
        return _fail(f"{d} is a sweep directory without sweep.parquet: the sweep has not "
                     "finished (run `tcpsim sweep SPEC` again to complete it)", status=1)
    return _fail(f"{d} is neither a run results directory (flows.parquet, written by "
                 "`tcpsim run --out`) nor a sweep directory (sweep.parquet, written by "
                 "`tcpsim sweep`)")


def _plot_run(args, d: Path) -> int:
    from .plots import plot_all
    from .results import load_results

    try:
        results = load_results(d)
    except (OSError, ValueError) as e:
        return _fail(str(e), status=1)
    try:
        pngs = plot_all(results, args.out or d, format=args.format)
    except OSError as e:
        return _fail(f"cannot write plots to {args.out or d}: {e}", status=1)
    if not pngs:
        return _fail("the results hold no flows to plot", status=1)
    for p in pngs:
        print(p)
    _say_skipped(results)
    return 0


def _say_skipped(results) -> None:
    """One line on standard error per run plot left out, with the reason."""
    from .plots.standard import skipped_plots

    for name, why in skipped_plots(results):
        print(f"note: {name} not drawn: {why}", file=sys.stderr)


def _plot_sweep(args, d: Path) -> int:
    from .plots import plot_sweep_all
    from .sweep import load_sweep

    try:
        table = load_sweep(d)
    except (OSError, ValueError) as e:
        return _fail(str(e), status=1)
    ys = None
    if args.y:
        ys = [y.strip() for arg in args.y for y in arg.split(",") if y.strip()]
    try:
        pngs = plot_sweep_all(table, args.out or d, x=args.x, y=ys, hue=args.hue,
                              error=args.error, col=args.col, format=args.format)
    except ValueError as e:
        return _fail(f"{d}: {e}")
    except OSError as e:
        return _fail(f"cannot write plots to {args.out or d}: {e}", status=1)
    if not pngs:
        return _fail(f"{d}: the sweep table has no metric to plot", status=1)
    for p in pngs:
        print(p)
    return 0


# ---------------------------------------------------------------------- report tables


#: Flow rows `tcpsim run` prints without --all: beyond this many flows, the half with the
#: highest goodput and the half with the lowest.
FLOW_ROWS = 20


def format_report(results, flow_rows: Optional[int] = None) -> str:
    """The text `tcpsim run` prints: scenario facts, per-flow table (at most `flow_rows`
    rows, None: every flow), queue table."""
    parts = []
    head = _summary_line(results.summary)
    if head:
        parts.append(head)
    parts.append(format_flows(results.flows, results.summary, flow_rows))
    groups = format_groups(results.flows, results.summary)
    if groups:
        parts.append(groups)
    queues = format_queues(results.queues, results.links)
    if queues:
        parts.append(queues)
    return "\n\n".join(parts)


def _summary_line(summary: dict) -> str:
    bits = []
    for key, label, fmt in (
        ("duration_s", "simulated", "{:g} s"),
        ("seed", "seed", "{}"),
        ("events", "events", "{:,}"),
        ("wall_seconds", "wall time", "{:.2f} s"),
    ):
        value = summary.get(key)
        if value is not None:
            try:
                bits.append(f"{label} {fmt.format(value)}")
            except (ValueError, TypeError):
                bits.append(f"{label} {value}")
    return ", ".join(bits)


def format_flows(flows, summary=None, max_rows: Optional[int] = None) -> str:
    """The flows table; with more than `max_rows` flows, the `max_rows` // 2 with the
    highest goodput and as many with the lowest, and a line saying how many are left out."""
    if flows.empty:
        return "no flows"
    shown, hidden = flows, 0
    if max_rows is not None and len(flows) > max_rows and "goodput_bps" in flows:
        import pandas as pd

        ranked = flows.sort_values("goodput_bps", ascending=False, kind="stable")
        half = max(1, max_rows // 2)
        shown, hidden = pd.concat([ranked.head(half), ranked.tail(half)]), len(flows) - 2 * half
    rows = []
    records = shown.to_dict("records")
    for i, f in enumerate(records):
        if hidden and i == len(records) // 2:
            rows.append([f"... {hidden} flows", "", "", "", "", ""])
        kind = f.get("type", "")
        algo = f"{kind} {f.get('recovery', '')}".strip() if kind == "tcp" else kind
        rows.append([
            str(f.get("name", "")),
            algo,
            _num(f.get("goodput_bps"), 1e-6, "{:.3f}"),
            _int(f.get("retransmits")) if kind == "tcp" else "-",
            _int(f.get("timeouts")) if kind == "tcp" else "-",
            _num(f.get("rtt_mean_s"), 1e3, "{:.1f}"),
        ])
    table = _table(
        ["flow", "transport", "goodput Mbps", "retransmits", "timeouts", "mean RTT ms"],
        rows, right=[False, False, True, True, True, True],
    )
    # Bytes all flows delivered over the measurement window per second of it (the core's
    # summary); not the sum of per-flow rates, each over its own active time.
    total = (summary or {}).get("aggregate_goodput_bps")
    tail = f"aggregate goodput {total / 1e6:.3f} Mbps" if total is not None else "aggregate goodput unknown"
    if (summary or {}).get("measure_from_s"):
        tail += f" (measured from {summary['measure_from_s']:g} s)"
    tcp = flows[flows["type"] == "tcp"]["goodput_bps"] if "type" in flows else flows.get("goodput_bps")
    if tcp is not None and len(tcp) > 1:
        from .analysis import jain

        tail += f", Jain fairness index {jain(tcp):.3f}"
    if hidden:
        tail += (f"\n({hidden} of {len(flows)} flows not shown: the table holds the highest and lowest "
                 "goodputs; --all prints every row)")
    return f"Flows\n{table}\n{tail}"


def format_groups(flows, summary=None) -> str:
    """The flow groups (the flows' ``group``), one row each: flows, aggregate goodput
    over the measurement window, share, Jain's index inside the group; then Jain's index
    over the groups' goodputs (reference document 002's fairness over subnets). "" when
    no flow has a group."""
    if "group" not in flows or "goodput_bytes" not in flows:
        return ""
    named = flows[flows["group"].fillna("").astype(str) != ""]
    if named.empty:
        return ""
    from .analysis import jain

    summary = summary or {}
    window = float(summary.get("duration_s", float("nan"))) - float(summary.get("measure_from_s") or 0.0)
    total = float(named["goodput_bytes"].sum())
    rows, goodputs = [], []
    for group, members in named.groupby("group", sort=False):
        delivered = float(members["goodput_bytes"].sum())
        goodputs.append(delivered * 8.0 / window if window > 0 else float("nan"))
        rows.append([
            str(group), str(len(members)), _num(goodputs[-1], 1e-6, "{:.3f}"),
            _num(delivered / total if total > 0 else float("nan"), 1.0, "{:.3f}"),
            _num(jain(members["goodput_bps"]), 1.0, "{:.3f}"),
        ])
    table = _table(["group", "flows", "goodput Mbps", "share", "Jain in group"], rows,
                   right=[False, True, True, True, True])
    tail = f"Jain fairness index over the {len(rows)} groups {jain(goodputs):.3f}" if len(rows) > 1 else ""
    return f"Groups\n{table}" + (f"\n{tail}" if tail else "")


def format_queues(queues, links=None, limit: int = 8) -> str:
    """Queues that dropped or marked packets or held a standing queue (mean length at
    least 0.05 packets), busiest first, at most `limit` of them."""
    if queues.empty:
        return ""
    q = queues.copy()
    q["_loss"] = q["early_drops"] + q["overflow_drops"] + q["marks"]
    active = q[(q["_loss"] > 0) | (q["mean_length_pkts"] >= 0.05)]
    if active.empty:
        active = q[q["arrivals"] > 0].sort_values("arrivals", ascending=False).head(1)
    active = active.sort_values(["_loss", "mean_length_pkts"], ascending=False, kind="stable")
    shown = active.head(limit)
    util = {}
    if links is not None and not links.empty and "link" in links:
        # Only the shown queues' links: a dict of every link took 0.4 s at 400 000 links.
        of_shown = links[links["link"].isin(shown["queue"])]
        util = dict(zip(of_shown["link"], of_shown["utilization"]))
    rows = []
    for r in shown.to_dict("records"):
        rows.append([
            r["queue"], r["kind"], _int(r["arrivals"]), _int(r["early_drops"]),
            _int(r["overflow_drops"]), _int(r["marks"]),
            _num(r["mean_length_pkts"], 1, "{:.2f}"), _num(r["max_length_pkts"], 1, "{:g}"),
            _num(r["mean_sojourn_s"], 1e3, "{:.2f}"),
            _num(util.get(r["queue"]), 100, "{:.1f}"),
        ])
    table = _table(
        ["queue", "kind", "arrivals", "early drops", "overflow drops", "marks",
         "mean len p", "max len p", "sojourn ms", "link util %"],
        rows, right=[False, False] + [True] * 8,
    )
    hidden = len(q) - min(len(active), limit)
    tail = f"\n({hidden} quieter queues not shown; all are in queues.parquet)" if hidden else ""
    return f"Queues\n{table}{tail}"


def _num(value, scale: float, fmt: str) -> str:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return "-"
    return "-" if math.isnan(v) or math.isinf(v) else fmt.format(v * scale)


def _int(value) -> str:
    try:
        return f"{int(value)}"
    except (TypeError, ValueError):
        return "-"


def _table(header: List[str], rows: List[List[str]], right: List[bool]) -> str:
    """A plain-text table (rich, without colour): header, rule, one line per row."""
    import io

    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    for h, r in zip(header, right):
        table.add_column(h, justify="right" if r else "left", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    buf = io.StringIO()
    Console(file=buf, width=100_000, color_system=None, highlight=False, markup=False,
            emoji=False, soft_wrap=False).print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().rstrip("\n").splitlines())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

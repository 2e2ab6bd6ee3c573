"""``tcpsim reproduce DOCUMENT|all``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .._figure_format import DPI, FORMATS
from .._progress import for_stderr

EPILOG = """\
examples:
  tcpsim reproduce 004 --quick
        short runs, one seed: a first look in well under a minute
  tcpsim reproduce 004
        the full reproduction (100 s runs, the document's seeds): report in
        results/reproductions/004/report/ (index.html, README.md)
  tcpsim reproduce 004 --ns2
        also run the ns-2.35 twins of the experiments (needs `ns`): the report
        shows ns-2's verdict on the same reconstruction beside ours
  tcpsim reproduce 004 --ns2 --report docs/reproductions/004
        regenerate the committed report
  tcpsim reproduce all --scheduler tcp://HOST:8786
        every document, runs on a Dask cluster
Finished runs are kept under --out and reused. See docs/reproducing.md.
"""


def add_cli(sub) -> None:
    p = sub.add_parser(
        "reproduce",
        help="run a reference document's experiments and compare with its published numbers",
        description="Run the experiments of a reference document (experiments/<document>/), "
                    "check our measurements against the document's published numbers and "
                    "write a report (Markdown and a self-contained HTML page).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("document", metavar="DOCUMENT", help="document name under experiments/ (e.g. 004), a directory, or 'all'")
    p.add_argument("--quick", action="store_true", help="short runs and one seed (each experiment's [experiment.quick])")
    p.add_argument("--seeds", type=int, metavar="N", help="seeds per point (default: the document's; 1 with --quick)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--jobs", "-j", type=int, metavar="N", help="local worker processes (default: all cores)")
    g.add_argument("--scheduler", metavar="ADDR", help="Dask scheduler address, e.g. tcp://127.0.0.1:8786")
    p.add_argument("--out", metavar="DIR", help="run cache and default report location (default: results/reproductions)")
    p.add_argument("--report", metavar="DIR", help="write the report here (one document only)")
    p.add_argument("--ns2", action="store_true",
                   help="also run each experiment's ns-2.35 twin ([experiment.ns2]; needs `ns`) and show "
                        "ns-2's verdicts beside ours")
    p.add_argument("--format", choices=FORMATS, default=FORMATS[0],
                   help=f"also write the report's figures in this format (figures/<id>.pdf or .svg, "
                        f"vector files for papers); the report itself embeds PNG at {DPI} dpi")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bars")


def cli_main(args) -> int:
    from .._core import ScenarioError
    from . import list_documents, reproduce
    from .report import agreement

    if args.seeds is not None and args.seeds < 1:
        print("tcpsim: error: --seeds must be at least 1", file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print("tcpsim: error: --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.ns2:
        from .ns2 import NOT_INSTALLED, ns_binary

        if ns_binary() is None:
            print(f"tcpsim: error: {NOT_INSTALLED}", file=sys.stderr)
            return 2
    docs = list_documents() if args.document == "all" else [args.document]
    if args.report and len(docs) != 1:
        print("tcpsim: error: --report needs a single document", file=sys.stderr)
        return 2
    rows = []
    for d in docs:
        cmd = ("tcpsim reproduce " + d + (" --quick" if args.quick else "") + (f" --seeds {args.seeds}" if args.seeds else "")
               + (" --ns2" if args.ns2 else ""))
        try:
            r = reproduce(d, quick=args.quick, seeds=args.seeds, jobs=args.jobs, scheduler=args.scheduler,
                          out=Path(args.out) if args.out else None, report_dir=Path(args.report) if args.report else None,
                          progress=for_stderr(args.quiet), command=cmd, ns2=args.ns2, format=args.format)
        except ScenarioError as e:
            print(f"tcpsim: error: {e}", file=sys.stderr)
            return 2
        s = r.summary
        rows.append((r.document.id, s))
        print(f"document {r.document.id}: " + ", ".join(f"{k.kind} {k.passed}/{k.total}" for k in s.itertuples() if k.total)
              + f"; all {s.passed.sum()}/{s.total.sum()} passed ({s.missed.sum()} missed, {s.not_run.sum()} not run)")
        if r.ns2_verdicts is not None:
            a = agreement(r.verdicts, r.ns2_verdicts)
            print(f"ns-2.35 on the same reconstruction: {a['ns2_passed']}/{a['compared']} of the twinned checks pass; "
                  f"same verdict as tcpsim on {a['same']}/{a['compared']}")
        print(f"report: {r.report_dir / 'index.html'}  (and README.md)")
    return 0

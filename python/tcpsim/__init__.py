"""tcpsim — a fast packet-level discrete-event network simulator for TCP congestion
control and AQM research.

    >>> import tcpsim
    >>> res = tcpsim.run("examples/dumbbell.toml", out="results/dumbbell")
    >>> res.flows[["name", "goodput_bps", "retransmits"]]
    >>> res.series("cwnd")            # one column per flow, indexed by time_s

The simulator core is Rust (`tcpsim._core`); this package turns its result tables into
pandas DataFrames, stores them as Parquet, draws plots (`tcpsim.plots`) and provides the
``tcpsim`` command line (`tcpsim.cli`).
"""

from ._core import ScenarioError, __build__, __version__
from .api import default_limits, read_scenario, run, validate
from .results import SCHEMAS, TABLES, Results, load_results
from . import analysis, metrics, models
from .models import Model
from .analysis import aggregate, window
from .scenario import (
    RED,
    CbrFlow,
    Chain,
    DropTail,
    Dumbbell,
    Link,
    LinkSpec,
    Event,
    Monitor,
    Routing,
    Scenario,
    TcpFlow,
    Trace,
    flow_class,
)

#: Names loaded on first use (PEP 562), so that ``import tcpsim`` does not load the sweep
#: machinery (its spec, store, executors and command line) until a sweep is asked for:
#: the subpackage `tcpsim.sweep` itself and the names taken from it.
_FROM_SWEEP = ("Sweep", "load_sweep", "run_sweep")


def __getattr__(name: str):
    if name == "sweep" or name in _FROM_SWEEP:
        # Importing the subpackage also binds it here as `sweep`; the names are bound
        # too, so later lookups find them directly.
        from .sweep import Sweep, load_sweep, run_sweep

        globals().update(Sweep=Sweep, load_sweep=load_sweep, run_sweep=run_sweep)
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"sweep", *_FROM_SWEEP})


__all__ = [
    "RED",
    "CbrFlow",
    "Chain",
    "DropTail",
    "Dumbbell",
    "Link",
    "LinkSpec",
    "Model",
    "Monitor",
    "Scenario",
    "Sweep",
    "TcpFlow",
    "Trace",
    "Routing",
    "Event",
    "aggregate",
    "analysis",
    "load_sweep",
    "metrics",
    "models",
    "flow_class",
    "run_sweep",
    "window",
    "ScenarioError",
    "Results",
    "SCHEMAS",
    "TABLES",
    "load_results",
    "read_scenario",
    "run",
    "default_limits",
    "validate",
    "__version__",
    "__build__",
]

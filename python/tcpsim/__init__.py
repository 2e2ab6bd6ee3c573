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
from . import models
from .models import Model
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

#: Names loaded on first use (PEP 562), by the submodule they come from. ``import
#: tcpsim`` (and with it every ``tcpsim`` command) then loads neither the sweep machinery
#: (its spec, store, executors and command line) until a sweep is asked for, nor pandas
#: and NumPy, which `analysis` and `metrics` import and which take about half a second
#: to import; `Results` imports pandas when it first builds or reads a table.
_LAZY = {
    "sweep": ("sweep", None),
    "Sweep": ("sweep", "Sweep"),
    "load_sweep": ("sweep", "load_sweep"),
    "run_sweep": ("sweep", "run_sweep"),
    "analysis": ("analysis", None),
    "aggregate": ("analysis", "aggregate"),
    "window": ("analysis", "window"),
    "metrics": ("metrics", None),
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    # Importing a submodule also binds it here under its own name; a name taken from it
    # is bound too, so later lookups find it directly.
    submodule, attribute = _LAZY[name]
    module = importlib.import_module(f".{submodule}", __name__)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


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

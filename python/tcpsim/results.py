"""Run results as pandas DataFrames, stored as Parquet (plus JSON summary, CSV on request).

A results directory holds::

    flows.parquet        one row per flow
    queues.parquet       one row per queue (one per link direction, named "a->b")
    links.parquet        one row per link direction
    timeseries.parquet   long format: time_s, entity, metric, value
    summary.json         scenario echo and run facts
    scenario.toml        the scenario text that produced them (when known)
    *.csv                the same tables as CSV, when asked for

Every file is written atomically (to a temporary file in the same directory, then
renamed over the target), so a reader never sees half a table and an interrupted save
leaves the previous results intact.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Union

import pandas as pd

PathLike = Union[str, "os.PathLike[str]"]

#: The tables of a run, in the order they are written.
TABLES = ("flows", "queues", "links", "timeseries")

#: Column names and dtypes of each table (the core's `RunResults`); used to give an empty
#: table its columns and to document what to expect.
SCHEMAS: Dict[str, Dict[str, str]] = {
    "flows": {
        "name": "str", "type": "str", "from": "str", "to": "str", "recovery": "str",
        "cc": "str", "start_s": "float64", "stop_s": "float64", "packets_sent": "int64",
        "retransmits": "int64", "timeouts": "int64", "fast_retransmits": "int64",
        "ecn_reductions": "int64",
        "packets_received": "int64", "unique_packets": "int64", "goodput_bytes": "int64",
        "goodput_bps": "float64", "throughput_bps": "float64", "drops": "int64",
        "rtt_samples": "int64", "rtt_mean_s": "float64", "rtt_min_s": "float64",
        "rtt_max_s": "float64", "final_cwnd": "float64",
    },
    "queues": {
        "queue": "str", "kind": "str", "arrivals": "int64", "departures": "int64",
        "early_drops": "int64", "overflow_drops": "int64", "marks": "int64",
        "mean_length_pkts": "float64", "max_length_pkts": "int64",
        "mean_sojourn_s": "float64",
    },
    "links": {
        "link": "str", "rate_bps": "int64", "delay_s": "float64", "packets_sent": "int64",
        "bytes_sent": "int64", "utilization": "float64",
    },
    "timeseries": {"time_s": "float64", "entity": "str", "metric": "str", "value": "float64"},
}


def _frame(table: str, columns: Mapping[str, list]) -> pd.DataFrame:
    """A DataFrame from `{column: list}`; an empty table still gets its columns."""
    if columns and len(next(iter(columns.values()))) > 0:
        return pd.DataFrame(dict(columns))
    names = list(columns) if columns else list(SCHEMAS[table])
    schema = SCHEMAS[table]
    return pd.DataFrame(
        {n: pd.Series([], dtype=_empty_dtype(schema.get(n, "float64"))) for n in names}
    )


def _empty_dtype(kind: str) -> str:
    return "object" if kind == "str" else kind


@dataclass
class Results:
    """Everything one run produced.

    Attributes:
        flows, queues, links, timeseries: the result tables (see `SCHEMAS`).
        summary: scenario echo and run facts (a dict, from ``summary.json``).
        scenario_text: the scenario that produced the results, when known.
    """

    flows: pd.DataFrame
    queues: pd.DataFrame
    links: pd.DataFrame
    timeseries: pd.DataFrame
    summary: Dict[str, Any] = field(default_factory=dict)
    scenario_text: Optional[str] = None

    @classmethod
    def from_core(cls, raw: Mapping[str, Any], scenario_text: Optional[str] = None) -> "Results":
        """Builds Results from the dict returned by `tcpsim._core.run_toml`."""
        tables = {t: _frame(t, raw.get(t) or {}) for t in TABLES}
        summary = raw.get("summary") or "{}"
        if isinstance(summary, str):
            summary = json.loads(summary)
        return cls(summary=dict(summary), scenario_text=scenario_text, **tables)

    # ------------------------------------------------------------------ queries

    def metrics(self) -> list:
        """The metric names present in the time series."""
        return sorted(self.timeseries["metric"].unique().tolist()) if len(self.timeseries) else []

    def series(self, metric: str, entities: Optional[Iterable[str]] = None) -> pd.DataFrame:
        """One metric of the time series in wide form: index ``time_s``, one column per
        entity (flow name or queue ``"a->b"``). Empty if the metric was not sampled."""
        ts = self.timeseries
        sel = ts[ts["metric"] == metric]
        if entities is not None:
            wanted = list(entities)
            sel = sel[sel["entity"].isin(wanted)]
        if sel.empty:
            return pd.DataFrame(index=pd.Index([], name="time_s", dtype="float64"))
        wide = sel.pivot_table(index="time_s", columns="entity", values="value", aggfunc="last")
        wide.columns.name = None
        if entities is not None:
            wide = wide[[e for e in wanted if e in wide.columns]]
        return wide

    # ------------------------------------------------------------------ storage

    def save(self, directory: PathLike, csv: bool = False) -> Path:
        """Writes the results to `directory` (created if needed) and returns its path.

        Each table becomes ``<table>.parquet`` (and ``<table>.csv`` with ``csv=True``);
        the summary becomes ``summary.json``. Every file is replaced atomically.
        """
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        for name in TABLES:
            df = getattr(self, name)
            _atomic_write(out / f"{name}.parquet", lambda p, df=df: df.to_parquet(p, index=False))
            if csv:
                _atomic_write(out / f"{name}.csv", lambda p, df=df: df.to_csv(p, index=False))
        text = json.dumps(self.summary, indent=2, sort_keys=True, default=str) + "\n"
        _atomic_write(out / "summary.json", lambda p: p.write_text(text, encoding="utf-8"))
        if self.scenario_text is not None:
            scenario = self.scenario_text
            _atomic_write(out / "scenario.toml", lambda p: p.write_text(scenario, encoding="utf-8"))
        return out

    def __repr__(self) -> str:
        return (
            f"Results(flows={len(self.flows)} rows, queues={len(self.queues)} rows, "
            f"links={len(self.links)} rows, timeseries={len(self.timeseries)} rows)"
        )


def load_results(directory: PathLike) -> Results:
    """Reads a results directory written by `Results.save` (or CSVs as `tcpsim-run
    --csv` writes them: each table is read from Parquet if present, else from CSV)."""
    d = Path(directory)
    if not d.is_dir():
        raise FileNotFoundError(f"no results directory: {d}")
    tables = {}
    for name in TABLES:
        parquet, csv = d / f"{name}.parquet", d / f"{name}.csv"
        if parquet.exists():
            tables[name] = pd.read_parquet(parquet)
        elif csv.exists():
            tables[name] = pd.read_csv(csv)
        else:
            raise FileNotFoundError(f"{d}: neither {parquet.name} nor {csv.name} found")
    summary_path = d / "summary.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.exists() else {}
    scenario_path = d / "scenario.toml"
    scenario = scenario_path.read_text(encoding="utf-8") if scenario_path.exists() else None
    return Results(summary=summary, scenario_text=scenario, **tables)


def _atomic_write(path: Path, write: Callable[[Path], Any]) -> None:
    """Calls `write(tmp)` for a temporary file beside `path`, then renames it over `path`."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass
        raise

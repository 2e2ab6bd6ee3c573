"""Run results as pandas DataFrames, stored as Parquet (plus JSON summary, CSV on request).

A results directory holds::

    flows.parquet        one row per flow
    queues.parquet       one row per queue (one per link direction, named "a->b")
    links.parquet        one row per link direction
    timeseries.parquet   long format: time_s, entity, metric, value
    summary.json         scenario echo and run facts
    scenario.toml        the scenario text that produced them (when known)
    *.csv                the same tables as CSV, when asked for

A save is atomic as a whole: every file is written into a temporary directory beside
the target, which then takes the target's place in one rename (Linux: ``renameat2``
with ``RENAME_EXCHANGE``; elsewhere two renames, undone by the next `load_results` or
save if interrupted between them). An interrupted save therefore leaves the old results
or the new ones, never a mix. Files in the directory that a save does not write (plots,
trace files, notes) are kept.

Every file carries the run's id (``run_uuid``, a random UUID given to each run when it
finishes): ``summary.json`` holds it with the SHA-256 of every other file, and each
Parquet table holds it in its metadata (key ``tcpsim.run_uuid``). `load_results` refuses
a directory whose files come from different runs (`MixedResultsError`).
"""

from __future__ import annotations

import csv as csvmod
import ctypes
import errno
import hashlib
import io
import json
import os
import shutil
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ._core import run_toml_to_parquet

if TYPE_CHECKING:
    import pandas as pd

# pandas and NumPy are imported inside the functions that use them, not here: `import
# tcpsim` and the command line's parser load this module, and pandas alone takes about
# half a second to import (see docs/performance.md, "Traces and the Python layer").

PathLike = Union[str, "os.PathLike[str]"]

#: Key of the run's id in summary.json and in each Parquet table's metadata.
RUN_UUID = "run_uuid"
_PARQUET_KEY = b"tcpsim.run_uuid"
#: summary.json key listing ``{file name: sha256}`` of the other files of the run.
_FILES_KEY = "files_sha256"


class MixedResultsError(ValueError):
    """A results directory holds files of different runs (or a file changed after the
    save), so its tables cannot be trusted together."""

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
        "bytes_sent": "int64", "error_drops": "int64", "down_drops": "int64",
        "utilization": "float64",
    },
    "timeseries": {"time_s": "float64", "entity": "str", "metric": "str", "value": "float64"},
}


#: Columns a table has in some runs only, with their types: the flows table's ``group``
#: (after ``to``) when some flow of the scenario has ``group = "..."``, empty for the
#: flows without one.
OPTIONAL_COLUMNS: Dict[str, Dict[str, str]] = {"flows": {"group": "str"}}


#: The summary the core gives of each value a flow's window control records for
#: measurement (`CongestionControl::recorded`, e.g. Reno + γ's ``gamma``): flows-table
#: columns ``NAME_count``, ``NAME_mean``, ``NAME_min`` and ``NAME_max`` over the
#: measurement window, beyond `SCHEMAS`, present when a flow of the run records NAME and
#: NaN for the flows that do not.
RECORDED_STATISTICS = ("count", "mean", "min", "max")


def recorded_values(flows: pd.DataFrame) -> List[str]:
    """The names of the values the flows' models recorded (see `RECORDED_STATISTICS`), in
    the table's order: ``["gamma", "gamma_min_rtt", "gamma_max_rtt"]`` for a run with a Reno + γ flow."""
    known = SCHEMAS["flows"]
    names: List[str] = []
    for column in flows.columns:
        name, _, statistic = str(column).rpartition("_")
        if (column not in known and statistic == RECORDED_STATISTICS[0] and name not in names
                and all(f"{name}_{s}" in flows.columns for s in RECORDED_STATISTICS)):
            names.append(name)
    return names


def _frame(table: str, columns: Mapping[str, list]) -> pd.DataFrame:
    """A DataFrame from `{column: list}`; an empty table still gets its columns.

    Each list becomes a NumPy array of its schema's type first: pandas infers the type of
    a Python list element by element, which took 0.8 s of a 100 000-flow run's 0.9 s here
    (400 000 queues and links); typed arrays take a third of that."""
    import pandas as pd

    if columns and len(next(iter(columns.values()))) > 0:
        schema = {**SCHEMAS[table], **OPTIONAL_COLUMNS.get(table, {})}
        return pd.DataFrame({name: _column(values, schema.get(name)) for name, values in columns.items()})
    names = list(columns) if columns else list(SCHEMAS[table])
    schema = SCHEMAS[table]
    return pd.DataFrame(
        {n: pd.Series([], dtype=_empty_dtype(schema.get(n, "float64"))) for n in names}
    )


def _column(values: Any, kind: Optional[str]) -> Any:
    """`values` as an array of the schema's `kind` (str: Python objects, which pandas
    stores as its string type); a column the schema does not know is left to pandas."""
    if kind is None or not isinstance(values, list):
        return values
    import numpy as np

    try:
        return np.array(values, dtype=object if kind == "str" else kind)
    except (TypeError, ValueError):  # e.g. a missing value in an integer column
        return values


def _empty_dtype(kind: str) -> str:
    return "object" if kind == "str" else kind


class Results:
    """Everything one run produced.

    Attributes:
        flows, queues, links, timeseries: the result tables (see `SCHEMAS`).
        summary: scenario echo and run facts (a dict, from ``summary.json``).
        scenario_text: the scenario that produced the results, when known.

    Results of a run (`from_core`) hold the core's columns and build each table's
    DataFrame on first access: a sweep that only saves a run and computes its metrics
    (`columns`) never builds one, and writes the Parquet files from the columns directly
    (see docs/performance.md, "Python start and sweeps").
    """

    def __init__(self, flows: Optional[pd.DataFrame] = None, queues: Optional[pd.DataFrame] = None,
                 links: Optional[pd.DataFrame] = None, timeseries: Optional[pd.DataFrame] = None,
                 summary: Optional[Dict[str, Any]] = None, scenario_text: Optional[str] = None):
        given = {"flows": flows, "queues": queues, "links": links, "timeseries": timeseries}
        #: Tables as DataFrames, built or given.
        self._frames: Dict[str, pd.DataFrame] = {t: df for t, df in given.items() if df is not None}
        #: Tables still as the core handed them over: ``{column: list}``.
        self._core_columns: Dict[str, Mapping[str, list]] = {
            t: {} for t in TABLES if t not in self._frames}
        self.summary: Dict[str, Any] = summary if summary is not None else {}
        self.scenario_text = scenario_text

    @classmethod
    def from_core(cls, raw: Mapping[str, Any], scenario_text: Optional[str] = None) -> "Results":
        """Builds Results from the dict returned by `tcpsim._core.run_toml`."""
        summary = raw.get("summary") or "{}"
        if isinstance(summary, str):
            summary = json.loads(summary)
        summary = dict(summary)
        summary.setdefault(RUN_UUID, uuid.uuid4().hex)
        results = cls(summary=summary, scenario_text=scenario_text)
        results._core_columns = {t: raw.get(t) or {} for t in TABLES}
        return results

    def _table(self, name: str) -> pd.DataFrame:
        if name not in self._frames:
            self._frames[name] = _frame(name, self._core_columns.pop(name))
        return self._frames[name]

    def _set_table(self, name: str, df: pd.DataFrame) -> None:
        self._core_columns.pop(name, None)
        self._frames[name] = df

    flows = property(lambda self: self._table("flows"), lambda self, df: self._set_table("flows", df),
                     doc="One row per flow.")
    queues = property(lambda self: self._table("queues"), lambda self, df: self._set_table("queues", df),
                      doc="One row per queue (one per link direction, named \"a->b\").")
    links = property(lambda self: self._table("links"), lambda self, df: self._set_table("links", df),
                     doc="One row per link direction.")
    timeseries = property(lambda self: self._table("timeseries"),
                          lambda self, df: self._set_table("timeseries", df),
                          doc="Long format: time_s, entity, metric, value.")

    def columns(self, table: str) -> Mapping[str, Sequence[Any]]:
        """The columns of `table` as ``{name: sequence}`` without building its DataFrame
        when it has not been built: the core's lists, or the DataFrame's columns as
        NumPy arrays."""
        if table in self._core_columns:
            return self._core_columns[table]
        df = self._frames[table]
        return {str(c): df[c].to_numpy() for c in df.columns}

    @property
    def run_uuid(self) -> Optional[str]:
        """The run's id (a UUID in hex), carried by every file `save` writes."""
        value = self.summary.get(RUN_UUID)
        return str(value) if value is not None else None

    # ------------------------------------------------------------------ queries

    def metrics(self) -> list:
        """The metric names present in the time series."""
        return sorted(self.timeseries["metric"].unique().tolist()) if len(self.timeseries) else []

    @property
    def groups(self) -> List[str]:
        """The run's flow groups (the flows' ``group``), in order of first appearance;
        empty when no flow has one."""
        if "group" not in self.flows.columns:
            return []
        import pandas as pd

        return [g for g in pd.unique(self.flows["group"]) if isinstance(g, str) and g]

    def group_series(self, metric: str = "delivered_bytes") -> pd.DataFrame:
        """A metric of the flow groups' time series in wide form, one column per sampled
        group: ``delivered_bytes`` (in-order payload of the group's flows per interval)
        or ``received_bytes`` (wire bytes of every data packet that reached the group's
        receivers, duplicates included). Empty without monitored groups."""
        groups = self.groups
        if not groups:
            import pandas as pd

            return pd.DataFrame(index=pd.Index([], name="time_s", dtype="float64"))
        return self.series(metric, groups)

    def series(self, metric: str, entities: Optional[Iterable[str]] = None) -> pd.DataFrame:
        """One metric of the time series in wide form: index ``time_s``, one column per
        entity (flow name, flow group name or queue ``"a->b"``). Empty if the metric
        was not sampled. ``delivered_bytes`` is sampled for flows and groups alike:
        pass `entities` (or use `group_series`) to keep them apart."""
        ts = self.timeseries
        sel = ts[ts["metric"] == metric]
        if entities is not None:
            wanted = list(entities)
            sel = sel[sel["entity"].isin(wanted)]
        if sel.empty:
            import pandas as pd

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
        the summary becomes ``summary.json``, the scenario ``scenario.toml``. The save is
        atomic as a whole (see the module docstring): the files are written into a
        temporary directory beside `directory`, which then replaces it; other files
        already in `directory` (plots, traces) are carried over. Results without a run
        id get one here.
        """
        out = Path(directory)
        _recover(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists() and not out.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(out))
        tmp = out.parent / f".{out.name}{_TMP_TAG}{os.getpid()}-{uuid.uuid4().hex[:8]}"
        tmp.mkdir()
        try:
            self._write_files(tmp, csv=csv)
            if out.is_dir():
                _carry_over(out, tmp)
                _swap(tmp, out)
            else:
                os.rename(tmp, out)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return out

    def _write_files(self, directory: Path, csv: bool = False) -> None:
        """Writes every file of the results into the existing `directory` (not
        atomically: `save` and the sweeps' run directories make that atomic)."""
        if self.run_uuid is None:
            self.summary[RUN_UUID] = uuid.uuid4().hex
        rid = self.run_uuid
        hashes: Dict[str, str] = {}
        for name in TABLES:
            table = _write_parquet(self._arrow(name), directory / f"{name}.parquet", rid)
            if csv:
                path = directory / f"{name}.csv"
                _write_csv(table, path)
                hashes[path.name] = _sha256(path)
        _write_scenario_and_summary(directory, self.summary, self.scenario_text, hashes)

    def _arrow(self, name: str):
        """The table `name` as an Arrow table, straight from the core's columns when its
        DataFrame was not built (the same table as through pandas, a fraction of the time:
        see `_arrow_from_columns`)."""
        columns = self._core_columns.get(name)
        if columns and len(next(iter(columns.values()))) > 0:
            return _arrow_from_columns(name, columns)
        return _arrow_from_frame(self._table(name))

    def _repr_html_(self) -> str:
        """A notebook view: the run's facts, the flows and the busiest queues."""
        return _html(self)

    def __repr__(self) -> str:
        return (
            f"Results(flows={len(self.flows)} rows, queues={len(self.queues)} rows, "
            f"links={len(self.links)} rows, timeseries={len(self.timeseries)} rows)"
        )


def _write_scenario_and_summary(directory: Path, summary: Mapping[str, Any],
                                scenario_text: Optional[str], hashes: Dict[str, str]) -> None:
    """Writes scenario.toml (when the text is known) and summary.json, which lists the
    SHA-256 of the CSV files in `hashes` and of scenario.toml."""
    if scenario_text is not None:
        data = scenario_text.encode("utf-8")
        with open(directory / "scenario.toml", "wb") as f:
            f.write(data)
        hashes["scenario.toml"] = hashlib.sha256(data).hexdigest()  # the file's bytes
    summary = dict(summary)
    summary[_FILES_KEY] = hashes
    text = json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n"
    (directory / "summary.json").write_text(text, encoding="utf-8")


def run_to_files(text: str, file_name: str, directory: PathLike) -> Dict[str, Any]:
    """Runs scenario `text` and writes its results into the existing `directory`, the
    files `Results.save` would write (without CSV), without building DataFrames: the core
    writes the tables with rows as Parquet itself (``tcpsim._core.run_toml_to_parquet``;
    bench/python_overhead.py times the calls to it), and this writes the tables without rows (from pandas, as `save` does: their string
    columns have no type), scenario.toml and summary.json. Not atomic, like
    `Results._write_files`.

    Returns what the core returned (``{"written": [...], "flows": {column: list},
    "queues": ..., "links": ..., "summary": json_text}``) with ``"summary"`` the run's
    summary as a dict, holding its new ``run_uuid``."""
    out = Path(directory)
    rid = uuid.uuid4().hex
    raw = dict(run_toml_to_parquet(text, file_name, str(out), rid, None))
    for name in TABLES:
        if name not in raw["written"]:
            _write_parquet(_arrow_from_frame(_frame(name, raw.get(name) or {})), out / f"{name}.parquet", rid)
    summary = dict(json.loads(raw["summary"] or "{}"))
    summary[RUN_UUID] = rid
    _write_scenario_and_summary(out, summary, text, {})
    raw["summary"] = summary
    return raw


def load_results(directory: PathLike) -> Results:
    """Reads a results directory written by `Results.save` (or CSVs as `tcpsim-run
    --csv` writes them: each table is read from Parquet if present, else from CSV).

    Raises `MixedResultsError` (a ValueError) when the files come from different runs:
    a Parquet table or summary.json with another run id, or a CSV or scenario.toml whose
    checksum differs from the one summary.json recorded. Directories without run ids
    (written by ``tcpsim-run`` or an older tcpsim) are read as they are."""
    d = Path(directory)
    _recover(d)
    if not d.is_dir():
        raise FileNotFoundError(f"no results directory: {d}")
    summary_path = d / "summary.json"
    summary: Dict[str, Any] = {}
    if summary_path.exists():
        try:
            summary = json.loads(summary_path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise ValueError(f"{summary_path}: not a JSON summary ({e})") from None
        if not isinstance(summary, dict):
            raise ValueError(f"{summary_path}: not a JSON object")
    hashes = summary.pop(_FILES_KEY, None)
    expected = summary.get(RUN_UUID)
    origin = "summary.json"
    found: Dict[str, Optional[str]] = {}
    tables = {}
    for name in TABLES:
        parquet, csv = d / f"{name}.parquet", d / f"{name}.csv"
        if parquet.exists():
            tables[name], found[parquet.name] = _read_parquet(parquet)
        elif csv.exists():
            import pandas as pd

            tables[name] = pd.read_csv(csv)
        else:
            raise FileNotFoundError(f"{d}: neither {parquet.name} nor {csv.name} found")
    if expected is None:
        ids = {v for v in found.values() if v is not None}
        if ids:  # tables with ids but no summary (or one without an id)
            expected, origin = next(iter(ids)), next(k for k, v in found.items() if v)
    if expected is not None:
        for fname, rid in found.items():
            if rid != expected:
                raise MixedResultsError(
                    f"{d}: files from different runs: {fname} is "
                    f"{'from run ' + rid if rid else 'without a run id'}, {origin} from run "
                    f"{expected}; the directory was written by more than one save (save the "
                    "results again, or run the scenario again)")
        if isinstance(hashes, dict):
            for fname, digest in hashes.items():
                path = d / str(fname)
                if path.exists() and _sha256(path) != digest:
                    raise MixedResultsError(
                        f"{d}: files from different runs: {fname} is not the file saved with "
                        f"run {expected} (its checksum differs); save the results again")
            for name in TABLES:
                path = d / f"{name}.csv"
                if path.exists() and path.name not in hashes:
                    raise MixedResultsError(
                        f"{d}: files from different runs: {path.name} was not written with "
                        f"run {expected}; remove it or save the results again")
    scenario_path = d / "scenario.toml"
    scenario = scenario_path.read_text(encoding="utf-8") if scenario_path.exists() else None
    return Results(summary=summary, scenario_text=scenario, **tables)


# ---------------------------------------------------------------------------- files

#: Marks the temporary directories of a save (``.<name>.tmp-<pid>-<hex>``) and the
#: old directory during a two-rename swap (``.<name>.old-<pid>-<hex>``).
_TMP_TAG = ".tmp-"
_OLD_TAG = ".old-"


def _arrow_from_frame(df: pd.DataFrame):
    """`df` as an Arrow table with pandas' metadata (how pandas reads it back)."""
    import pyarrow as pa

    return pa.Table.from_pandas(df, preserve_index=False, nthreads=1)


def _arrow_from_columns(name: str, columns: Mapping[str, list]):
    """The core's columns of table `name` (``{column: list}``, at least one row) as the
    Arrow table `_arrow_from_frame` makes of their DataFrame: the same Arrow types (str
    as large_string, which is how pandas' str dtype goes to Arrow) and the same pandas
    metadata, so pandas reads the file back to the same DataFrame. A column's type comes
    from `SCHEMAS` or, for the columns only some runs have, from its values (the core's
    columns are all floats, all ints or all strs)."""
    import pyarrow as pa

    schema = {**SCHEMAS[name], **OPTIONAL_COLUMNS.get(name, {})}
    arrays = {}
    for column, values in columns.items():
        kind = schema.get(column) or _kind_of(values[0])
        # from_pandas: NaN becomes null, as `pa.Table.from_pandas` stores it.
        arrays[column] = pa.array(values, type=_ARROW_TYPES[kind](pa), from_pandas=True)
    table = pa.table(arrays)
    return table.replace_schema_metadata({b"pandas": _pandas_metadata(table)})


#: Arrow type of each `SCHEMAS` kind, given the pyarrow module (imported when needed).
_ARROW_TYPES = {"str": lambda pa: pa.large_string(), "int64": lambda pa: pa.int64(),
                "float64": lambda pa: pa.float64()}


def _kind_of(value: Any) -> str:
    if isinstance(value, str):
        return "str"
    return "int64" if isinstance(value, int) else "float64"


_PANDAS_METADATA: Dict[Any, bytes] = {}


def _pandas_metadata(table) -> bytes:
    """The ``pandas`` schema metadata that `pa.Table.from_pandas` writes for a table with
    `table`'s columns and types (it depends on them only: without an index, not on the
    rows), made once per schema from the DataFrame of its first row."""
    key = tuple((f.name, str(f.type)) for f in table.schema)
    if key not in _PANDAS_METADATA:
        first = _arrow_from_frame(table.slice(0, 1).to_pandas())
        if not first.schema.remove_metadata().equals(table.schema.remove_metadata()):
            raise AssertionError(f"tcpsim: the core's columns became {table.schema}, "
                                 f"their DataFrame would be {first.schema}")
        _PANDAS_METADATA[key] = first.schema.metadata[b"pandas"]
    return _PANDAS_METADATA[key]


def _write_parquet(table, path: Path, rid: str):
    """Writes the Arrow `table` as Parquet tagged with the run id; returns the table
    written. Through a buffer and one Python write: Arrow's own file output took about
    3 ms more per file than the table's encoding on the 2-core test machine."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    meta = dict(table.schema.metadata or {})
    meta[_PARQUET_KEY] = rid.encode()
    table = table.replace_schema_metadata(meta)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    with open(path, "wb") as f:
        f.write(sink.getvalue())
    return table


def _write_csv(table, path: Path) -> None:
    """Writes an Arrow table as CSV much as `tcpsim-run --csv` writes it (a value in
    quotes only when it holds a comma, quote or line break; floats in shortest form: 0 and
    1e-12, not 0.0 and 1e-12). Arrow's writer takes a seventh of pandas' time (0.18 s
    against 1.3 s for 400 000 links)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    # Arrow quotes either every string ("needed") or none: none unless one must be.
    special = r'[,"\r\n]'
    must_quote = any(
        pc.any(pc.match_substring_regex(column, special)).as_py()
        for column in table.columns if pa.types.is_string(column.type) or pa.types.is_large_string(column.type)
    ) or any(any(c in name for c in ',"\r\n') for name in table.column_names)
    style = "needed" if must_quote else "none"
    # Arrow quotes the header line always: write it as the csv module would.
    header = io.StringIO()
    csvmod.writer(header, lineterminator="\n").writerow(table.column_names)
    with open(path, "wb") as out:
        out.write(header.getvalue().encode("utf-8"))
        pacsv.write_csv(table, out, write_options=pacsv.WriteOptions(
            include_header=False, quoting_style=style))


def _read_parquet(path: Path):
    """(DataFrame, run id or None) of a Parquet table."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    rid = (table.schema.metadata or {}).get(_PARQUET_KEY)
    return table.to_pandas(), (rid.decode() if rid is not None else None)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _result_names() -> set:
    names = {f"{t}.parquet" for t in TABLES} | {f"{t}.csv" for t in TABLES}
    return names | {"summary.json", "scenario.toml"}


def _carry_over(old: Path, new: Path) -> None:
    """Links (or copies) into `new` what `old` holds besides result files: plots, trace
    directories, notes. The old result files are not carried: they belong to the old
    run."""
    keep = _result_names()
    for entry in old.iterdir():
        if entry.name in keep or (new / entry.name).exists():
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, new / entry.name, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(entry, new / entry.name)


def _link_or_copy(src, dst) -> None:
    try:
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        else:
            os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)


def _exchange(a: Path, b: Path) -> bool:
    """Swaps two paths in one step (Linux renameat2 RENAME_EXCHANGE); False where the
    system or file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _swap(new: Path, target: Path) -> None:
    """Puts directory `new` in the place of directory `target` and removes the old one."""
    if _exchange(new, target):
        shutil.rmtree(new, ignore_errors=True)  # now holds the old results
        return
    old = target.parent / f".{target.name}{_OLD_TAG}{os.getpid()}-{uuid.uuid4().hex[:8]}"
    os.rename(target, old)
    # An interruption here leaves `target` missing and `old` beside it: `_recover`
    # (called by every load and save) renames it back.
    os.rename(new, target)
    shutil.rmtree(old, ignore_errors=True)


def _recover(target: Path) -> None:
    """Undoes a save interrupted between the two renames of `_swap`: `target` missing
    and its old copy beside it. Stale temporary directories of interrupted saves are
    left alone (another process may be writing them); sweeps remove theirs."""
    if target.exists() or not target.parent.is_dir():
        return
    prefix = f".{target.name}{_OLD_TAG}"
    olds = sorted((p for p in target.parent.iterdir() if p.name.startswith(prefix)),
                  key=lambda p: p.stat().st_mtime)
    if olds:
        try:
            os.rename(olds[-1], target)
        except OSError:
            pass


def _html(results: "Results") -> str:
    import html

    s = results.summary
    facts = []
    if s.get("aggregate_goodput_bps") is not None:
        facts.append(f"<b>aggregate goodput</b> {float(s['aggregate_goodput_bps']) / 1e6:.3f} Mbit/s")
    if s.get("measure_from_s"):
        facts.append(f"<b>measured from</b> {html.escape(str(s['measure_from_s']))} s")
    for key, label in (("duration_s", "simulated s"), ("seed", "seed"), ("events", "events"),
                       ("wall_seconds", "wall s"), (RUN_UUID, "run")):
        if key in s:
            facts.append(f"<b>{label}</b> {html.escape(str(s[key]))}")
    parts = [f"<div><p>tcpsim Results: {len(results.flows)} flows, {len(results.queues)} "
             f"queues, {len(results.timeseries)} time-series samples<br>{' · '.join(facts)}</p>"]
    cols = [c for c in ("name", "type", "recovery", "cc", "goodput_bps", "retransmits",
                        "timeouts", "rtt_mean_s") if c in results.flows]
    if len(results.flows):
        parts.append("<p><b>flows</b></p>" + results.flows[cols].head(50).to_html(index=False))
    if len(results.queues):
        q = results.queues.sort_values("arrivals", ascending=False).head(10)
        parts.append("<p><b>queues</b> (busiest 10)</p>" + q.to_html(index=False))
    parts.append("</div>")
    return "".join(parts)


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

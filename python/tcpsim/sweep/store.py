"""Sweep output directories: run directories installed atomically with their ``run.json``
completeness marker, the output directory lock, resume clean-up, ``sweep.json``, the
sweep table (``sweep.parquet``) and `load_sweep`."""

from __future__ import annotations

import datetime as _dt
import errno
import json
import os
import re
import shutil
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional

from ..results import PathLike, Results, _atomic_write, load_results
from ..keypaths import _toml_value
from ..overrides import record
from .metrics import METRICS, METRICS_VERSION, run_metrics
from .spec import Run, Sweep, SweepError

#: Version of the run layout and of `run_metrics`; part of every run.json.
LAYOUT_VERSION = 1

MARKER = "run.json"
_TMP_PREFIX = ".tmp-"
_RUN_ID_RE = re.compile(r"^[0-9a-f]{16}$")


# ============================================================================ run storage


def _read_marker(run_dir: Path) -> Optional[Dict[str, Any]]:
    """The run's marker if the run is complete (marker present, every listed file there
    with its recorded size), else None."""
    try:
        marker = json.loads((run_dir / MARKER).read_text(encoding="utf-8"))
        if marker.get("run_id") != run_dir.name:
            return None
        files = marker.get("files")
        if not isinstance(files, dict) or not files:
            return None
        for name, size in files.items():
            if (run_dir / name).stat().st_size != size:
                return None
        return marker
    except (OSError, ValueError, AttributeError):
        return None


def is_finished(run_dir: PathLike) -> bool:
    """Whether `run_dir` holds a complete run (see the `tcpsim.sweep` docstring)."""
    return _read_marker(Path(run_dir)) is not None


def _install_run(runs_dir: Path, rid: str, write_files: Callable[[Path], Dict[str, Any]]) -> bool:
    """Writes a run into a temporary directory (`write_files(directory)` writes the files
    and returns the run's marker; then run.json, the marker listing them) and renames it
    to ``runs_dir/rid``. Returns False if a complete run was already there (this copy is
    then discarded)."""
    runs_dir.mkdir(parents=True, exist_ok=True)
    tmp = runs_dir / f"{_TMP_PREFIX}{rid}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    tmp.mkdir()
    try:
        marker = write_files(tmp)
        with os.scandir(tmp) as entries:
            sizes = {e.name: e.stat().st_size for e in sorted(entries, key=lambda e: e.name) if e.is_file()}
        marker = dict(marker, files=sizes)
        (tmp / MARKER).write_text(json.dumps(marker, indent=2, sort_keys=True, default=str) + "\n",
                                  encoding="utf-8")
        final = runs_dir / rid
        try:
            os.rename(tmp, final)
            return True
        except OSError:
            if _read_marker(final) is not None:
                shutil.rmtree(tmp, ignore_errors=True)
                return False
            # An incomplete directory in the way (not written by a sweep): replace it.
            shutil.rmtree(final, ignore_errors=True)
            os.rename(tmp, final)
            return True
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _write_payload(files: Mapping[str, bytes], marker: Dict[str, Any]) -> Callable[[Path], Dict[str, Any]]:
    def write(d: Path) -> Dict[str, Any]:
        for name, data in files.items():
            (d / Path(name).name).write_bytes(data)
        return marker

    return write


def _hostname() -> str:
    import socket

    try:
        return socket.gethostname()
    except OSError:  # pragma: no cover
        return ""


def _iso(t: float) -> str:
    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).isoformat(timespec="milliseconds")


class _Lock:
    """An exclusive lock on ``out_dir/.sweep.lock`` (the `filelock` package: flock on
    POSIX, msvcrt on Windows), so two sweeps never write to one directory at once.
    Taken without waiting: a second sweep fails at once with `SweepError`."""

    def __init__(self, out: Path):
        self.path = out / ".sweep.lock"
        self._lock = None

    @property
    def fd(self) -> Optional[int]:
        """The lock file's descriptor while held (forked pool workers close their copy)."""
        if self._lock is None:
            return None
        return getattr(getattr(self._lock, "_context", None), "lock_file_fd", None)

    def __enter__(self) -> "_Lock":
        import filelock

        lock = filelock.FileLock(str(self.path), timeout=0, thread_local=False)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise SweepError(
                f"another sweep is writing to {self.path.parent} (it holds {self.path.name})"
            ) from None
        except OSError as e:
            if e.errno in (errno.ENOLCK, errno.ENOSYS, errno.EOPNOTSUPP):
                return self  # a file system without locks (some network mounts): unlocked
            raise
        self._lock = lock
        return self

    def __exit__(self, *exc) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None


# ============================================================================ the output directory


def default_out(sweep: Sweep) -> Path:
    """Where a sweep writes without an explicit directory: its spec's ``out``, else
    ``results/sweeps/<name>``."""
    return sweep.out if sweep.out is not None else Path("results") / "sweeps" / sweep.name


def _clean(runs_dir: Path, planned: set) -> None:
    """Removes what an interrupted sweep left behind: temporary run directories
    (``runs/.tmp-*``), half-written files of the atomic writes (``.*.tmp`` in the output
    and runs directories: sweep.parquet, sweep.json) and incomplete run directories of
    planned runs. Called with the lock held, so no other sweep is writing them."""
    for d in (runs_dir.parent, runs_dir):
        for entry in d.iterdir():
            if entry.name.startswith(".") and entry.name.endswith(".tmp") and entry.is_file():
                entry.unlink(missing_ok=True)
    for entry in runs_dir.iterdir():
        if entry.name.startswith(_TMP_PREFIX):
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
        elif entry.name in planned and entry.is_dir() and _read_marker(entry) is None:
            shutil.rmtree(entry, ignore_errors=True)
        elif entry.name in planned and not entry.is_dir():
            entry.unlink()


def _jsonable(v: Any) -> Any:
    return json.loads(json.dumps(v, default=str))


def _write_json(path: Path, data: Any) -> None:
    text = json.dumps(data, indent=2, default=str) + "\n"
    _atomic_write(path, lambda p: p.write_text(text, encoding="utf-8"))


def _sweep_record(sweep: Sweep, runs: List[Run]) -> Dict[str, Any]:
    from .._core import __build__, __version__

    return {
        "name": sweep.name,
        "source": sweep.source,
        "base": sweep.base_name,
        "grid": _jsonable(sweep.grid),
        "seeds": sweep.seeds,
        "overrides": _jsonable(record(sweep.overrides)),
        "groups": sweep.groups.record() if sweep.groups is not None else None,
        "tcpsim_version": __version__,
        "tcpsim_build": __build__,
        "runs": [{"run_id": r.run_id, "params": _jsonable(r.params)} for r in runs],
    }


def _param_column(values: List[Any]):
    """Parameter values as a Parquet-friendly column: kept if all of one scalar kind,
    else written as TOML text."""
    import numpy as np

    if not values:
        return values
    if all(isinstance(v, bool) for v in values):
        return np.array(values, dtype=bool)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        if all(-(2**63) <= v < 2**63 for v in values):
            return np.array(values, dtype="int64")
        return [str(v) for v in values]
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return [float(v) for v in values]
    if all(isinstance(v, str) for v in values):
        return values
    return [_toml_value(v) for v in values]


def _table(sweep: Sweep, runs: List[Run], runs_dir: Path, reused: set,
           metrics: Optional[Callable[[Results], Mapping[str, Any]]]):
    import pandas as pd

    rows, ids, extra_cols, group_cols = [], [], [], []
    params: Dict[str, List[Any]] = {c: [] for c in sweep.columns}
    for r in runs:
        d = runs_dir / r.run_id
        marker = _read_marker(d)
        if marker is None:
            continue
        m = marker.get("metrics") or {}
        if marker.get("metrics_version") != METRICS_VERSION:
            m = run_metrics(load_results(d))
        row = {k: m.get(k, float("nan")) for k in METRICS}
        if sweep.groups is not None:
            per_group = sweep.groups.run_metrics(d)
            group_cols += [k for k in per_group if k not in group_cols]
            row.update(per_group)
        if metrics is not None:
            custom = dict(metrics(load_results(d)))
            for k in custom:
                if k not in extra_cols:
                    extra_cols.append(k)
            row.update(custom)
        row["reused"] = r.run_id in reused
        rows.append(row)
        ids.append(r.run_id)
        for c in sweep.columns:
            params[c].append(r.params.get(c))
    index = pd.Index(ids, name="run_id")
    data: Dict[str, Any] = {c: _param_column(v) for c, v in params.items()}
    if sweep.groups is not None:
        group_cols = sweep.groups.order(group_cols)
    for k in list(METRICS) + group_cols + extra_cols + ["reused"]:
        data[k] = [row.get(k) for row in rows]
    df = pd.DataFrame(data, index=index)
    for k in list(METRICS) + group_cols:
        if k != "bottleneck":
            df[k] = pd.to_numeric(df[k], errors="coerce")
    df["reused"] = df["reused"].astype(bool)
    return df


def load_sweep(out_dir: PathLike):
    """The table of a finished sweep (``out_dir/sweep.parquet``). Each run's full
    results are in ``out_dir/runs/<run_id>`` (`tcpsim.load_results`)."""
    import pandas as pd

    path = Path(out_dir) / "sweep.parquet"
    if not path.exists():
        raise FileNotFoundError(f"no sweep table {path} (has the sweep finished?)")
    return pd.read_parquet(path)

"""Sweep executors: running one run (`_execute`), the local process pool (with retries
after a worker process dies), the Dask executor, and the progress bar."""

from __future__ import annotations

import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from .._core import __build__, __version__
from ..results import RUN_UUID, run_to_files
from .metrics import METRICS_VERSION, table_metrics
from .spec import SweepError
from .store import LAYOUT_VERSION, _hostname, _install_run, _iso, _write_payload

#: Seconds to wait for a Dask scheduler to answer, unless the environment variable
#: ``TCPSIM_CONNECT_TIMEOUT`` says otherwise (`default_connect_timeout`); a sweep's own
#: ``connect_timeout`` (``tcpsim sweep --connect-timeout``) overrides both.
DEFAULT_CONNECT_TIMEOUT = 30.0


def default_connect_timeout() -> float:
    """``TCPSIM_CONNECT_TIMEOUT`` (seconds) when set to a number, else
    `DEFAULT_CONNECT_TIMEOUT`."""
    try:
        return float(os.environ.get("TCPSIM_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT))
    except ValueError:  # a malformed variable keeps the default
        return DEFAULT_CONNECT_TIMEOUT


# ============================================================================ one run


def _execute(task: Dict[str, Any]) -> Dict[str, Any]:
    """Runs the task's scenario into the existing directory ``task["stage"]`` (its files:
    the Parquet tables, which the core writes itself, scenario.toml and summary.json) and
    returns the run's marker, with its metrics computed from the core's columns."""
    if task["version"] != __build__:
        raise RuntimeError(
            f"this worker has tcpsim {__build__} but the sweep was expanded with tcpsim "
            f"{task['version']}; install the same version everywhere"
        )
    started = time.time()
    raw = run_to_files(task["text"], task["name"], task["stage"])
    summary = raw["summary"]
    return {
        "run_id": task["run_id"],
        "run_uuid": summary[RUN_UUID],
        "sweep": task["sweep"],
        "params": task["params"],
        "tcpsim_version": __version__,
        "tcpsim_build": __build__,
        "layout_version": LAYOUT_VERSION,
        "metrics_version": METRICS_VERSION,
        "metrics": table_metrics(raw["flows"], raw["queues"], raw["links"], summary),
        "attempt": uuid.uuid4().hex,
        "host": _hostname(),
        "pid": os.getpid(),
        "started_at": _iso(started),
        "finished_at": _iso(time.time()),
    }


def _run_task_local(task: Dict[str, Any]) -> Dict[str, Any]:
    """Local executor task: runs the scenario and installs the run directory itself."""
    installed = _install_run(Path(task["runs_dir"]), task["run_id"],
                             lambda stage: _execute(dict(task, stage=str(stage))))
    return {"run_id": task["run_id"], "installed": installed}


def _run_task_remote(task: Dict[str, Any]) -> Dict[str, Any]:
    """Dask task: runs the scenario and returns the files of its results directory
    (``{name: bytes}``) and its marker; the client installs them."""
    with tempfile.TemporaryDirectory(prefix="tcpsim-run-") as tmp:
        marker = _execute(dict(task, stage=tmp))
        files = {p.name: p.read_bytes() for p in sorted(Path(tmp).iterdir()) if p.is_file()}
    return {"run_id": task["run_id"], "files": files, "marker": marker}


# ============================================================================ executors


def _worker_init(lock_fd: Optional[int]) -> None:  # pragma: no cover - runs in pool workers
    """Pool worker setup: Ctrl-C is the parent's business; a forked worker drops its copy
    of the output directory's lock (closing it, not unlocking, leaves the parent's)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if lock_fd is not None:
        try:
            os.close(lock_fd)
        except OSError:
            pass


def _mp_context():
    """fork on Linux (no re-import of the caller's script in the workers); the
    platform's default elsewhere (spawn on macOS and Windows)."""
    import multiprocessing

    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, ModuleNotFoundError) or "No module named 'tcpsim" in text:
        text += " (is tcpsim installed on the workers?)"
    return text


def _run_local(tasks: List[Dict[str, Any]], workers: int, done: Callable[[str], None],
               failed: Callable[[str, str], None], lock_fd: Optional[int] = None) -> None:
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            try:
                _run_task_local(task)
            except Exception as e:
                failed(task["run_id"], _describe(e))
            else:
                done(task["run_id"])
        return

    import concurrent.futures as cf
    from concurrent.futures.process import BrokenProcessPool

    pending = list(tasks)
    for _round in range(3):  # a crashed worker process breaks the pool: retry the rest
        if not pending:
            return
        broken: List[Dict[str, Any]] = []
        ctx = _mp_context()
        pool = cf.ProcessPoolExecutor(
            max_workers=min(workers, len(pending)),
            mp_context=ctx,
            initializer=_worker_init,
            initargs=(lock_fd if ctx.get_start_method() == "fork" else None,),
        )
        try:
            futures = {pool.submit(_run_task_local, t): t for t in pending}
            for fut in cf.as_completed(futures):
                task = futures[fut]
                try:
                    fut.result()
                except BrokenProcessPool:
                    broken.append(task)
                except Exception as e:
                    failed(task["run_id"], _describe(e))
                else:
                    done(task["run_id"])
        except BaseException:
            _kill_pool(pool)
            raise
        else:
            pool.shutdown(wait=True)
        pending = broken
    for task in pending:
        failed(task["run_id"], "the worker process running it died (3 attempts)")


def _kill_pool(pool) -> None:
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        try:
            p.terminate()
        except Exception:  # pragma: no cover
            pass
    for p in procs:
        try:
            p.join(5)
        except Exception:  # pragma: no cover
            pass


def _connect(distributed, scheduler: Optional[str], timeout: float):
    """A new Client of `scheduler` (a LocalCluster when None); SweepError if it cannot
    be reached within `timeout` seconds or the address is malformed."""
    try:
        if scheduler:
            return distributed.Client(scheduler, timeout=timeout, set_as_default=False)
        return distributed.Client(set_as_default=False)  # a LocalCluster
    except (OSError, TimeoutError, ValueError) as e:
        raise SweepError(f"cannot connect to the Dask scheduler {scheduler}: {e}") from None


def check_scheduler(scheduler: str, connect_timeout: float) -> None:
    """Connects to `scheduler` (waiting at most `connect_timeout` seconds) and
    disconnects: a sweep given a scheduler fails when it cannot reach it, even when every
    run is already finished and nothing is sent."""
    try:
        import distributed
    except ImportError:
        raise SweepError(
            "the Dask executor needs dask.distributed: pip install \"dask[distributed]\""
        ) from None
    client = _connect(distributed, scheduler, connect_timeout)
    try:
        client.close()
    except Exception:  # pragma: no cover - closing a connected client
        pass


def _run_dask(tasks: List[Dict[str, Any]], runs_dir: Path, client, scheduler: Optional[str],
              connect_timeout: float, workers: Optional[int], retries: int,
              done: Callable[[str], None], failed: Callable[[str, str], None]) -> None:
    import asyncio

    try:
        import distributed
    except ImportError:
        raise SweepError(
            "the Dask executor needs dask.distributed: pip install \"dask[distributed]\""
        ) from None
    own = None
    if client is None:
        own = client = _connect(distributed, scheduler, connect_timeout)
    futures = []
    try:
        if workers:
            client.wait_for_workers(workers, timeout=300)
        futures = [
            client.submit(_run_task_remote, t, key=f"tcpsim-run-{t['run_id']}", retries=retries)
            for t in tasks
        ]
        by_key = {f.key: t for f, t in zip(futures, tasks)}
        for fut in distributed.as_completed(futures, loop=client.loop):
            task = by_key[fut.key]
            try:
                payload = fut.result()
            except (Exception, asyncio.CancelledError) as e:  # KilledWorker, cancelled, raised
                failed(task["run_id"], _describe(e))
            else:
                try:
                    _install_run(runs_dir, task["run_id"],
                                 _write_payload(payload["files"], payload["marker"]))
                except OSError as e:
                    failed(task["run_id"], f"cannot write the run: {e}")
                else:
                    done(task["run_id"])
            fut.release()
    except BaseException:
        if futures:
            try:
                client.cancel(futures)
            except Exception:  # pragma: no cover
                pass
        raise
    finally:
        if own is not None:
            own.close()


class _Progress:
    """Runs done of a sweep: a tqdm bar (`progress` True), plain lines for logs
    (``"plain"``, see `tcpsim._progress`), or a callback ``progress(done, total)``."""

    def __init__(self, progress, total: int, initial: int, label: str):
        self.total, self.n = total, initial
        self.callback = progress if callable(progress) else None
        self.bar = None
        self.plain = None
        if progress is True:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, initial=initial, desc=label, unit="run",
                            file=sys.stderr, dynamic_ncols=True, leave=True)
        elif progress == "plain":
            from .._progress import PlainProgress

            self.plain = PlainProgress(label, total, "runs done", initial=initial)
        if self.callback:
            self.callback(self.n, self.total)

    def advance(self, failures: Mapping[str, str]) -> None:
        self.n += 1
        if self.bar is not None:
            if failures:
                self.bar.set_postfix(failed=len(failures), refresh=False)
            self.bar.update(1)
        if self.plain is not None:
            self.plain.update(self.n, f"{len(failures)} failed" if failures else "")
        if self.callback:
            self.callback(self.n, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        if self.plain is not None:
            self.plain.finish()

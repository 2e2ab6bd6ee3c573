"""Running scenarios from Python."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Tuple, Union

from ._core import ScenarioError, run_toml, validate_toml
from ._core import default_limits as core_default_limits
from .overrides import from_api as _overrides_from, overridden_text, record as _record
from .results import PathLike, Results

ScenarioLike = Union[str, "os.PathLike[str]"]
Progress = Union[bool, Callable[[float], object], None]


def read_scenario(scenario: ScenarioLike) -> Tuple[str, str]:
    """Returns ``(text, file_name)`` for a scenario given as a path or as TOML text.

    A `pathlib.Path` (or any path-like object) is always a file. A one-line string is a
    file if it names an existing one or ends in ``.toml``; otherwise a string is TOML text
    when it contains a newline or ``=``, and a missing file when it contains neither.
    """
    if isinstance(scenario, os.PathLike):
        path = Path(scenario)
        return read_text(path), str(path)
    if not isinstance(scenario, str):
        raise TypeError(
            f"scenario must be a path or TOML text, not {type(scenario).__name__}"
        )
    if "\n" not in scenario and (
        os.path.isfile(scenario) or scenario.strip().lower().endswith(".toml")
    ):
        return read_text(Path(scenario)), scenario
    if "\n" in scenario or "=" in scenario:
        return scenario, "<string>"
    raise FileNotFoundError(f"scenario file not found: {scenario}")


def read_text(path: Path) -> str:
    """The text of a UTF-8 file. A file that is not UTF-8 text raises
    `tcpsim.ScenarioError` naming the file, the line and the column of the first byte
    that is not; a missing or unreadable file raises OSError."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        what = "a binary file" if b"\0" in data[:4096] else "not UTF-8 text"
        raise ScenarioError(
            f"{path}, line {line}: {what}: byte 0x{data[e.start]:02x} at column {column} is "
            "not UTF-8 (scenario and sweep files are UTF-8 TOML)"
        ) from None


def default_limits() -> Dict[str, int]:
    """The default limits on a run's estimated cost, from the core: ``max_memory``
    (bytes) and ``max_samples`` (time-series values the monitor may record). A scenario
    whose estimate exceeds one is refused before it runs (`tcpsim.ScenarioError` saying
    what is big); `run` and `validate` take either limit to raise or lower it."""
    memory, samples = core_default_limits()
    return {"max_memory": memory, "max_samples": samples}


def validate(scenario: ScenarioLike, *, overrides: Optional[Dict[str, Any]] = None,
             seed: Optional[int] = None, max_memory: Optional[int] = None,
             max_samples: Optional[int] = None) -> None:
    """Checks a scenario without running it, including its estimated cost against the
    limits (see `default_limits`); raises `tcpsim.ScenarioError` if invalid. With
    `overrides` or `seed` (as `run` takes them), checks the overridden scenario."""
    text, name = read_scenario(scenario)
    changes = _overrides_from(overrides, seed)
    limits = {"max_memory": max_memory, "max_samples": max_samples}
    if changes:
        overridden_text(text, name, changes, **limits)
    else:
        validate_toml(text, name, **limits)


def run(
    scenario: ScenarioLike,
    *,
    out: Optional[PathLike] = None,
    progress: Progress = False,
    csv: bool = False,
    overrides: Optional[Dict[str, Any]] = None,
    seed: Optional[int] = None,
    max_memory: Optional[int] = None,
    max_samples: Optional[int] = None,
) -> Results:
    """Runs a scenario and returns its `Results`.

    Args:
        scenario: path of a ``.toml`` scenario file, or the TOML text itself.
        out: if given, the results are also saved there (see `Results.save`), and trace
            files the scenario asks for (``[trace]``) are written under it.
        progress: ``True`` shows a progress bar (tqdm) on standard error when it is a
            terminal, and a plain line every ``TCPSIM_PROGRESS_INTERVAL`` seconds (default
            10) when it is not (logs, CI, notebooks' captured stderr); a callable is
            called with the fraction of simulated time done (0..1) about a hundred times.
        csv: with `out`, also write each table as CSV.
        overrides: ``{key path: value}`` set in the scenario before it runs, with the
            key paths of sweep grids (``{"dumbbell.bottleneck.rate": "20Mbps",
            "flow[0].cc.alpha": 4}``; docs/sweeps.md), applied in order and checked as
            a sweep's are. The run's scenario text is then the overridden scenario,
            and ``summary["overrides"]`` lists them.
        seed: the run's seed (``simulation.seed``), an integer >= 0.
        max_memory, max_samples: raise or lower the limits on the run's estimated cost
            (bytes; time-series values); `None` keeps the default (`default_limits`).

    Raises:
        tcpsim.ScenarioError: the scenario is invalid (the message names the file, line,
            key and what was expected).

    The simulation runs without holding the GIL, so runs in several threads proceed in
    parallel; Ctrl-C interrupts a run with `KeyboardInterrupt`.
    """
    text, name = read_scenario(scenario)
    label = Path(name).stem if name != "<string>" else "tcpsim"
    limits = {"max_memory": max_memory, "max_samples": max_samples}
    changes = _overrides_from(overrides, seed)
    text = overridden_text(text, name, changes, **limits)
    if progress is True:
        raw = run_with_progress(text, name, label, out, limits, delay=0.5)
    else:
        raw = run_toml(text, name, progress if callable(progress) else None, output_dir=out, **limits)
    results = Results.from_core(raw, scenario_text=text)
    if changes:
        results.summary["overrides"] = _record(changes)
    if out is not None:
        results.save(out, csv=csv)
    return results


def run_with_progress(text: str, name: str, label: str, out: Optional[PathLike],
                      limits: Dict[str, Optional[int]], delay: float) -> Any:
    """Runs scenario text in the core with progress on standard error: a tqdm bar (shown
    after `delay` seconds) on a terminal, plain lines now and then elsewhere."""
    if sys.stderr.isatty():
        with ProgressBar(label, delay=delay) as bar:
            return run_toml(text, name, bar.update, output_dir=out, **limits)
    from ._progress import PlainProgress

    plain = PlainProgress(label, 1.0, "simulated time", percent=True)
    raw = run_toml(text, name, plain.update, output_dir=out, **limits)
    plain.n = 1.0
    plain.finish()
    return raw


class ProgressBar:
    """A tqdm bar over simulated time (0..100 %), shown only once a run has lasted
    `delay` seconds, so quick runs print nothing."""

    def __init__(self, label: str, delay: float = 0.5, disable: bool = False):
        from tqdm.auto import tqdm

        self._bar = tqdm(
            total=100,
            desc=label,
            unit="%",
            delay=delay,
            leave=False,
            disable=disable,
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}",
        )

    def update(self, fraction: float) -> None:
        target = max(0, min(100, int(round(fraction * 100))))
        if target > self._bar.n:
            self._bar.update(target - self._bar.n)

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, *exc) -> None:
        self._bar.close()

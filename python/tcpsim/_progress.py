"""Progress for logs and CI: when standard error is not a terminal, a tqdm bar would
print carriage returns nobody sees; instead a plain line is printed now and then.

The period is ``TCPSIM_PROGRESS_INTERVAL`` seconds (default 10). The first line comes
after one period, so runs shorter than that print nothing."""

from __future__ import annotations

import os
import sys
import time
from typing import Optional, TextIO, Union

DEFAULT_INTERVAL = 10.0


def interval() -> float:
    """The period of plain progress lines, from ``TCPSIM_PROGRESS_INTERVAL``."""
    try:
        return max(0.0, float(os.environ.get("TCPSIM_PROGRESS_INTERVAL", DEFAULT_INTERVAL)))
    except ValueError:
        return DEFAULT_INTERVAL


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    m, s = divmod(seconds, 60)
    if m < 60:
        return f"{m} min {s:02d} s"
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min"


class PlainProgress:
    """Prints ``label: <done>/<total> <unit> ..., <elapsed> elapsed, about <left> left``
    at most once per `period` seconds."""

    def __init__(self, label: str, total: float, unit: str, *, initial: float = 0,
                 period: Optional[float] = None, stream: Optional[TextIO] = None,
                 percent: bool = False):
        self.label, self.total, self.unit, self.percent = label, total, unit, percent
        self.n = initial
        self.initial = initial
        self.period = interval() if period is None else period
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self.last = self.started
        self.printed = False

    def update(self, n: float, extra: str = "") -> None:
        self.n = n
        now = time.monotonic()
        if now - self.last >= self.period:
            self.last = now
            self._print(now, extra)

    def finish(self, extra: str = "") -> None:
        """A last line, if any line was printed before (so logs show the end)."""
        if self.printed:
            self._print(time.monotonic(), extra)

    def _print(self, now: float, extra: str) -> None:
        elapsed = now - self.started
        if self.percent:
            head = f"{100.0 * self.n / self.total:.0f}% of {self.unit}" if self.total else self.unit
        else:
            head = f"{self.n:g}/{self.total:g} {self.unit}"
        bits = [head + (f" ({extra})" if extra else ""), f"{_duration(elapsed)} elapsed"]
        done = self.n - self.initial
        if 0 < done and self.n < self.total:
            bits.append(f"about {_duration(elapsed * (self.total - self.n) / done)} left")
        try:
            print(f"{self.label}: " + ", ".join(bits), file=self.stream, flush=True)
        except (OSError, ValueError):
            return
        self.printed = True


def for_stderr(quiet: bool = False) -> Union[bool, str]:
    """The progress a long command shows on standard error: none when `quiet`, a tqdm
    bar (``True``) on a terminal, plain lines (``"plain"``) otherwise: a log, CI, or
    ``2> file``, where a bar's carriage returns would garble the text."""
    if quiet:
        return False
    return True if sys.stderr.isatty() else "plain"


class Counter:
    """Things done out of `total` (runs, files) as `mode` says: a tqdm bar (``True``),
    plain lines (``"plain"``), or nothing (``False``)."""

    def __init__(self, mode: Union[bool, str], total: int, label: str, unit: str = "run"):
        self.bar = None
        self.plain: Optional[PlainProgress] = None
        self.n = 0
        if mode is True and total:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, desc=label, unit=unit, file=sys.stderr, dynamic_ncols=True)
        elif mode == "plain" and total:
            self.plain = PlainProgress(label, total, f"{unit}s done")

    def update(self, n: int = 1) -> None:
        self.n += n
        if self.bar is not None:
            self.bar.update(n)
        if self.plain is not None:
            self.plain.update(self.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        if self.plain is not None:
            self.plain.finish()


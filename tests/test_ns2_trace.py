"""Our ns-2 trace lines against ns-2.35's own `trace-all` output of the same scenario.

Case C (one Tahoe flow over case A's network, validation/ns2/case_c.tcl + .toml) draws no
random number that changes its packets (see tests/test_ns2_models.py), so the two traces
must hold the same lines — every column: event, time (printed to the microsecond as ns-2
does), link, type, size, flags, flow id, addresses, sequence number and packet uid. The
only allowed difference is the order of lines with the same time stamp: tcpsim's integer
picosecond clock makes some events exactly simultaneous that ns-2's floating-point clock
puts a rounding error apart (validation/ns2/README.md, "Tied events"). Measured
(100 s): 295 763 lines on both sides, identical as multisets at every time stamp.

Case ECN (eight ECN-capable NewReno flows through a marking RED queue) draws RED's
random numbers from other generators, so its lines differ; what both traces must share is
where the CE mark first shows: never on a `+` line (ns-2 traces the arrival before RED
marks it), always on the `-` line of the link whose queue marked it.

Case A (Reno) differs by the senders' clock phase (boot_time_, drawn from different
generators), so only the count of each event kind on each link is compared, within 1 %.

Skipped when ns-2's ``ns`` is not on PATH.
"""

from __future__ import annotations

import subprocess
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from test_ns2_models import harness  # noqa: F401  (loads validation/ns2/harness.py)

REPO = Path(__file__).resolve().parent.parent
NS2 = REPO / "validation" / "ns2"

pytestmark = pytest.mark.skipif(
    harness.ns_binary() is None,
    reason="ns-2 (`ns`) is not on PATH: install the Debian/Ubuntu package `ns2`",
)


def _ns2_trace(tmp_path: Path, case: str, seconds: float, args: list[str]) -> list[str]:
    out = tmp_path / f"ns2_{case}.tr"
    subprocess.run([harness.ns_binary(), str(NS2 / f"case_{case}.tcl"), str(seconds), *args, str(out)],
                   check=True, capture_output=True, cwd=tmp_path, timeout=600)
    return out.read_text().splitlines()


def _our_trace(tmp_path: Path, case: str, seconds: float, tcpsim_run: str) -> list[str]:
    text = (NS2 / f"case_{case}.toml").read_text()
    lines = [f'duration = "{seconds:g}s"' if l.startswith("duration") else l for l in text.splitlines()]
    scenario = tmp_path / f"ours_{case}.toml"
    scenario.write_text("\n".join(lines) + '\n\n[trace]\nns2 = "all"\ndir = "."\n')
    out = tmp_path / f"ours_{case}"
    subprocess.run([tcpsim_run, str(scenario), "--out", str(out), "--quiet"], check=True, timeout=600)
    return (out / "trace.tr").read_text().splitlines()


@pytest.fixture(scope="module")
def tcpsim_run():
    return str(harness.tcpsim_binary(build=True))


def test_case_c_trace_lines_equal_ns2s_at_every_time_stamp(tmp_path, tcpsim_run):
    theirs = _ns2_trace(tmp_path, "c", 100, ["1"])
    ours = _our_trace(tmp_path, "c", 100, tcpsim_run)
    assert len(theirs) > 200_000
    assert len(ours) == len(theirs)
    by_time_theirs: dict[str, Counter] = defaultdict(Counter)
    by_time_ours: dict[str, Counter] = defaultdict(Counter)
    for line in theirs:
        by_time_theirs[line.split(" ", 2)[1]][line] += 1
    for line in ours:
        by_time_ours[line.split(" ", 2)[1]][line] += 1
    differing = [t for t in by_time_theirs if by_time_theirs[t] != by_time_ours.get(t)]
    assert not differing, f"{len(differing)} time stamps differ, first {differing[0]}: " \
        f"ns-2 {sorted(by_time_theirs[differing[0]])} vs ours {sorted(by_time_ours.get(differing[0], []))}"
    reordered = sum(a != b for a, b in zip(theirs, ours))
    assert reordered < len(theirs) * 0.01, f"{reordered} lines in another order"


def test_case_a_event_counts_per_link_within_one_percent(tmp_path, tcpsim_run):
    def counts(lines):
        return Counter(tuple(l.split(" ")[i] for i in (0, 2, 3, 4)) for l in lines)
    theirs = counts(_ns2_trace(tmp_path, "a", 20, []))
    ours = counts(_our_trace(tmp_path, "a", 20, tcpsim_run))
    assert set(theirs) == set(ours), set(theirs) ^ set(ours)
    for key, n in theirs.items():
        assert abs(ours[key] - n) <= max(2, 0.01 * n), f"{key}: ns-2 {n}, tcpsim {ours[key]}"


def _first_ce(lines: list[str]) -> Counter:
    """For each packet (uid, the last column) that ever carries CE (E in the flags), the
    event of the first line that shows it."""
    seen: set[str] = set()
    first: Counter = Counter()
    for line in lines:
        fields = line.split(" ")
        uid, flags = fields[-1], fields[6]
        if flags[4] == "E" and uid not in seen:
            seen.add(uid)
            first[fields[0]] += 1
    return first


def test_case_ecn_marks_show_from_the_dequeue_as_in_ns2(tmp_path, tcpsim_run):
    theirs = _first_ce(_ns2_trace(tmp_path, "ecn", 10, ["1"]))
    ours = _first_ce(_our_trace(tmp_path, "ecn", 10, tcpsim_run))
    assert theirs["-"] > 20 and ours["-"] > 20, (theirs, ours)
    assert set(theirs) == {"-"}, f"ns-2: marks first seen on {dict(theirs)}"
    assert set(ours) == {"-"}, f"tcpsim: marks first seen on {dict(ours)}"
    # Both mark about as often (the draws differ): within a factor of two.
    assert 0.5 < ours["-"] / theirs["-"] < 2, (theirs, ours)


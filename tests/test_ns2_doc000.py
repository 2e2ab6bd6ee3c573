"""The ns-2.35 twin of reference document 000 (validation/ns2/doc000.tcl) describes the
runs of experiments/000, and where no random draw or tie separates the simulators it
measures what tcpsim measures.

`tcpsim reproduce 000 --ns2` runs every experiment in ns-2 too and puts ns-2's verdicts
beside ours. The first test pins down that the twin's arguments say what each
experiment file says (per source Reno or Vegas, the bottleneck's rate, buffer and queue,
RED's thresholds and weight, the access links, and in E5 which routers run RED); when
one of them changes, the other must. The second runs the twin where the runs cannot
part: homogeneous Vegas (no loss, no RED draw) and one drop-tail Vegas/Reno mix, and
requires ns-2's queue counters and throughputs to equal ours.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

from tcpsim import models, units
from tcpsim.api import run
from tcpsim.reproduce import load_document, make_plan
from tcpsim.reproduce.measures import group_measures
from tcpsim.reproduce.ns2 import twin_commands
from twin_args import twin_arguments


@pytest.fixture(scope="module")
def plan():
    return make_plan(load_document("000"), quick=True)


SCRIPT = Path(__file__).resolve().parents[1] / "validation" / "ns2" / "doc000.tcl"


def _args(command):
    return twin_arguments(SCRIPT, command)


def _number(value):
    """A scenario value as a number in SI units ("500ms" -> 0.5, 2 -> 2.0)."""
    q = units.parse(value) if isinstance(value, str) else None
    return float(q[0] if q else value)


#: Twin argument -> the RED parameter (of the bottleneck's queue) it sets.
RED_ARGS = {"weight": "weight", "max_p": "max_p", "gentle": "gentle", "byte_mode": "queue_in_bytes"}
#: Twin argument -> the TCP parameter (of every flow) it sets.
TCP_ARGS = {"tick": "clock_granularity", "min_rto": "min_rto", "initial_rto": "initial_rto", "max_rto": "max_rto",
            "initial_window": "initial_window", "max_window": "max_window"}


def _red_value(queue, param):
    value = queue.get(param, models.get("queue", "red").param(param).default)
    return value if isinstance(value, (bool, str)) else float(value)


def _twin_red_value(arg, text):
    if arg in ("gentle", "byte_mode"):
        return {"true": True, "false": False}[text]
    return text if text == "auto" else float(text)


def _ns2_rate(rate: str) -> str:
    return rate.replace("bps", "b")


#: Window controls ns-2.35 has no agent for (E6's Vegas variants): their runs have no twin.
NO_NS2_AGENT = {"new_vegas", "vegas_a", "vegas_plus"}


def _cc_name(cc):
    return cc["kind"] if isinstance(cc, dict) else cc


def test_every_run_has_a_twin_whose_arguments_describe_its_scenario(plan):
    commands = twin_commands(plan)
    # every run has a twin but those of the cases that say they have none (ns2 = false):
    # SRED's estimate of n (e4_red), and E6's window controls ns-2.35 has no agent for
    no_twin = {(e.name, c.name) for e in plan.document.experiments for c in e.cases if c.no_twin}
    assert set(commands) == {k for k in plan.runs if k[:2] not in no_twin}
    lacking = {key[:2] for key in plan.runs
               if {_cc_name(f["cc"]) for f in _toml.loads(plan.runs[key].toml_text)["flow"]} & NO_NS2_AGENT}
    assert lacking and all(name.startswith("e6_") for name, _ in lacking)
    e4_red = {e.name for e in plan.document.experiments if "e4_red" in (e.name, e.variant_of)}
    assert no_twin == lacking | {(name, "red_sred") for name in e4_red}
    for key, command in commands.items():
        a, s = _args(command), _toml.loads(plan.runs[key].toml_text)
        flows = s["flow"]
        # Vegas' alpha/beta (E6's larger thresholds): the twin's vegas=ALPHA/BETA
        vegas = {(f["cc"].get("alpha", 1), f["cc"].get("beta", 3)) if isinstance(f["cc"], dict) else (1, 3)
                 for f in flows if _cc_name(f["cc"]) == "vegas"}
        assert vegas <= {tuple(int(x) for x in a["vegas"].split("/"))}, key
        tcp = models.get("agent", "tcp")
        for arg, param in TCP_ARGS.items():
            want = {_number(f.get(param, tcp.param(param).default)) for f in flows}
            assert want == {float(a[arg])}, (key, arg)
        # the reading "start-time jitter": every flow's jitter, in seconds, as the twin's
        jitters = {units.parse(f.get("start_jitter", "0s"))[0] for f in flows}
        assert len(jitters) == 1 and float(a["start_jitter"]) == jitters.pop(), key
        if a["exp"] == "dumbbell":
            b, acc = s["dumbbell"]["bottleneck"], s["dumbbell"]["access"]
            assert a["flows"].split(",") == [_cc_name(f["cc"]) for f in flows], key
            starts = [str(f.get("start", "0s")).rstrip("s") for f in flows]
            assert (a["starts"] or ",".join(["0"] * len(flows))).split(",") == starts, key
            if a["window"]:
                assert [a["window"]] == [f"{w0:g}/{w1:g}" for w0, w1 in plan.document.experiment(key[0]).windows], key
            assert (_ns2_rate(b["rate"]), b["delay"]) == (a["rate"], "40ms"), key
            assert (_ns2_rate(acc["rate"]), acc["delay"]) == (a["access"], a["access_delay"]), key
            q = b["queue"]
            assert q["limit"] == a["limit"].rstrip("p") + "p", key
            if q["kind"] == "red_n" and key[0].startswith("e6_"):
                # E6: the connection-count RED with the exact n, fixed through the run
                # (every flow from 0 s): ns-2's RED with the thresholds of that n
                limit, n = int(q["limit"].rstrip("p")), len(flows)
                assert q["n_source"] == "exact" and a["queue"] == "red", key
                assert a["red"] == f"{min(limit, q['beta'] * n)}/{min(limit, (q['beta'] + 1) * n)}", key
            else:
                assert q["kind"] == a["queue"], key
            if q["kind"] == "red":
                assert a["red"] == f"{q['min_th']}/{q['max_th']}", key
            if q["kind"] == "red_n" and a["queue"] == "red_n":
                # E4: thresholds from the flows started so far (the starts checked above),
                # times (1 + n_error): exact n, or n off by n_error
                assert q["n_source"] in ("exact", "scaled"), key
                assert float(a["beta"]) == q["beta"], key
                assert float(a["n_error"]) == q.get("n_error", 0.0), key
                assert q["n_source"] == "scaled" or float(a["n_error"]) == 0, key
            if q["kind"] in ("red", "red_n"):
                for arg, param in RED_ARGS.items():
                    assert _red_value(q, param) == _twin_red_value(arg, a[arg]), (key, arg)
                # the twin's byte_mode sets bytes_ with queue_in_bytes_
                assert _red_value(q, "bytes") == _red_value(q, "queue_in_bytes"), key
        else:
            # E5: the twin's fixed six-router network; the routers whose data-direction
            # queues run RED are the case's
            assert a["exp"] == "e5" and a["window"] == "100/200"
            red_routers = {l["from"] for l in s["link"] if l.get("queue", {}).get("kind") == "red"}
            want = {"none": set(), "r1": {"r1"}, "r3": {"r3"}, "all": {"r1", "r2", "r3", "r4", "r5", "r6"}}
            assert red_routers == want[a["red_at"]], key
            assert [(f["name"], f["cc"], f.get("start", "0s")) for f in flows] == [
                ("S1", "reno", "10s"), ("S2", "vegas", "0s"), ("S3", "vegas", "0s"), ("S4", "vegas", "20s")]


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (`ns`) is not on PATH: install the Debian/Ubuntu package `ns2`")
@pytest.mark.parametrize("experiment, case, exact_throughput", [
    ("e1_two_flows", "vv_red", True), ("e2_five_flows", "v5_dt", True), ("e3_ten_flows", "v10_dt", True),
    # Vegas against Reno on drop-tail: no random draw, and the same queue counters; the
    # throughputs differ by under 1.5 %: every flow counter is equal (packets sent,
    # retransmitted, timeouts, delivered in order), but tcpsim's throughput counts every
    # data packet received and ns-2's TCPSink bytes_ only those in order (measured, 30 s,
    # the main reading's ns-2.27 timers: Reno's S2 receives 4575 packets, 4527 of them in
    # order, 1219.73 against 1207.21 Kb/s; with ns-2.35's timers 1244.27 against 1235.74)
    ("e1_two_flows", "vr_dt", False)])
def test_where_nothing_random_separates_them_ns2_measures_what_we_measure(plan, tmp_path, experiment, case, exact_throughput):
    from tcpsim.reproduce.ns2 import run_twin

    key = (experiment, case, None, 1)
    ours = group_measures(run(plan.runs[key].toml_text, out=tmp_path))
    theirs = run_twin(twin_commands(plan)[key])["measures"]
    for metric in ("queue_arrivals.r1_to_r2", "queue_drops.r1_to_r2"):
        assert theirs[metric] == ours[metric], metric
    flows = [m for m in ours if m.startswith("flow_kbps.")]
    assert flows and all(m in theirs for m in flows)
    for m in flows:
        if exact_throughput:
            assert theirs[m] == pytest.approx(ours[m], rel=1e-12), m
        else:
            assert theirs[m] == pytest.approx(ours[m], rel=0.015), m


NS2 = pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (`ns`) is not on PATH: install the Debian/Ubuntu package `ns2`")


def _twin_starts(stdout: str) -> list:
    return [float(line.split("t=")[1]) for line in stdout.splitlines() if line.startswith("flowstart ")]


@NS2
def test_the_twin_draws_its_own_start_jitter_from_the_seed(plan):
    """The variant 'start-time jitter' reaches ns-2: each flow of the twin starts at its
    own start plus a draw from [0, start_jitter) of an RNG of the twin's own, on substream
    seed= (the same distribution as tcpsim's start_jitter, not the same numbers)."""
    from tcpsim.reproduce.ns2 import run_twin

    commands = twin_commands(make_plan(load_document("000"), quick=True, seeds=2))
    command = commands[("e4_droptail_jitter", "dt", None, 1)]
    assert "start_jitter=0.02" in command
    starts = {seed: _twin_starts(run_twin([*command[:-1], f"seed={seed}"])["stdout"]) for seed in (1, 2)}
    given = [float(t) for t in _args(command)["starts"].split(",")]
    for seed, drawn in starts.items():
        assert len(drawn) == len(given), seed
        offsets = [t - g for t, g in zip(drawn, given)]
        assert all(0 <= o < 0.02 for o in offsets), (seed, offsets)
        assert len(set(offsets)) == len(offsets), "one draw per flow"
    assert starts[1] != starts[2], "another seed, other starts"
    again = _twin_starts(run_twin([*command[:-1], "seed=1"])["stdout"])
    assert again == starts[1], "same seed, same starts"
    # without the variant the twin draws nothing: every flow starts when the file says
    plain = commands[("e4_droptail", "dt", None, 1)]
    assert not any(a.startswith("start_jitter=") for a in plain)
    assert _twin_starts(run_twin(plain)["stdout"]) == given


# ------------------------------------------------------------------ off the grid
#
# E2's 4V1R drop-tail mix at a point not in the thesis' grid: a 2 Mb/s bottleneck with a
# 25-packet buffer, and the delays moved off the grid that makes two "equal" times tie
# (40.00137 ms and 1.000731 ms, as tests/test_ns2_doc004.py does: ns-2's double clock
# rounds ties one way or the other, tcpsim's integer clock orders them as scheduled).
# Reno there is 960 bytes of payload and a 40-byte header, as the twin's Agent/TCP/Reno
# (the experiment files send 1000 + 0 bytes: the same data packets, but a 1-byte SYN
# where ns-2's is 40 bytes, which shifts every later packet by 0.2 ms at 1.5 Mb/s).
#
# The runs are deterministic in both simulators but for one draw each: every agent's
# clock phase (ns-2's boot_time_, uniform within the 10 ms tick), drawn from each
# simulator's own generator. Each Vegas flow times out once in the start-up burst
# (timeouts below), on a tick its phase sets, and that decides which of the four
# identical Vegas flows ends up with which share. With the main reading's ns-2.27
# timers (RTO at least 1 s) the four Vegas flows come out alike (measured, seed 1: each
# sends 556 packets, in tcpsim and ns-2); with ns-2.35's (0.2 s) their counters came out
# permuted (seed 1: tcpsim's S1..S4 sent 769, 769, 583, 583 packets, ns-2's 769, 583,
# 769, 583). So the Vegas flows are compared as a set, everything else one for one.
# Measured with ns-2.35's timers: with seed 1 every counter was equal (30 s and 100 s
# alike); seeds 2-4 parted by up to 3 packets (586 against 583 sent), which this test
# does not cover; traced with seed 2 (every link, event by event), the runs were
# identical until Vegas S4, after losing packets 15, 17 and 19 at 0.65 s in both,
# retransmitted 19 on a timeout at 1.654844 s in tcpsim and 1.674844 s in ns-2, two
# 10 ms ticks apart: the timer counts in ticks from each agent's drawn phase.
OFF_GRID = {"rate": "2Mbps", "limit": 25, "delay": "40.00137ms", "access_delay": "1.000731ms", "seconds": 30}


def _off_grid_scenario(text: str) -> str:
    from tcpsim.sweep import canonical_toml

    doc = _toml.loads(text)
    doc["simulation"]["duration"] = f"{OFF_GRID['seconds']}s"
    bell = doc["dumbbell"]
    assert bell["bottleneck"]["delay"] == "40ms" and bell["access"]["delay"] == "1ms"
    bell["bottleneck"].update(rate=OFF_GRID["rate"], delay=OFF_GRID["delay"])
    bell["bottleneck"]["queue"]["limit"] = f"{OFF_GRID['limit']}p"
    bell["access"]["delay"] = OFF_GRID["access_delay"]
    for f in doc["flow"]:
        if f["cc"] == "reno":
            f.update(packet_size="960B", header_size="40B")
    return canonical_toml(doc)


def _kv(line: str) -> dict:
    import re

    return {k: float(v) for k, v in re.findall(r"(\w+)=([-+0-9.eE]+)(?=\s|$)", line)}


@NS2
def test_off_grid_4v1r_droptail_counters_equal_ns2(plan):
    import subprocess

    ex, case = plan.document.experiment("e2_five_flows"), "v4r1_dt"
    args = [*ex.ns2.args, *ex.case(case).ns2, f"rate={_ns2_rate(OFF_GRID['rate'])}", f"limit={OFF_GRID['limit']}",
            f"delay={OFF_GRID['delay']}", f"access_delay={OFF_GRID['access_delay']}", f"T={OFF_GRID['seconds']}", "seed=1"]
    from tcpsim.reproduce.ns2 import REPO

    out = subprocess.run(["ns", str(REPO / ex.ns2.script), *args],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    ns_flows = [_kv(l) for l in out if l.startswith("flow ")]
    ns_queue = next(_kv(l) for l in out if l.startswith("queue r1->r2 "))
    res = run(_off_grid_scenario(plan.runs[("e2_five_flows", case, None, 1)].toml_text))
    q = res.queues.set_index("queue").loc["r1->r2"]

    def ns_delivered(f):   # TCPSink bytes_: in-order wire bytes, the SYN included
        return int((f["bytes"] - f["syn_size"]) // (f["packet_size"] + f["header_size"]))

    ours = {
        "bottleneck": (int(q["arrivals"]), int(q["departures"]), int(q["early_drops"] + q["overflow_drops"])),
        "flows": [(r.cc, int(r.packets_sent), int(r.retransmits), int(r.timeouts), int(r.unique_packets))
                  for r in res.flows.itertuples()],
    }
    theirs = {
        "bottleneck": (int(ns_queue["arrivals"]), int(ns_queue["departures"]), int(ns_queue["drops"])),
        "flows": [(cc, int(f["data_pkts"]), int(f["rexmit_pkts"]), int(f["timeouts"]), ns_delivered(f))
                  for cc, f in zip(_args(["ns", *args])["flows"].split(","), ns_flows)],
    }
    print("tcpsim:", ours, "\nns-2.35:", theirs)
    assert ours["bottleneck"] == theirs["bottleneck"]
    assert ours["bottleneck"][2] > 0, "a point where the buffer overflows"
    reno = [f for f in ours["flows"] if f[0] == "reno"]
    assert reno == [f for f in theirs["flows"] if f[0] == "reno"]
    assert sorted(f for f in ours["flows"] if f[0] == "vegas") == sorted(f for f in theirs["flows"] if f[0] == "vegas")
    assert all(f[3] == 1 for f in ours["flows"] if f[0] == "vegas"), "the one timeout per Vegas flow the module text speaks of"


#: A 20-packet RED bottleneck at 2 Mb/s and 40 ms (Fig. 4.1's dumbbell with E1's buffer).
SMALL_RED = ["exp=dumbbell", "rate=2Mb", "access=50Mb", "access_delay=1ms", "limit=20"]


def _twin(tmp_path, *args):
    from tcpsim.reproduce.ns2 import REPO

    p = subprocess.run(["ns", str(REPO / "validation/ns2/doc000.tcl"), *args], capture_output=True, text=True,
                       cwd=tmp_path, check=True)
    lines = p.stdout.splitlines()
    changes = [dict(kv.split("=") for kv in l.split()[1:]) for l in lines if l.startswith("red_n ")]
    queue = dict(kv.split("=") for kv in next(l for l in lines if l.startswith("queue r1->r2")).split()[2:])
    flows = [l.split()[2] for l in lines if l.startswith("flow ")]
    return changes, queue, flows


@NS2
def test_ns2_red_takes_new_thresholds_only_through_its_reset(tmp_path):
    """ns-2.35's RED copies thresh_/maxthresh_ into the thresholds it uses only in its
    reset (red.cc), so the twin's red_n resets the queue at each start time. One Reno
    flow meets thresholds 3/4 (n = 1) and early drops; six more join at 10 s, n = 7 gives
    21/28, both capped at the 20-packet buffer, where the average (an EWMA of queue
    lengths below 20) never reaches min_th: no early drop after 10 s. Setting thresh_
    and maxthresh_ alone leaves 3/4 in force, and the early drops go on. With ns-2.35's
    timers: under the main reading's (RTO at least 1 s) the one Reno flow sits in a
    timeout at 10 s (measured: qlen 0 at the change), so the reset would hold no packet
    to keep."""
    run = [*SMALL_RED, "queue=red_n", "flows=" + ",".join(["reno"] * 7), "starts=0,10,10,10,10,10,10", "T=30",
           "min_rto=0.2", "initial_rto=3", "max_rto=60"]
    (change,), queue, _ = _twin(tmp_path, *run)
    assert (change["t"], change["min_th"], change["max_th"]) == ("10", "20", "20")
    assert int(change["early_drops"]) > 0 and int(queue["early_drops"]) == int(change["early_drops"])
    # the reset keeps the packets the queue held: none counted as dropped by it
    assert int(change["qlen"]) > 0 and change["drops_after"] == change["drops"]
    (change,), queue, _ = _twin(tmp_path, *run, "red_n_update=thresh")
    assert int(queue["early_drops"]) > int(change["early_drops"]) + 100


@NS2
def test_ns2_red_reset_that_keeps_the_thresholds_changes_nothing(tmp_path):
    """The twin's reset hands the held packets back in order and restores the average:
    where the thresholds do not change (seven Vegas, then an eighth at 5 s: 21/28 and
    24/32, both capped at the 20-packet buffer) and the average is below min_th (Vegas
    keeps under 3 packets a flow queued), the run is the fixed-threshold run, counter for
    counter and byte for byte."""
    run = [*SMALL_RED, "flows=" + ",".join(["vegas"] * 8), "starts=0,0,0,0,0,0,0,5", "T=20"]
    (change,), queue, flows = _twin(tmp_path, *run, "queue=red_n")
    assert int(change["qlen"]) > 0 and change["drops_after"] == change["drops"]
    assert (queue, flows) == _twin(tmp_path, *run, "queue=red", "red=20/20")[1:]


@NS2
@pytest.mark.parametrize("case", ["red", "red_plus10", "red_minus20_literal"])
def test_ns2_red_n_sets_the_thresholds_tcpsim_sets(plan, tmp_path, case):
    """E4's twin sets RED's thresholds at the times and to the values tcpsim's red_n
    queue does (its time series): the same n (1 + e), not rounded, at least 1."""
    from tcpsim.api import run

    key = ("e4_red", case, None, 1)
    ts = run(plan.runs[key].toml_text, out=tmp_path / "ours").timeseries
    q = ts[(ts.entity == "r1->r2") & ts.metric.isin(["red_n", "red_min_th_pkts", "red_max_th_pkts"])]
    wide = q.pivot_table(index="time_s", columns="metric", values="value")
    ours = [(t, r["red_n"], r["red_min_th_pkts"], r["red_max_th_pkts"])
            for t, r in wide[wide.diff().abs().sum(axis=1) > 0].iterrows()]
    changes, _, _ = _twin(tmp_path, *twin_commands(plan)[key][1:])
    theirs = [tuple(float(c[k]) for k in ("t", "n", "min_th", "max_th")) for c in changes]
    assert len(theirs) == len(ours) >= 4
    assert [pytest.approx(t, abs=1e-9) for t in theirs] == ours


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (`ns`) is not on PATH: install the Debian/Ubuntu package `ns2`")
@pytest.mark.parametrize("argument, settings", [
    # each argument the readings pass, at a value other than its default, and the
    # variables ns-2's objects then hold (the twin prints them on its "settings" lines)
    # ns-2's automatic weight on E1's 1.5 Mb/s, 40 ms bottleneck: 1 - exp(-1 / (10 rtt ptc)),
    # ptc = 1.5 Mb/s in 500-byte packets, rtt = 3 (delay + 1 / ptc)
    ("weight=auto", {"red": {"q_weight_": lambda v: float(v) == pytest.approx(
        1 - math.exp(-1 / (10 * 3 * (0.04 + 1 / 375) * 375)), rel=1e-12)}}),
    ("max_p=0.02", {"red": {"linterm_": "50"}}),
    ("gentle=false", {"red": {"gentle_": "0"}}),
    ("byte_mode=true", {"red": {"queue_in_bytes_": "1", "bytes_": "1"}}),
    ("tick=0.5", {"tcp": {"tcpTick_": "0.5"}}),
    # the reading 'ns-2.35 TCP timers' (the main reading runs ns-2.27's: the next test)
    ("min_rto=0.2", {"tcp": {"minrto_": lambda v: float(v) == 0.2}}),
    ("initial_rto=3", {"tcp": {"rtxcur_init_": "3"}}),
    ("max_rto=60", {"tcp": {"maxrto_": "60"}}),
    ("initial_window=2", {"tcp": {"windowInit_": "2"}}),
    ("max_window=128", {"tcp": {"window_": "128"}}),
])
def test_ns2_receives_each_reading_argument(tmp_path, argument, settings):
    out = subprocess.run(["ns", str(SCRIPT), "exp=dumbbell", "flows=vegas,reno", "queue=red", "T=0.1", argument],
                         capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    lines = {}
    for line in out.splitlines():
        if line.startswith("settings "):
            kind, _who, *pairs = line.split()[1:]
            lines.setdefault(kind, []).append(dict(p.split("=", 1) for p in pairs))
    assert len(lines["red"]) == 1 and len(lines["tcp"]) == 2
    for kind, want in settings.items():
        for held in lines[kind]:
            for var, value in want.items():
                assert value(held[var]) if callable(value) else held[var] == value, (var, held[var])
    # and without the argument, the main reading's value
    default = subprocess.run(["ns", str(SCRIPT), "exp=dumbbell", "flows=vegas,reno", "queue=red", "T=0.1"],
                             capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert out != default


#: ns-2.27's Agent/TCP timers (docs/ns2-semantics.md, section 12), which the main reading
#: of 000 runs on every flow: minrto_, rtxcur_init_, maxrto_ as ns-2 prints them.
NS227_TIMERS = {"minrto_": "1", "rtxcur_init_": "6", "maxrto_": "100000"}


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (`ns`) is not on PATH: install the Debian/Ubuntu package `ns2`")
@pytest.mark.parametrize("key", [("e1_two_flows", "vr_red"), ("e2_five_flows", "v4r1_dt"), ("e4_red", "red"),
                                 ("e5_deployment", "dt"), ("e6_end_host_fixes", "v4r1_vegas_red_n")])
def test_ns2_runs_the_main_reading_s_ns227_timers_on_every_agent(plan, tmp_path, key):
    """The main reading's twins pass no timer argument: doc000.tcl's defaults are ns-2.27's
    timers, and every agent ns-2 builds holds them, as every flow of the scenario does."""
    command = twin_commands(plan)[(*key, None, 1)]
    assert not [a for a in command if a.split("=")[0] in ("min_rto", "initial_rto", "max_rto")], command
    flows = _toml.loads(plan.runs[(*key, None, 1)].toml_text)["flow"]
    assert {(f["min_rto"], f["initial_rto"], f["max_rto"]) for f in flows} == {("1s", "6s", "100000s")}
    # 0.1 s of it (and so no throughput window) suffices: the agents exist from the start
    args = [a for a in command if a.split("=")[0] not in ("T", "window")]
    out = subprocess.run(["ns", *args, "T=0.1"], capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    held = [dict(p.split("=", 1) for p in line.split()[3:]) for line in out.splitlines() if line.startswith("settings tcp ")]
    assert len(held) == len(flows)
    assert all({k: h[k] for k in NS227_TIMERS} == NS227_TIMERS for h in held), held


@NS2
def test_ns2_misses_strong_target_4_as_tcpsim_does(plan, tmp_path):
    """Strong target 4 (check e4.dt.vegas_equal.1_8; STRUCTURAL_MISS in
    tests/test_reproduce_000.py, whose reason gives the mechanism): ns-2.35's twin of E4's
    drop-tail run gives Vegas7 and Vegas8 in 70-100 s a fifth packet per RTT, to the
    packet our throughputs (about 100 Kb/s against 79 for Vegas1-6), Vegas1-Vegas6 ours
    within 3 packets (0.8 Kb/s; measured: Vegas2 and Vegas6 differ by 1 and 3), and
    times out only the two Reno flows, as tcpsim does."""
    from tcpsim.reproduce.ns2 import run_twin

    key = ("e4_droptail", "dt", None, 1)
    ours = group_measures(run(plan.runs[key].toml_text, out=tmp_path), plan.document.experiment("e4_droptail").windows)
    theirs = run_twin(twin_commands(plan)[key])["measures"]
    vegas = [f"flow_kbps_window.0.Vegas{i}" for i in range(1, 9)]
    assert [theirs[k] for k in vegas] == pytest.approx([ours[k] for k in vegas], abs=0.81)
    assert [theirs[k] for k in vegas[6:]] == pytest.approx([ours[k] for k in vegas[6:]], rel=1e-9)
    assert all(75 < theirs[k] < 85 for k in vegas[:6]) and all(95 < theirs[k] < 105 for k in vegas[6:])
    assert theirs["tcp_timeouts"] == 2 == sum(ours[f"flow_timeouts.{f}"] for f in ("Reno1", "Reno2"))


def _first_packet_sizes(trace: Path) -> dict:
    """{seqno: sizes} of the TCP data packets (type "tcp") numbered 0 and 1 offered to any
    link in an ns-2 trace file: packet 0 is each agent's SYN."""
    sizes: dict = {0: set(), 1: set()}
    for line in trace.read_text().splitlines():
        f = line.split()
        if f[0] == "+" and f[4] == "tcp" and int(f[10]) in sizes:
            sizes[int(f[10])].add(int(f[5]))
    return sizes


@NS2
def test_reno_s_syn_is_the_one_wire_difference_from_the_twin(plan, tmp_path):
    """What ns-2.35's one-way agents send first, and ours: a SYN (packet 0) then data.
    ns-2.35's Agent/TCP/Reno sends its SYN as tcpip_base_hdr_size_ bytes with no data
    (TcpAgent::output with syn_ true): 40 bytes in the twin, whose Reno is 960 + 40. The
    experiment files' Reno is 1000 + 0, so its SYN is 1 byte (a header alone, at least one
    byte): the difference document.toml's first assumption gives with its measured effect.
    Vegas' SYN is a full 1000-byte packet in both, and every data packet is 1000 bytes."""
    from tcpsim.sweep import canonical_toml

    key = ("e1_two_flows", "vr_dt", None, 1)
    scenario = _toml.loads(plan.runs[key].toml_text)
    scenario["simulation"]["duration"] = "0.3s"
    scenario["trace"] = {"ns2": "all"}
    run(canonical_toml(scenario), out=tmp_path / "ours")
    ours = _first_packet_sizes(tmp_path / "ours" / "traces" / "trace.tr")
    args = [a for a in twin_commands(plan)[key] if a.split("=")[0] not in ("T", "trace")]
    subprocess.run(["ns", *args, "T=0.3", f"trace={tmp_path / 'ns2.tr'}"], capture_output=True, text=True,
                   cwd=tmp_path, check=True)
    theirs = _first_packet_sizes(tmp_path / "ns2.tr")
    assert ours == {0: {1000, 1}, 1: {1000}}
    assert theirs == {0: {1000, 40}, 1: {1000}}

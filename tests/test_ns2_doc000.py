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

import shutil

import pytest

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

from tcpsim import units
from tcpsim.api import run
from tcpsim.reproduce import load_document, make_plan
from tcpsim.reproduce.measures import group_measures
from tcpsim.reproduce.ns2 import twin_commands


@pytest.fixture(scope="module")
def plan():
    return make_plan(load_document("000"), quick=True)


def _args(command):
    return dict(a.split("=", 1) for a in command[1:])


def _ns2_rate(rate: str) -> str:
    return rate.replace("bps", "b")


def test_every_run_has_a_twin_whose_arguments_describe_its_scenario(plan):
    commands = twin_commands(plan)
    assert set(commands) == set(plan.runs)
    for key, command in commands.items():
        a, s = _args(command), _toml.loads(plan.runs[key].toml_text)
        flows = s["flow"]
        red_weight = "auto" if key[0].endswith("_ns227") else "0.002"
        # the reading "start-time jitter": every flow's jitter, in seconds, as the twin's
        jitters = {units.parse(f.get("start_jitter", "0s"))[0] for f in flows}
        assert len(jitters) == 1 and float(a.get("start_jitter", "0")) == jitters.pop(), key
        if a["exp"] == "dumbbell":
            b, acc = s["dumbbell"]["bottleneck"], s["dumbbell"]["access"]
            assert a["flows"].split(",") == [f["cc"] for f in flows], key
            starts = [str(f.get("start", "0s")).rstrip("s") for f in flows]
            assert a.get("starts", ",".join(["0"] * len(flows))).split(",") == starts, key
            if "window" in a:
                assert [a["window"]] == [f"{w0:g}/{w1:g}" for w0, w1 in plan.document.experiment(key[0]).windows], key
            assert (_ns2_rate(b["rate"]), b["delay"]) == (a["rate"], "40ms"), key
            assert (_ns2_rate(acc["rate"]), acc["delay"]) == (a["access"], a["access_delay"]), key
            q = b["queue"]
            assert q["limit"] == a["limit"].rstrip("p") + "p", key
            assert q["kind"] == a["queue"], key
            if q["kind"] == "red":
                assert a["red"] == f"{q['min_th']}/{q['max_th']}", key
                assert str(q["weight"]) == red_weight == a.get("weight", "0.002"), key
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
    # throughputs differ by under 1 % (measured: 208.27 against 207.73 Kb/s for S1 in
    # 30 s; not traced further: tcpsim's throughput counts every data packet received,
    # ns-2's TCPSink bytes_ only those in order)
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
            assert theirs[m] == pytest.approx(ours[m], rel=0.01), m


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
# identical Vegas flows ends up with which share: the flows' counters come out
# permuted (measured, seed 1: tcpsim's S1..S4 send 769, 769, 583, 583 packets, ns-2's
# 769, 583, 769, 583). So the Vegas flows are compared as a set, everything else one
# for one. With seed 1 every counter is equal (30 s and 100 s alike); seeds 2-4 part by
# up to 3 packets (586 against 583 sent), which this test does not cover. Traced with
# seed 2 (every link, event by event): the runs are identical until Vegas S4, after
# losing packets 15, 17 and 19 at 0.65 s in both, retransmits 19 on a timeout at
# 1.654844 s in tcpsim and 1.674844 s in ns-2, two 10 ms ticks apart: the timer counts
# in ticks from each agent's drawn phase.
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

"""The Python API: tcpsim.run, Results (Parquet save/load), ScenarioError, progress, plots."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tcpsim
from tcpsim import _core

FLOW_COLUMNS = [
    "name", "type", "from", "to", "recovery", "cc", "start_s", "stop_s", "packets_sent",
    "retransmits", "timeouts", "fast_retransmits", "ecn_reductions", "packets_received", "unique_packets",
    "goodput_bytes", "goodput_bps", "throughput_bps", "drops", "rtt_samples", "rtt_mean_s",
    "rtt_min_s", "rtt_max_s", "final_cwnd",
]
QUEUE_COLUMNS = [
    "queue", "kind", "arrivals", "departures", "early_drops", "overflow_drops", "marks",
    "mean_length_pkts", "max_length_pkts", "mean_sojourn_s",
]
LINK_COLUMNS = ["link", "rate_bps", "delay_s", "packets_sent", "bytes_sent", "utilization"]
TIMESERIES_COLUMNS = ["time_s", "entity", "metric", "value"]


@pytest.fixture(scope="module")
def small_results(small_scenario) -> tcpsim.Results:
    return tcpsim.run(small_scenario)


def _missing(df: pd.DataFrame, expected: list) -> list:
    return [c for c in expected if c not in df.columns]


# ---------------------------------------------------------------------------- running


def test_run_from_text_gives_dataframes_with_expected_columns(small_results):
    r = small_results
    for name in tcpsim.TABLES:
        assert isinstance(getattr(r, name), pd.DataFrame), name
    assert _missing(r.flows, FLOW_COLUMNS) == []
    assert _missing(r.queues, QUEUE_COLUMNS) == []
    assert _missing(r.links, LINK_COLUMNS) == []
    assert list(r.timeseries.columns) == TIMESERIES_COLUMNS
    assert isinstance(r.summary, dict)


def test_run_results_are_plausible(small_results):
    r = small_results
    flows = r.flows.set_index("name")
    assert sorted(flows.index) == ["newreno", "reno"]
    assert (flows["type"] == "tcp").all()
    assert flows.loc["reno", "recovery"] == "reno"
    assert flows.loc["newreno", "recovery"] == "newreno"
    # Two bulk flows share a 5 Mbps bottleneck for ~5 s: both deliver, neither exceeds it.
    assert (flows["goodput_bytes"] > 0).all()
    assert (flows["goodput_bps"] > 0).all()
    assert flows["goodput_bps"].sum() <= 5e6 * 1.001
    assert flows["goodput_bps"].sum() > 5e6 * 0.3
    # RTT is at least the two-way propagation delay (2 * (access + 10 ms + 2 ms)).
    assert flows.loc["reno", "rtt_min_s"] >= 2 * (0.001 + 0.010 + 0.002) - 1e-9
    assert flows.loc["newreno", "rtt_min_s"] >= 2 * (0.006 + 0.010 + 0.002) - 1e-9

    assert "r1->r2" in set(r.queues["queue"])
    bottleneck = r.queues.set_index("queue").loc["r1->r2"]
    assert bottleneck["kind"] == "red"
    assert bottleneck["arrivals"] >= bottleneck["departures"] > 0
    assert "r1->r2" in set(r.links["link"])
    util = r.links.set_index("link").loc["r1->r2", "utilization"]
    assert 0.3 < util <= 1.0 + 1e-9


def test_timeseries_is_long_format_with_flow_and_queue_metrics(small_results):
    ts = small_results.timeseries
    assert len(ts) > 0
    assert ts["time_s"].between(0, 5.0 + 1e-9).all()
    entities = set(ts["entity"])
    assert {"reno", "newreno", "r1->r2"} <= entities
    metrics = set(ts["metric"])
    assert "cwnd" in metrics
    assert "delivered_bytes" in metrics
    # wide view: one column per flow, indexed by time
    cwnd = small_results.series("cwnd")
    assert {"reno", "newreno"} <= set(cwnd.columns)
    assert cwnd.index.name == "time_s"
    assert cwnd.index.is_monotonic_increasing
    assert (cwnd.dropna() > 0).all().all()
    # delivered bytes over the run add up to about the goodput the flow table reports
    delivered = small_results.series("delivered_bytes").sum()
    goodput = small_results.flows.set_index("name")["goodput_bytes"]
    for flow in ("reno", "newreno"):
        assert delivered[flow] == pytest.approx(goodput[flow], rel=0.05)


def test_run_from_path_str_and_text_agree(small_scenario, small_scenario_file):
    by_path = tcpsim.run(small_scenario_file)
    by_str = tcpsim.run(str(small_scenario_file))
    by_text = tcpsim.run(small_scenario)
    for name in ("flows", "queues", "links", "timeseries"):
        pd.testing.assert_frame_equal(getattr(by_path, name), getattr(by_text, name))
        pd.testing.assert_frame_equal(getattr(by_str, name), getattr(by_text, name))


def test_same_seed_same_results(small_scenario):
    a = tcpsim.run(small_scenario)
    b = tcpsim.run(small_scenario)
    pd.testing.assert_frame_equal(a.flows, b.flows)
    pd.testing.assert_frame_equal(a.timeseries, b.timeseries)


def test_no_monitor_means_empty_timeseries_with_columns(small_scenario):
    text = small_scenario.split("[monitor]")[0]
    r = tcpsim.run(text)
    assert r.timeseries.empty
    assert list(r.timeseries.columns) == TIMESERIES_COLUMNS
    assert len(r.flows) == 2


def test_read_scenario_detects_path_or_text(tmp_path, small_scenario_file):
    text, name = tcpsim.read_scenario(str(small_scenario_file))
    assert name == str(small_scenario_file) and "[simulation]" in text
    assert tcpsim.read_scenario('[simulation]\nduration = "1s"\n')[1] == "<string>"
    assert tcpsim.read_scenario('simulation.duration = "1s"')[1] == "<string>"
    with pytest.raises(FileNotFoundError):
        tcpsim.read_scenario(str(tmp_path / "missing.toml"))
    with pytest.raises(FileNotFoundError):
        tcpsim.run(tmp_path / "missing.toml")
    with pytest.raises(FileNotFoundError):
        tcpsim.read_scenario(str(tmp_path / "sweep" / "rate=10.toml"))
    with pytest.raises(TypeError):
        tcpsim.read_scenario(42)


def test_run_with_out_saves(small_scenario, tmp_path):
    r = tcpsim.run(small_scenario, out=tmp_path / "res")
    assert (tmp_path / "res" / "flows.parquet").exists()
    assert tcpsim.load_results(tmp_path / "res").flows["name"].tolist() == r.flows["name"].tolist()


# ---------------------------------------------------------------------------- storage


def test_save_load_roundtrip_parquet(small_results, tmp_path):
    out = small_results.save(tmp_path / "nested" / "run", csv=True)
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(
        [f"{t}.parquet" for t in tcpsim.TABLES] + [f"{t}.csv" for t in tcpsim.TABLES]
        + ["summary.json", "scenario.toml"]
    ), "unexpected or leftover temporary files"
    back = tcpsim.load_results(out)
    for name in tcpsim.TABLES:
        pd.testing.assert_frame_equal(getattr(back, name), getattr(small_results, name))
    assert back.summary == json.loads(json.dumps(small_results.summary, default=str))
    assert back.scenario_text == small_results.scenario_text
    # the saved scenario reproduces the run
    again = tcpsim.run(out / "scenario.toml")
    pd.testing.assert_frame_equal(again.flows, small_results.flows)


def test_save_replaces_existing_files(small_results, tmp_path):
    small_results.save(tmp_path)
    first = (tmp_path / "flows.parquet").read_bytes()
    small_results.save(tmp_path)
    assert (tmp_path / "flows.parquet").read_bytes() == first
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_load_results_reads_csv_only_directory(small_results, tmp_path):
    small_results.save(tmp_path, csv=True)
    for t in tcpsim.TABLES:
        (tmp_path / f"{t}.parquet").unlink()
    back = tcpsim.load_results(tmp_path)
    assert back.flows["name"].tolist() == small_results.flows["name"].tolist()
    np.testing.assert_allclose(back.flows["goodput_bps"], small_results.flows["goodput_bps"])


def test_load_results_missing_directory(tmp_path):
    with pytest.raises(FileNotFoundError):
        tcpsim.load_results(tmp_path / "nope")


# ---------------------------------------------------------------------------- errors


def test_scenario_error_is_value_error_and_names_the_key():
    assert issubclass(tcpsim.ScenarioError, ValueError)
    bad = '[simulation]\nduration = "ten seconds"\n'
    with pytest.raises(tcpsim.ScenarioError) as info:
        tcpsim.run(bad)
    assert "duration" in str(info.value)


def test_scenario_error_names_unknown_key_and_file(tmp_path, small_scenario):
    path = tmp_path / "typo.toml"
    path.write_text(small_scenario.replace("seed = 7", "sead = 7"), encoding="utf-8")
    with pytest.raises(tcpsim.ScenarioError) as info:
        tcpsim.run(path)
    message = str(info.value)
    assert "sead" in message
    assert "typo.toml" in message


def test_validate(small_scenario):
    assert tcpsim.validate(small_scenario) is None
    with pytest.raises(tcpsim.ScenarioError):
        tcpsim.validate(small_scenario.replace('rate = "5Mbps"', 'rate = "5 parsecs"'))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "this is not toml = = =",
        "[simulation]\n",
        '[simulation]\nduration = "0s"\n',
        '[simulation]\nduration = "-3s"\n',
        '[simulation]\nduration = "1e400s"\n',
        '[simulation]\nduration = 5\n',
        '[simulation]\nduration = "1s"\nseed = -1\n',
        '[simulation]\nduration = "1s"\n[dumbbell]\npairs = 0\n',
        '[simulation]\nduration = "1s"\n[[flow]]\nfrom = "nowhere"\nto = "elsewhere"\n',
        '[simulation]\nduration = "1s"\n[network]\nnodes = ["a", "b"]\n'
        '[[link]]\nfrom = "a"\nto = "b"\nrate = "-1Mbps"\ndelay = "1ms"\n',
        '[simulation]\nduration = "1s"\n[network]\nnodes = ["a", "b"]\n'
        '[[link]]\nfrom = "a"\nto = "b"\nrate = "1Mbps"\ndelay = "1ms"\n'
        'queue = { kind = "droptail", limit = "0p" }\n',
        '[simulation]\nduration = "1s"\n[network]\nnodes = ["a", "b"]\n'
        '[[link]]\nfrom = "a"\nto = "b"\nrate = "1Mbps"\ndelay = "1ms"\n'
        '[[flow]]\nfrom = "a"\nto = "c"\n',
        '\x00\x01\x02 binary junk \xff',
    ],
)
def test_bad_input_raises_scenario_error_not_a_crash(text):
    # Anything else (RuntimeError from a core panic, pyo3's PanicException) fails the test.
    with pytest.raises(tcpsim.ScenarioError) as info:
        _core.run_toml(text, "bad.toml", None)
    assert str(info.value).strip()


# ---------------------------------------------------------------------------- progress


def test_progress_callback_is_called_with_fractions(small_scenario):
    seen = []
    tcpsim.run(small_scenario, progress=seen.append)
    assert len(seen) >= 10
    assert all(0.0 <= f <= 1.0 for f in seen)
    assert seen == sorted(seen)
    assert seen[-1] == pytest.approx(1.0, abs=0.02)


def test_exception_in_progress_callback_propagates(small_scenario):
    class Stop(Exception):
        pass

    def callback(fraction):
        if fraction > 0.3:
            raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        tcpsim.run(small_scenario, progress=callback)
    # the module still works afterwards
    assert len(tcpsim.run(small_scenario).flows) == 2


def test_progress_true_shows_bar_without_failing(small_scenario, capsys):
    r = tcpsim.run(small_scenario, progress=True)
    assert len(r.flows) == 2


def test_parallel_runs_in_threads_agree(small_scenario):
    # The GIL is released while simulating: runs in threads overlap and must not interfere.
    results = [None] * 3

    def work(i):
        results[i] = tcpsim.run(small_scenario)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert all(r is not None for r in results)
    for r in results[1:]:
        pd.testing.assert_frame_equal(r.flows, results[0].flows)


# ---------------------------------------------------------------------------- plots


def test_plots_write_pngs(small_results, tmp_path):
    from tcpsim import plots

    written = plots.plot_all(small_results, tmp_path)
    assert sorted(p.name for p in written) == ["cwnd.png", "delay.png", "goodput_cdf.png", "loss.png", "queue.png",
                                               "throughput.png", "throughput_delay.png", "utilization.png"]
    for p in written:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert p.stat().st_size > 10_000
    fig = plots.plot_cwnd(small_results)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "time (s)" and "packets" in ax.get_ylabel()
    assert sorted(line.get_label() for line in ax.get_lines()) == ["newreno", "reno"]
    fig = plots.plot_throughput(small_results)
    assert "Mbit/s" in fig.axes[0].get_ylabel()
    assert plots.busiest_queues(small_results, 1) == ["r1->r2"]


def test_plot_all_without_timeseries_draws_only_the_flows_table(small_scenario, tmp_path):
    from tcpsim import plots

    r = tcpsim.run(small_scenario.split("[monitor]")[0])
    assert [p.name for p in plots.plot_all(r, tmp_path)] == ["goodput_cdf.png", "throughput_delay.png"]


def test_run_and_validate_take_the_limits(small_scenario):
    with pytest.raises(tcpsim.ScenarioError, match="--max-memory"):
        tcpsim.run(small_scenario, max_memory=1024)
    with pytest.raises(tcpsim.ScenarioError):
        tcpsim.validate(small_scenario, max_samples=1)
    tcpsim.validate(small_scenario, max_memory=16 << 30)
    assert set(tcpsim.default_limits()) == {"max_memory", "max_samples"}


def test_progress_true_prints_plain_lines_when_stderr_is_not_a_terminal(small_scenario, capsys, monkeypatch):
    monkeypatch.setenv("TCPSIM_PROGRESS_INTERVAL", "0")
    tcpsim.run(small_scenario, progress=True)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "of simulated time" in line]
    assert lines and lines[-1].startswith("tcpsim: 100% of simulated time"), err
    assert "\r" not in err, "no bar redraws in a log"

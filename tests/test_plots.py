"""tcpsim.plots and `tcpsim plot`: every plot on real (small) runs and a real sweep.

The figures are checked through their matplotlib objects (titles, axis labels, legend
entries, plotted data), not through pixels; the PNGs are checked to exist and be
non-trivial images.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tcpsim
from tcpsim import plots
from tcpsim.cli import main as cli_main
from tcpsim.sweep import Sweep, run_sweep

PNG = b"\x89PNG\r\n\x1a\n"
MIN_PNG_BYTES = 10_000


def _is_png(path: Path) -> bool:
    return path.exists() and path.read_bytes()[:8] == PNG and path.stat().st_size > MIN_PNG_BYTES


def _legend_texts(ax):
    leg = ax.get_legend()
    return [t.get_text() for t in leg.get_texts()] if leg is not None else []


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def run(small_scenario):
    """The conftest 2-flow RED dumbbell (5 s, every flow and queue sampled every 100 ms)."""
    return tcpsim.run(small_scenario)


@pytest.fixture(scope="module")
def many_flows():
    """40 flows through one DropTail bottleneck: the aggregate (band) view."""
    sc = tcpsim.Scenario(
        duration="3s", seed=1,
        dumbbell=tcpsim.Dumbbell(
            pairs=40, bottleneck=tcpsim.LinkSpec("20Mbps", "10ms", queue=tcpsim.DropTail(limit="100p")),
            access=tcpsim.LinkSpec("100Mbps", "1ms")),
        flows=[tcpsim.TcpFlow("s{i}", "d{i}", name="f{i}", count=40, max_window=200,
                              start_spacing="10ms")],
        monitor=tcpsim.Monitor(interval="100ms", queues=["r1->r2", "r2->r1"]),
    )
    return sc.run()


SWEEP_BASE = tcpsim.Scenario(
    duration="2s", seed=1,
    dumbbell=tcpsim.Dumbbell(pairs=2, bottleneck=tcpsim.LinkSpec("5Mbps", "10ms"),
                             access=tcpsim.LinkSpec("100Mbps", "2ms"),
                             access_delays=["1ms", "6ms"]),
    flows=[tcpsim.TcpFlow("s{i}", "d{i}", name="tcp{i}", count=2, max_window=100)],
    monitor=tcpsim.Monitor(interval="100ms", queues=["r1->r2"]),
)
QUEUE = "dumbbell.bottleneck.queue"
WINDOW = "flow[*].max_window"
RECOVERY = "flow[*].recovery"


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory):
    """A real sweep: 2 queue disciplines x 2 windows x 2 recoveries x 2 seeds = 16 runs."""
    out = tmp_path_factory.mktemp("sweep") / "sw"
    sweep = Sweep(SWEEP_BASE, grid={
        QUEUE: [{"kind": "droptail", "limit": "30p"},
                {"kind": "red", "limit": "30p", "min_th": 5, "max_th": 15}],
        WINDOW: [20, 100],
        RECOVERY: ["reno", "newreno"],
    }, seeds=[1, 2], name="plots")
    run_sweep(sweep, out, workers=2, progress=False)
    return out


@pytest.fixture(scope="module")
def sweep_table(sweep_dir):
    return tcpsim.load_sweep(sweep_dir)


# --------------------------------------------------------------------------- run plots


def test_cwnd_plot(run, tmp_path):
    fig = plots.plot_cwnd(run, tmp_path / "cwnd.png")
    assert _is_png(tmp_path / "cwnd.png")
    ax = fig.axes[0]
    assert ax.get_title() == "Congestion window"
    assert ax.get_xlabel() == "time (s)" and ax.get_ylabel() == "cwnd (packets)"
    assert [line.get_label() for line in ax.get_lines()] == ["reno", "newreno"]
    assert _legend_texts(ax) == ["reno", "newreno"]
    assert ax.get_xlim() == (0.0, 5.0)
    reno = ax.get_lines()[0]
    np.testing.assert_allclose(reno.get_ydata(), run.series("cwnd")["reno"].to_numpy())


def test_throughput_plot(run, tmp_path):
    fig = plots.plot_throughput(run, tmp_path / "tput.png")
    assert _is_png(tmp_path / "tput.png")
    ax = fig.axes[0]
    assert ax.get_title() == "Per-flow throughput (goodput)"
    assert ax.get_xlabel() == "time (s)"
    assert ax.get_ylabel() == "throughput (Mbit/s, 1 s average)"
    assert _legend_texts(ax) == ["reno", "newreno"]
    # raw intervals: 8 * bytes / 0.1 s, in Mbit/s
    raw = plots.plot_throughput(run, average=None).axes[0]
    assert raw.get_ylabel() == "throughput (Mbit/s, per 100 ms)"
    y = raw.get_lines()[0].get_ydata()
    expected = run.series("delivered_bytes")["reno"].to_numpy() * 8 / 0.1 / 1e6
    np.testing.assert_allclose(y[-len(expected):], expected)


def test_queue_plot_has_length_red_average_and_drop_panel(run, tmp_path):
    fig = plots.plot_queue(run, tmp_path / "queue.png")
    assert _is_png(tmp_path / "queue.png")
    top, bottom = fig.axes
    assert top.get_title() == "Queue r1->r2 (RED)"
    assert top.get_ylabel() == "queue length (packets)"
    assert [line.get_label() for line in top.get_lines()] == ["queue length", "RED average"]
    assert bottom.get_xlabel() == "time (s)"
    assert bottom.get_title() == "Drops per 100 ms" and bottom.get_ylabel() == "packets"
    q = run.queues.set_index("queue").loc["r1->r2"]
    assert q["early_drops"] > 0 and q["overflow_drops"] > 0  # the scenario drops both ways
    # totals in the legend = the queue table's counters = the sum of the per-interval bars
    assert _legend_texts(bottom) == [f"early drops (RED): {q['early_drops']}",
                                     f"overflow drops (buffer full): {q['overflow_drops']}"]
    early, overflow = bottom.patches  # stacked step patches, one per kind of drop
    for patch, total in ((early, q["early_drops"]), (overflow, q["overflow_drops"])):
        values, edges, baseline = patch.get_data()
        assert round(float(np.sum(values - baseline))) == total
        # each step covers the interval (t - 0.1 s, t] its sample counts
        assert set(np.round(np.diff(edges), 9)) == {0.1}
    assert np.allclose(overflow.get_data()[2], early.get_data()[0])  # stacked on early


def test_queue_plot_on_given_axes_marks_drops(run):
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot()
    assert plots.plot_queue(run, ax=ax) is fig
    labels = [line.get_label() for line in ax.get_lines()]
    q = run.queues.set_index("queue").loc["r1->r2"]
    assert f"early drops (RED): {q['early_drops']}" in labels
    assert f"overflow drops (buffer full): {q['overflow_drops']}" in labels
    assert ax.get_xlabel() == "time (s)"
    with pytest.raises(ValueError, match="panel"):
        plots.plot_queue(run, ax=ax, drops="panel")
    with pytest.raises(ValueError, match="drops must be"):
        plots.plot_queue(run, drops="bars")


def test_utilization_plot(run, tmp_path):
    fig = plots.plot_utilization(run, tmp_path / "util.png")
    assert _is_png(tmp_path / "util.png")
    ax = fig.axes[0]
    assert ax.get_title() == "Link utilization"
    assert ax.get_xlabel() == "time (s)"
    assert ax.get_ylabel() == "utilization (% of link rate, per 100 ms)"
    assert ax.get_ylim()[0] == 0 and ax.get_ylim()[1] >= 100
    mean = run.links.set_index("link").loc["r1->r2", "utilization"]
    texts = _legend_texts(ax)
    # only the busy directions (12 are sampled; the access links carry a few % at most)
    assert texts[0] == f"r1->r2 (run mean {mean * 100:.1f} %)"
    assert all("->" in t for t in texts) and len(texts) <= plots.MAX_LINKS
    assert "sampled link directions" in ax.get_legend().get_title().get_text()
    line = ax.get_lines()[0]
    np.testing.assert_allclose(line.get_ydata(), run.series("utilization")["r1->r2"] * 100)
    chosen = plots.plot_utilization(run, links=["r2->r1"]).axes[0]
    assert [l.get_label().split(" ")[0] for l in chosen.get_lines()[:1]] == ["r2->r1"]


def test_plot_all_writes_the_run_plots(run, tmp_path):
    written = plots.plot_all(run, tmp_path)
    assert [p.name for p in written] == ["cwnd.png", "throughput.png", "queue.png",
                                         "utilization.png", "loss.png", "delay.png",
                                         "goodput_cdf.png", "throughput_delay.png"]
    assert all(_is_png(p) for p in written)


def test_plots_without_time_series(small_scenario, tmp_path):
    r = tcpsim.run(small_scenario.split("[monitor]")[0])
    assert [p.name for p in plots.plot_all(r, tmp_path)] == ["goodput_cdf.png", "throughput_delay.png"]
    fig = plots.plot_queue(r)  # draws a note instead of failing
    assert "no queue samples" in fig.axes[0].texts[0].get_text()


def test_many_flows_use_an_aggregate_view(many_flows, tmp_path):
    for draw in (plots.plot_cwnd, plots.plot_throughput):
        fig = draw(many_flows, tmp_path / f"{draw.__name__}.png")
        assert _is_png(tmp_path / f"{draw.__name__}.png")
        ax = fig.axes[0]
        assert _legend_texts(ax) == ["each flow", "10th-90th percentile", "median"]
        assert ax.get_legend().get_title().get_text() == "40 flows"
        # the 40 individual lines are drawn, unlabelled
        assert sum(1 for l in ax.get_lines() if l.get_label().startswith("_")) == 40
    fig = plots.plot_queue(many_flows)
    # DropTail: no "early drops" entry, only overflow drops
    assert [t.split(":")[0] for t in _legend_texts(fig.axes[1])] == ["overflow drops (buffer full)"]
    assert fig.axes[0].get_title() == "Queue r1->r2 (DropTail)"


# --------------------------------------------------------------------------- sweep plots


def test_sweep_parameters(sweep_table):
    assert plots.sweep_parameters(sweep_table) == [QUEUE, WINDOW, RECOVERY, "seed"]


def test_sweep_plot_mean_and_sd_across_seeds(sweep_table, tmp_path):
    fig = plots.sweep_plot(sweep_table, x=WINDOW, y="goodput_bps", hue=RECOVERY,
                           path=tmp_path / "s.png")
    assert _is_png(tmp_path / "s.png")
    ax = fig.axes[0]
    assert ax.get_xlabel() == "max_window of every flow"  # the key flow[*].max_window in words
    assert ax.get_ylabel() == "aggregate goodput (Mbit/s)"
    assert ax.get_title() == "Aggregate goodput vs max_window\n(mean ± 1 SD over 2 runs per point)"
    # the queue discipline also varies: it goes into the labels, never averaged over
    assert ax.get_legend().get_title().get_text() == "recovery, queue"
    assert _legend_texts(ax) == ["reno, queue=droptail", "reno, queue=red",
                                 "newreno, queue=droptail", "newreno, queue=red"]
    t = sweep_table
    sel = t[(t[RECOVERY] == "reno") & (t[QUEUE].str.contains("droptail"))]
    stats = sel.groupby(WINDOW)["goodput_bps"].agg(["mean", "std"]) / 1e6
    container = ax.containers[0]
    data_line, _, (bars,) = container.lines
    np.testing.assert_allclose(data_line.get_ydata(), stats["mean"].to_numpy())
    half = [abs(seg[1][1] - seg[0][1]) / 2 for seg in bars.get_segments()]
    np.testing.assert_allclose(half, stats["std"].to_numpy())


@pytest.mark.parametrize("key, words", [
    ("dumbbell.bottleneck.queue.max_th", "max_th of the bottleneck queue discipline"),
    ("dumbbell.access.queue", "the access links queue discipline"),
    ("flow[*].recovery", "every flow's loss recovery"),
    ("flow[0].cc.alpha", "alpha of flow 0's congestion control"),
    ("link[2].queue_reverse.max_p", "max_p of link 2's reverse-direction queue discipline"),
    ("simulation.duration", "duration of the simulation"),
    ("dumbbell.pairs", "pairs of the dumbbell"),
    ("seed", "seed"),
])
def test_a_swept_key_is_labelled_in_words(key, words):
    """Sweep plots label their x axis with what the key sets and where, model slots by
    their family's title in the catalogue, not with the key path itself."""
    from tcpsim.plots.sweep_table import parameter_label

    assert parameter_label(key) == words


def test_sweep_plot_ci95_and_categorical_x(sweep_table):
    fig = plots.sweep_plot(sweep_table, x=QUEUE, y="jain_index", hue=RECOVERY, error="ci95")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["droptail", "red"]
    assert ax.get_ylabel() == "Jain's fairness index"
    assert "mean ± 95 % CI over 2 runs per point" in ax.get_title()
    t = sweep_table
    sel = t[(t[RECOVERY] == "reno") & (t[WINDOW] == 20)]
    stats = sel.groupby(QUEUE, sort=False)["jain_index"].agg(["mean", "std", "count"])
    _, _, (bars,) = ax.containers[0].lines
    half = [abs(seg[1][1] - seg[0][1]) / 2 for seg in bars.get_segments()]
    # 2 runs: t(0.975, 1 dof) = 12.706 (printed tables round it to three decimals)
    np.testing.assert_allclose(half, 12.706 * stats["std"].to_numpy() / np.sqrt(2), rtol=1e-4)


def test_sweep_plot_defaults(sweep_table, sweep_dir):
    ax = plots.sweep_plot(sweep_table).axes[0]  # x: the numeric parameter, hue: fewest values
    assert ax.get_xlabel() == "max_window of every flow"
    assert ax.get_ylabel() == "aggregate goodput (Mbit/s)"
    assert len(ax.containers) == 4
    again = plots.sweep_plot(sweep_dir, y="rtt_mean_s").axes[0]  # a directory works too
    assert again.get_ylabel() == "mean RTT (ms)"


def test_sweep_plot_errors(sweep_table):
    with pytest.raises(ValueError, match="no column 'nope'.*metrics: .*goodput_bps"):
        plots.sweep_plot(sweep_table, y="nope")
    with pytest.raises(ValueError, match="no column 'nope'.*parameters: .*seed"):
        plots.sweep_plot(sweep_table, x="nope")
    with pytest.raises(ValueError, match="not numeric"):
        plots.sweep_plot(sweep_table, y="bottleneck")
    with pytest.raises(ValueError, match="error must be"):
        plots.sweep_plot(sweep_table, error="se")


def test_plot_sweep_all(sweep_table, tmp_path):
    written = plots.plot_sweep_all(sweep_table, tmp_path)
    assert [p.name for p in written] == [f"sweep_{m}.png" for m in plots.DEFAULT_SWEEP_METRICS]
    assert all(_is_png(p) for p in written)


# --------------------------------------------------------------------------- tcpsim plot


def _cli(prefix, *args):
    return subprocess.run(prefix + [str(a) for a in args], capture_output=True, text=True,
                          timeout=300)


def test_cli_plot_run_dir(tcpsim_cli, small_scenario_file, tmp_path):
    out = tmp_path / "run"
    assert _cli(tcpsim_cli, "run", small_scenario_file, "--out", out, "-q").returncode == 0
    proc = _cli(tcpsim_cli, "plot", out)
    assert proc.returncode == 0, proc.stderr
    names = ["cwnd.png", "throughput.png", "queue.png", "utilization.png", "loss.png", "delay.png",
             "goodput_cdf.png", "throughput_delay.png"]
    assert proc.stdout.split() == [str(out / n) for n in names]
    assert all(_is_png(out / n) for n in names)


def test_cli_plot_sweep_dir(tcpsim_cli, sweep_dir, tmp_path):
    proc = _cli(tcpsim_cli, "plot", sweep_dir, "--out", tmp_path / "a")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(tmp_path / "a" / f"sweep_{m}.png")
                                   for m in plots.DEFAULT_SWEEP_METRICS]
    proc = _cli(tcpsim_cli, "plot", sweep_dir, "--out", tmp_path / "b", "--x", QUEUE,
                "--hue", WINDOW, "--y", "jain_index,goodput_bps", "--y", "timeouts",
                "--error", "ci95")
    assert proc.returncode == 0, proc.stderr
    assert [Path(p).name for p in proc.stdout.split()] == [
        "sweep_jain_index.png", "sweep_goodput_bps.png", "sweep_timeouts.png"]
    assert all(_is_png(Path(p)) for p in proc.stdout.split())


def test_cli_plot_errors(sweep_dir, tmp_path, capsys, run):
    def call(*args):
        status = cli_main(["plot", *map(str, args)])
        return status, capsys.readouterr().err

    (tmp_path / "empty").mkdir()
    status, err = call(tmp_path / "empty")
    assert status == 2
    assert "neither a run results directory (flows.parquet" in err
    assert "nor a sweep directory (sweep.parquet" in err

    status, err = call(tmp_path / "missing")
    assert status == 2 and "no such directory" in err

    unfinished = tmp_path / "unfinished"
    (unfinished / "runs").mkdir(parents=True)
    status, err = call(unfinished)
    assert status == 1 and "has not finished" in err

    run.save(tmp_path / "r")
    status, err = call(tmp_path / "r", "--x", "seed")
    assert status == 2 and "--x applies only to sweep directories" in err

    status, err = call(sweep_dir, "--y", "nope", "--out", tmp_path / "x")
    assert status == 2 and "no column 'nope'" in err and "Traceback" not in err


# --------------------------------------------------------------------------- issue 8 plots


def test_thirty_flows_get_thirty_distinct_styles_and_a_legend_outside(tmp_path):
    sc = tcpsim.Scenario(
        duration="1s", seed=1,
        dumbbell=tcpsim.Dumbbell(
            pairs=30, bottleneck=tcpsim.LinkSpec("30Mbps", "5ms", queue=tcpsim.DropTail(limit="100p")),
            access=tcpsim.LinkSpec("100Mbps", "1ms")),
        flows=[tcpsim.TcpFlow("s{i}", "d{i}", name="f{i}", count=30, max_window=100)],
        monitor=tcpsim.Monitor(interval="100ms", queues=["r1->r2"]),
    )
    r = sc.run()
    fig = plots.plot_cwnd(r, tmp_path / "cwnd.png")
    ax = fig.axes[0]
    lines = [l for l in ax.get_lines() if not l.get_label().startswith("_")]
    assert len(lines) == 30
    looks = {(l.get_color(), l.get_linestyle()) for l in lines}
    assert len(looks) == 30, "every flow its own (colour, dash)"
    # The legend sits outside the axes (right of them), so it hides no line.
    fig.canvas.draw()
    legend_box = ax.get_legend().get_window_extent()
    axes_box = ax.get_window_extent()
    assert legend_box.x0 >= axes_box.x1, (legend_box, axes_box)
    assert len(_legend_texts(ax)) == 30


def test_loss_rate_and_queue_delay_over_time(run):
    ax = plots.plot_loss_rate(run).axes[0]
    assert "%" in ax.get_ylabel() and ax.get_xlabel() == "time (s)"
    arrivals = run.series("arrivals")["r1->r2"]
    drops = run.series("early_drops")["r1->r2"] + run.series("overflow_drops")["r1->r2"]
    line = ax.get_lines()[0]
    expected = (100 * drops / arrivals.where(arrivals > 0)).to_numpy()
    np.testing.assert_allclose(np.asarray(line.get_ydata(), dtype=float), expected, equal_nan=True)
    assert "whole run" in _legend_texts(ax)[0]

    ax = plots.plot_queue_delay(run).axes[0]
    assert "ms" in ax.get_ylabel()
    delay = run.series("sojourn_s", ["r1->r2"])["r1->r2"] * 1e3
    np.testing.assert_allclose(np.asarray(ax.get_lines()[0].get_ydata(), dtype=float), delay.to_numpy())
    # The whole-run mean in the legend is the queues table's.
    q = run.queues.set_index("queue").loc["r1->r2"]
    assert f"{q['mean_sojourn_s'] * 1e3:.1f} ms" in _legend_texts(ax)[0]


def test_goodput_cdf_is_monotonic_and_ends_at_one(run, many_flows):
    ax = plots.plot_goodput_cdf({"2 flows": run, "40 flows": many_flows}).axes[0]
    assert ax.get_ylim() == (0.0, 1.0) and "Mbit/s" in ax.get_xlabel()
    for line, r in zip(ax.get_lines(), (run, many_flows)):
        y = np.asarray(line.get_ydata(), dtype=float)
        x = np.asarray(line.get_xdata(), dtype=float)
        assert np.all(np.diff(y) >= 0) and np.all(np.diff(x) >= 0)
        assert y[0] == 0.0 and y[-1] == 1.0
        assert x[-1] == pytest.approx(r.flows["goodput_bps"].max() / 1e6)
    assert [t.split(" (")[0] for t in _legend_texts(ax)] == ["2 flows", "40 flows"]


def test_throughput_delay_scatter_has_one_point_per_flow(run):
    ax = plots.plot_throughput_delay(run).axes[0]
    offsets = np.concatenate([c.get_offsets() for c in ax.collections])
    assert len(offsets) == len(run.flows)
    np.testing.assert_allclose(sorted(offsets[:, 1]), sorted(run.flows["goodput_bps"] / 1e6))
    assert ax.get_xlabel() == "mean RTT (ms)" and ax.get_ylabel() == "goodput (Mbit/s)"


def test_jain_axis_never_goes_past_one(sweep_table):
    ax = plots.sweep_plot(sweep_table, y="jain_index").axes[0]
    assert ax.get_ylim()[1] <= 1.0


def test_two_parameter_sweeps_facet_by_the_second(sweep_table, tmp_path):
    params = plots.sweep_parameters(sweep_table)
    col = next(p for p in params if p != "seed" and sweep_table[p].nunique() > 1)
    others = [p for p in params if p not in (col, "seed") and sweep_table[p].nunique() > 1]
    fig = plots.sweep_facets(sweep_table, col=col, x=others[0] if others else None,
                             y="goodput_bps", path=tmp_path / "facets.png")
    visible = [a for a in fig.axes if a.get_visible()]
    assert len(visible) == sweep_table[col].nunique()
    assert all(a.get_title().startswith(col.rsplit(".", 1)[-1]) for a in visible)
    assert sum(a.get_legend() is not None for a in visible) <= 1
    assert _is_png(tmp_path / "facets.png")


def test_results_html_view_escapes_names(small_scenario):
    r = tcpsim.run(small_scenario.replace('name = "reno"', 'name = "<reno>"'))
    html = r._repr_html_()
    assert "&lt;reno&gt;" in html and "<reno>" not in html
    assert "aggregate goodput" in html and "<table" in html


# --------------------------------------------------------------------------- issue 17: publication-ready figures


def _png_dpi(path: Path):
    from PIL import Image

    with Image.open(path) as im:
        return im.info.get("dpi", (0, 0))


def _texts(fig):
    """Every title, axis label and legend text of a figure."""
    out = [fig._suptitle.get_text()] if fig._suptitle is not None else []
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        if ax.get_legend() is not None:
            out.append(ax.get_legend().get_title().get_text())
    return [t for t in out if t]


def _internal_names(results):
    return (set(results.metrics()) | set(results.flows.columns) | set(results.queues.columns)
            | set(results.links.columns))


def test_run_plots_are_written_at_150_dpi_or_more_with_labels_in_words(run, tmp_path):
    from tcpsim.plots.standard import RUN_PLOTS

    written = plots.plot_all(run, tmp_path)
    assert written
    for path in written:
        assert min(_png_dpi(path)) >= 150, path.name
    internal = _internal_names(run)
    with_underscore = [n for n in internal if "_" in n]
    for name, draw, _needs in RUN_PLOTS:
        fig = draw(run)
        for text in _texts(fig):
            assert text not in internal, (name, text)
            assert not [n for n in with_underscore if n in text], (name, text)
        for ax in fig.axes:
            if ax.get_legend() is not None:  # legends readable: no shrunk fonts
                assert min(t.get_fontsize() for t in ax.get_legend().get_texts()) >= 9, name
        assert fig.get_layout_engine() is not None, name  # constrained layout: no overlaps


def test_sweep_plots_are_written_at_150_dpi_or_more_with_metrics_in_words(sweep_table, tmp_path):
    written = plots.plot_sweep_all(sweep_table, tmp_path)
    assert written
    for path in written:
        assert min(_png_dpi(path)) >= 150, path.name
        metric = path.stem[len("sweep_"):]
        ax = plots.sweep_plot(sweep_table, y=metric).axes[0]
        assert ax.get_ylabel() != metric and not ("_" in metric and metric in ax.get_ylabel())
        assert ax.get_ylabel() == plots.sweep_table._axis_label(metric)


def test_format_option_writes_pdf_and_svg(small_scenario_file, sweep_dir, tmp_path, capsys):
    out = tmp_path / "run"
    assert cli_main(["run", str(small_scenario_file), "--out", str(out), "-q", "--plot",
                     "--format", "pdf"]) == 0
    pdfs = sorted(p.name for p in out.glob("*.pdf"))
    assert pdfs == sorted(f"{name}.pdf" for name, _, _ in plots.RUN_PLOTS)
    assert not list(out.glob("*.png"))
    for p in out.glob("*.pdf"):
        data = p.read_bytes()
        assert data[:5] == b"%PDF-" and b"/Type3" not in data  # fonts embedded as TrueType

    assert cli_main(["plot", str(out), "--format", "svg", "--out", str(tmp_path / "svg")]) == 0
    svgs = [Path(p) for p in capsys.readouterr().out.split()]
    assert [p.suffix for p in svgs] == [".svg"] * len(plots.RUN_PLOTS)
    text = svgs[0].read_text()
    assert "<svg" in text and "time (s)" in text  # labels kept as text, editable

    assert cli_main(["plot", str(sweep_dir), "--format", "pdf", "--y", "jain_index",
                     "--out", str(tmp_path / "sweep")]) == 0
    assert (tmp_path / "sweep" / "sweep_jain_index.pdf").read_bytes()[:5] == b"%PDF-"

    with pytest.raises(ValueError, match="format must be one of png, pdf, svg"):
        plots.plot_all(tcpsim.Results.__new__(tcpsim.Results), tmp_path, format="eps")
    with pytest.raises(SystemExit):
        cli_main(["plot", str(out), "--format", "eps"])


def test_throughput_delay_tells_congestion_controls_apart(small_scenario):
    text = small_scenario.replace('recovery = "newreno"', 'cc = "vegas"\nrecovery = "vegas"')
    r = tcpsim.run(text)
    assert sorted(r.flows["cc"]) == ["reno", "vegas"]
    ax = plots.plot_throughput_delay(r).axes[0]
    assert _legend_texts(ax) == ["reno (1 flow)", "vegas (1 flow)"]
    assert ax.get_legend().get_title().get_text() == "congestion control"
    reno, vegas = ax.collections
    assert reno.get_facecolor().tolist() != vegas.get_facecolor().tolist()
    assert reno.get_paths()[0] != vegas.get_paths()[0]  # different markers too
    # several runs: colour per run, marker per cc, the legend names both
    ax = plots.plot_throughput_delay({"A": r, "B": r}).axes[0]
    assert _legend_texts(ax) == ["A, reno (1 flow)", "A, vegas (1 flow)",
                                 "B, reno (1 flow)", "B, vegas (1 flow)"]


def test_throughput_delay_tells_loss_recoveries_apart_under_one_congestion_control(run):
    # The conftest run (like examples/dumbbell.toml): both flows Reno windows, one with
    # Reno and one with NewReno loss recovery. Grouping by cc alone put them in one group.
    assert sorted(run.flows["cc"]) == ["reno", "reno"]
    assert sorted(run.flows["recovery"]) == ["newreno", "reno"]
    ax = plots.plot_throughput_delay(run).axes[0]
    assert ax.get_legend().get_title().get_text() == "congestion control, loss recovery"
    assert _legend_texts(ax) == ["reno with reno loss recovery (1 flow)",
                                 "reno with newreno loss recovery (1 flow)"]
    reno, newreno = ax.collections
    assert reno.get_paths()[0] != newreno.get_paths()[0]  # one marker per group
    assert reno.get_facecolor().tolist() != newreno.get_facecolor().tolist()
    by_name = run.flows.set_index("name")
    assert reno.get_offsets()[0][1] == pytest.approx(by_name.loc["reno", "goodput_bps"] / 1e6)
    assert newreno.get_offsets()[0][1] == pytest.approx(by_name.loc["newreno", "goodput_bps"] / 1e6)


def test_throughput_delay_names_flows_that_nothing_else_tells_apart(small_scenario):
    r = tcpsim.run(small_scenario.replace('recovery = "reno"', 'recovery = "newreno"'))
    assert set(r.flows["recovery"]) == {"newreno"}
    ax = plots.plot_throughput_delay(r).axes[0]
    assert ax.get_legend().get_title().get_text() == "congestion control, flow"
    assert _legend_texts(ax) == ["reno, reno (1 flow)", "reno, newreno (1 flow)"]


def test_queue_plot_shows_ecn_marks_beside_the_drops(small_scenario):
    text = small_scenario.replace("max_th = 15 }", "max_th = 15, ecn = true }") \
        .replace("max_window = 100", "max_window = 100\necn = true")
    r = tcpsim.run(text)
    q = r.queues.set_index("queue").loc["r1->r2"]
    assert q["marks"] > 0
    bottom = plots.plot_queue(r).axes[1]
    texts = _legend_texts(bottom)
    assert f"ECN marks: {q['marks']:,}" in texts
    assert bottom.get_title() == "Drops and ECN marks per 100 ms" and bottom.get_ylabel() == "packets"
    marks = next(p for p in bottom.patches if p.get_label().startswith("ECN marks"))
    values, _edges, baseline = marks.get_data()
    assert not marks.get_fill() and not np.any(baseline)  # a line of its own, not stacked
    assert round(float(np.sum(values))) == q["marks"]

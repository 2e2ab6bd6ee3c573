"""A run's results keep the core's columns until a DataFrame is asked for (issue 22: a
sweep saves each run and computes its metrics without pandas). The files and metrics
must be exactly those of the DataFrame path: these tests compare the two on runs whose
tables have NaN values, recorded-value columns, flow groups and non-TCP flows."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from tcpsim._core import run_toml
from tcpsim.results import TABLES, Results, load_results
from tcpsim.sweep.metrics import run_metrics

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: ecn_red: RED with ECN; reno_gamma_vs_reno: recorded values, NaN for the Reno flows;
#: subnets_red_ecn: flow groups; tfrc_vs_reno: a non-TCP flow.
SCENARIOS = ("ecn_red", "reno_gamma_vs_reno", "subnets_red_ecn", "tfrc_vs_reno")


def _two_copies(name: str):
    """The same run's results twice: one left as the core's columns, one whose tables
    were built as DataFrames (as a user reading ``results.flows`` does)."""
    text = (EXAMPLES / f"{name}.toml").read_text()
    raw = run_toml(text, f"{name}.toml", None)
    columns = Results.from_core(raw, scenario_text=text)
    frames = Results.from_core(raw, scenario_text=text)
    frames.summary = dict(columns.summary)  # the same run id
    for table in TABLES:
        getattr(frames, table)
    assert not columns._frames and set(frames._frames) == set(TABLES)
    return columns, frames


@pytest.mark.parametrize("name", SCENARIOS)
def test_saving_from_columns_writes_the_dataframes_files(name, tmp_path):
    columns, frames = _two_copies(name)
    columns.save(tmp_path / "columns", csv=True)
    frames.save(tmp_path / "frames", csv=True)
    assert not columns._frames, "saving built a DataFrame"
    written = sorted(p.name for p in (tmp_path / "frames").iterdir())
    assert written == sorted(p.name for p in (tmp_path / "columns").iterdir())
    for file_name in written:  # Parquet, CSV and summary.json: the same bytes
        assert (tmp_path / "columns" / file_name).read_bytes() == (tmp_path / "frames" / file_name).read_bytes(), file_name
    back = load_results(tmp_path / "columns")
    for table in TABLES:
        pd.testing.assert_frame_equal(getattr(back, table), getattr(frames, table), check_exact=True)


@pytest.mark.parametrize("name", SCENARIOS)
def test_run_metrics_from_columns_equal_those_from_dataframes(name, tmp_path):
    columns, frames = _two_copies(name)
    from_columns = run_metrics(columns)
    assert not columns._frames, "run_metrics built a DataFrame"
    from_frames = run_metrics(frames)
    from_disk = run_metrics(load_results(frames.save(tmp_path / "run")))
    for key, value in from_columns.items():
        for other in (from_frames[key], from_disk[key]):
            assert type(value) is type(other), key
            assert value == other or (isinstance(value, float) and math.isnan(value) and math.isnan(other)), key


def test_a_table_set_by_the_user_replaces_the_cores_columns(tmp_path):
    columns, _ = _two_copies("ecn_red")
    columns.flows = columns.flows.head(1)
    columns.save(tmp_path / "run")
    assert len(load_results(tmp_path / "run").flows) == 1

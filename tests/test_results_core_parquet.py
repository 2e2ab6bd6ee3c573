"""The files a sweep's run writes through the core (`tcpsim.results.run_to_files`: the core
writes the Parquet tables itself, issue 22) hold the same tables, summary and metrics as
the files `Results` writes from pandas."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from tcpsim import _core
from tcpsim.results import TABLES, Results, load_results, run_to_files
from tcpsim.sweep.metrics import run_metrics, table_metrics

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _without_monitor(text: str) -> str:
    """The scenario without its [monitor] table: a run with an empty time series."""
    return re.sub(r"\n\[monitor\]\n(?:[^\[\n][^\n]*\n?)*", "\n", text)


SCENARIOS = {
    "ecn_red": (EXAMPLES / "ecn_red.toml").read_text(),  # marks, a RED queue sampled
    "subnets_red_ecn": re.sub(r'duration = "20s"', 'duration = "1s"',  # flow groups
                              (EXAMPLES / "subnets_red_ecn.toml").read_text()),
    "no_timeseries": _without_monitor((EXAMPLES / "ecn_red.toml").read_text()),
    "recorded": re.sub(r'duration = "60s"', 'duration = "5s"',
                       (EXAMPLES / "reno_gamma_vs_reno.toml").read_text()),  # gamma_* columns
}


def _same_metrics(a: dict, b: dict) -> bool:
    def same(x, y):
        if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
            return True
        return type(x) is type(y) and x == y

    return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_core_written_run_reads_back_as_the_pandas_written_one(name, tmp_path):
    text = SCENARIOS[name]
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    Results.from_core(_core.run_toml(text, name, None), scenario_text=text)._write_files(old)
    raw = run_to_files(text, name, new)

    assert sorted(p.name for p in new.iterdir()) == sorted(p.name for p in old.iterdir())
    if name == "no_timeseries":
        assert "timeseries" not in raw["written"]  # written from pandas: its untyped columns
        assert len(pd.read_parquet(new / "timeseries.parquet")) == 0
    else:
        assert raw["written"] == list(TABLES)
    rid = raw["summary"]["run_uuid"]
    for table in TABLES:
        path = new / f"{table}.parquet"
        assert pq.read_schema(path).metadata[b"tcpsim.run_uuid"].decode() == rid
        # Values, column order and dtypes as pandas reads them back, exactly.
        pd.testing.assert_frame_equal(pd.read_parquet(path), pd.read_parquet(old / f"{table}.parquet"),
                                      check_exact=True)

    before, after = load_results(old), load_results(new)  # the run id and checksums check out
    for table in TABLES:
        pd.testing.assert_frame_equal(getattr(after, table), getattr(before, table), check_exact=True)
    assert after.scenario_text == text
    assert after.run_uuid == rid
    changing = {"run_uuid", "wall_seconds"}  # two runs of one scenario: the rest is equal
    assert ({k: v for k, v in after.summary.items() if k not in changing}
            == {k: v for k, v in before.summary.items() if k not in changing})

    # The sweep's metrics from the core's lists are run_metrics of the saved tables.
    from_lists = table_metrics(raw["flows"], raw["queues"], raw["links"], raw["summary"])
    assert _same_metrics(from_lists, run_metrics(after))


def test_the_core_names_a_directory_it_cannot_write(tmp_path):
    missing = tmp_path / "no" / "such"
    with pytest.raises(OSError, match=r"cannot write .*no/such/flows\.parquet"):
        run_to_files(SCENARIOS["ecn_red"], "ecn_red", missing)

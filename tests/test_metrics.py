"""Tests of tcpsim.metrics: hand-computed values, the reference documents' own worked
examples (with the place in the document each comes from), and one real run.

Document numbers: 000 = Reno/Vegas dynamic-RED thesis, 001 = Quick Vegas, 002 = ECN over
AQM thesis, 003 = smoothness paper (Zhang & Tsaoussidis), 004 = Vegas/Sack/Fack ns-2 study.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from tcpsim import metrics as m

# ------------------------------------------------------------------ 000 thesis tables
# 000 Table 4.3 (seeds/000_a1b8c5f2642f97f7.txt lines 694-712), throughput in Kbps,
# columns: Drop-tail 8V2R | RED +20% | +10% | 8V2R (exact n) | -10% | -20%.
T43_VEGAS = {
    "dt": [80, 80, 80, 80, 80, 80, 80, 80],
    "+20": [64, 120, 64, 144, 144, 104, 112, 168],
    "+10": [128, 72, 88, 112, 176, 152, 136, 72],
    "exact": [80, 120, 152, 96, 184, 152, 80, 192],
    "-10": [104, 96, 112, 80, 184, 168, 232, 256],
    "-20": [112, 96, 96, 120, 128, 328, 216, 192],
}
T43_RENO = {
    "dt": [664, 672], "+20": [504, 512], "+10": [488, 512],
    "exact": [432, 456], "-10": [352, 360], "-20": [304, 336],
}
# "Fairness	0.11976	0.2028	0.234	0.2973	0.4326	0.48125"   (line 710)
T43_FAIRNESS = {"dt": 0.11976, "+20": 0.2028, "+10": 0.234, "exact": 0.2973, "-10": 0.4326, "-20": 0.48125}
# "Total	1976	1936	1936	1944	1944	1928"            (line 711)
# "Utilization	0.988	0.968	0.968	0.972	0.972	0.964"   (line 712)
T43_TOTAL = {"dt": 1976, "+20": 1936, "+10": 1936, "exact": 1944, "-10": 1944, "-20": 1928}
T43_UTIL = {"dt": 0.988, "+20": 0.968, "+10": 0.968, "exact": 0.972, "-10": 0.972, "-20": 0.964}


# ================================================================== Jain's index

def test_jain_hand_computed():
    assert m.jain_index([1, 1, 1, 1]) == 1.0
    # one flow takes everything: 1/n
    assert m.jain_index([5, 0, 0, 0]) == pytest.approx(0.25)
    # (1+2+3)^2 / (3 * (1+4+9)) = 36/42
    assert m.jain_index([1, 2, 3]) == pytest.approx(36 / 42)
    # scale invariant
    assert m.jain_index(np.array([2, 4, 6]) * 1e6) == pytest.approx(36 / 42)
    assert m.jain_index(pd.Series([3.0])) == 1.0


def test_jain_document_003_example():
    # 003 §4.2 (seeds/003_8476b456f8c5eb7d.txt line 209): "consider a scenario of 6 flows,
    # the throughputs of which are 9 Mbps, 9.5 Mbps, 8.5 Mbps, 9 Mbps, 9 Mbps, and 6 Mbps,
    # respectively. The traditional "average-case" fairness index is 0.982 ... all flows
    # achieve 9.5 Mbps, and both the "average-case" fairness index and worst-case fairness
    # index are 1.0."
    x = [9, 9.5, 8.5, 9, 9, 6]
    assert m.jain_index(x) == pytest.approx(2601 / 2649)  # Σ = 51, Σx² = 441.5
    assert round(m.jain_index(x), 3) == 0.982
    assert m.jain_index([9.5] * 6) == 1.0


def test_jain_equals_one_over_one_plus_cov_squared():
    # Identity used by reference 002 §8.5 (CV = sqrt(1/J - 1)): with the population CoV
    # across flows, J = 1 / (1 + CoV²).
    rng = np.random.default_rng(3)
    for _ in range(20):
        x = rng.uniform(0.1, 10, size=rng.integers(2, 30))
        cov = np.std(x) / np.mean(x)
        assert m.jain_index(x) == pytest.approx(1 / (1 + cov**2))


def test_jain_reference_002_rtt_bias_check():
    # Reference 002 §8.5 sanity point [derived there]: subnet goodput proportional to
    # 1/RTT with RTTs 60, 80, 100, 120, 140 ms gives J = 0.9124 (the thesis' RED value,
    # Table 3-3, seeds/002 line 1490: "Jain's Fairness Index is 0.9124 for RED").
    x = 1 / np.array([60, 80, 100, 120, 140.0])
    assert round(m.jain_index(x), 4) == 0.9124


@pytest.mark.parametrize("bad, msg", [
    ([], "empty"), ([0, 0], "zero"), ([1, -1], "negative"), ([1, np.nan], "NaN"),
    ([[1, 2], [3, 4]], "1-D"),
])
def test_jain_errors(bad, msg):
    with pytest.raises(ValueError, match=msg):
        m.jain_index(bad)


# ================================================================== worst-case fairness

def test_worst_case_fairness_hand_computed():
    assert m.worst_case_fairness([2, 4, 8]) == 0.25
    assert m.worst_case_fairness([3, 3]) == 1.0
    assert m.worst_case_fairness([0, 3]) == 0.0


def test_worst_case_fairness_document_003_example_disagrees_with_formula():
    # 003 §4.2 (seeds/003 line 207): "WorstCaseFairness = min_i throughput_i / max_i
    # throughput_i"; line 209: for 9, 9.5, 8.5, 9, 9, 6 Mbps "the worst-case fairness is
    # 0.667".
    # DISAGREEMENT: the formula gives 6 / 9.5 = 0.6316. The printed 0.667 is 6 / 9 (the
    # minimum over the *typical* 9 Mbps, not over the maximum 9.5). We test the formula.
    x = [9, 9.5, 8.5, 9, 9, 6]
    assert m.worst_case_fairness(x) == pytest.approx(6 / 9.5)
    assert round(m.worst_case_fairness(x), 3) == 0.632
    assert m.worst_case_fairness(x) != pytest.approx(0.667, abs=1e-3)  # the printed value
    # the paper's "perfectly fair case ... all flows achieve 9.5 Mbps ... 1.0" holds
    assert m.worst_case_fairness([9.5] * 6) == 1.0


def test_worst_case_fairness_errors():
    with pytest.raises(ValueError, match="empty"):
        m.worst_case_fairness([])
    with pytest.raises(ValueError, match="zero"):
        m.worst_case_fairness([0, 0, 0])
    with pytest.raises(ValueError, match="negative"):
        m.worst_case_fairness([-1, 2])


# ================================================================== CoV, STF

def test_coefficient_of_variation_hand_computed():
    # population std: x = 2, 4, 4, 4, 5, 5, 7, 9 -> mean 5, std 2 -> CoV 0.4
    assert m.coefficient_of_variation([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(0.4)
    # 003's form sqrt(E{x²} - E{x}²) / E{x} gives the same
    x = np.array([1.0, 2.0, 7.0, 3.0])
    paper = math.sqrt(np.mean(x**2) - np.mean(x) ** 2) / np.mean(x)
    assert m.coefficient_of_variation(x) == pytest.approx(paper)
    assert m.coefficient_of_variation([4, 4, 4]) == 0.0


def test_coefficient_of_variation_per_flow_and_average():
    df = pd.DataFrame({"a": [1.0, 3.0, 1.0, 3.0], "b": [2.0, 2.0, 2.0, 2.0], "c": [0.0, 2.0, 0.0, 2.0]},
                      index=[0.5, 1.0, 1.5, 2.0])
    cov = m.coefficient_of_variation(df)
    assert cov.to_dict() == pytest.approx({"a": 0.5, "b": 0.0, "c": 1.0})
    # 003 §4.2 (seeds/003 line 217): "the system CoV is the average of CoVs of all flows"
    assert m.mean_coefficient_of_variation(df) == pytest.approx(0.5)
    # time window: start < t <= end keeps rows 1.0 and 1.5
    assert m.coefficient_of_variation(df, start=0.5, end=1.5)["a"] == pytest.approx(0.5)
    assert m.mean_coefficient_of_variation(df.to_numpy()) == pytest.approx(0.5)


def test_coefficient_of_variation_errors():
    with pytest.raises(ValueError, match="zero"):
        m.coefficient_of_variation([0, 0])
    with pytest.raises(ValueError, match=r"zero for \['b'\]"):
        m.coefficient_of_variation(pd.DataFrame({"a": [1.0, 2.0], "b": [0.0, 0.0]}))
    with pytest.raises(ValueError, match="empty"):
        m.coefficient_of_variation([])
    with pytest.raises(ValueError, match="no samples"):
        m.mean_coefficient_of_variation(pd.DataFrame({"a": [1.0]}, index=[1.0]), start=5)


def test_short_term_fairness_hand_computed():
    # 003 §4.2 (seeds/003 line 219): ShortTermFairness = E{ (Σ x_i(t))² / (n Σ x_i(t)²) }
    df = pd.DataFrame({"a": [1.0, 1.0, 3.0], "b": [1.0, 0.0, 1.0]}, index=[0.5, 1.0, 1.5])
    per_sample = [1.0, 0.5, 16 / 20]
    assert m.jain_index_series(df).tolist() == pytest.approx(per_sample)
    assert m.short_term_fairness(df) == pytest.approx(np.mean(per_sample))
    # 003 measures from t = 15 s: start < t
    assert m.short_term_fairness(df, start=0.5) == pytest.approx((0.5 + 0.8) / 2)
    # it is not Jain's index of the time-averaged throughputs
    assert m.jain_index(df.mean()) != pytest.approx(m.short_term_fairness(df))


def test_short_term_fairness_idle_samples():
    df = pd.DataFrame({"a": [1.0, 0.0], "b": [1.0, 0.0]}, index=[0.5, 1.0])
    assert m.short_term_fairness(df) == 1.0  # the idle sample is skipped
    with pytest.raises(ValueError, match="zero throughput for every flow"):
        m.short_term_fairness(df, skip_idle=False)
    with pytest.raises(ValueError, match="every sample"):
        m.short_term_fairness(pd.DataFrame({"a": [0.0], "b": [0.0]}))
    with pytest.raises(ValueError, match="NaN"):
        m.short_term_fairness(pd.DataFrame({"a": [np.nan], "b": [1.0]}))


# ================================================================== Vegas/Reno ratio

@pytest.mark.parametrize("col", ["dt", "+10", "exact", "-10"])
def test_throughput_ratio_document_000_table_4_3(col):
    # 000 §4.2 Table 4.3 (seeds/000 lines 696-710); definition §4.1 (line 648): "The
    # Fairness between TCP Vegas and TCP Reno is calculated based on dividing the mean
    # throughput in Vegas by the average throughput in Reno."
    # e.g. Drop-tail: Vegas 80 x 8, Reno 664/672 -> 80/668 = 0.11976 (printed 0.11976)
    r = m.throughput_ratio(T43_VEGAS[col], T43_RENO[col])
    assert r == pytest.approx(T43_FAIRNESS[col], abs=5e-5)


@pytest.mark.parametrize("col, formula, printed", [("+20", 115 / 508, 0.2028), ("-20", 161 / 320, 0.48125)])
def test_throughput_ratio_document_000_table_4_3_disagreements(col, formula, printed):
    # DISAGREEMENT in 000 Table 4.3: the "Vegas" average row (line 708: "Vegas 80 103 117
    # 132 154 154") does not match the per-flow values in the +20 % and -20 % columns:
    # +20 %: (64+120+64+144+144+104+112+168)/8 = 115, not 103;
    # -20 %: (112+96+96+120+128+328+216+192)/8 = 161, not 154;
    # and the printed Fairness (0.2028 = 103/508, 0.48125 = 154/320) uses the wrong
    # averages. We test the formula on the per-flow values.
    r = m.throughput_ratio(T43_VEGAS[col], T43_RENO[col])
    assert r == pytest.approx(formula)
    assert abs(r - printed) > 0.02


def test_throughput_ratio_document_000_other_tables():
    # 000 Table 4.1 (seeds/000 lines 615-624), 4V1R drop-tail: Vegas S1..S4 = 80 81 79 79,
    # Reno S5 = 1131, printed Fairness 0.07073 (the table's entries are rounded Kbps).
    assert m.throughput_ratio([80, 81, 79, 79], [1131]) == pytest.approx(0.07073, abs=5e-4)
    # 000 Table 4.2 (lines 652-666), 9V1R drop-tail from the average rows: 82/1213,
    # printed 0.0676
    assert m.throughput_ratio(82, 1213) == pytest.approx(0.0676, abs=5e-5)
    # 000 Table 4.4 (lines 748-756), drop-tail: S1 = Reno 1272, S2..S4 = Vegas, printed
    # 0.1737 (per-flow values give 0.1740: rounding of the table's entries)
    assert m.throughput_ratio([152, 256, 256], [1272]) == pytest.approx(0.1737, abs=5e-4)


def test_group_throughput_ratio_from_flows_table():
    col = "exact"
    flows = pd.DataFrame({
        "name": [f"v{i}" for i in range(8)] + ["r0", "r1"],
        "cc": ["vegas"] * 8 + ["reno"] * 2,
        "goodput_bps": np.array(T43_VEGAS[col] + T43_RENO[col], dtype=float) * 1000,
    })
    assert m.group_throughput_ratio(flows) == pytest.approx(132 / 444)
    assert m.group_throughput_ratio(flows, "reno", "vegas") == pytest.approx(444 / 132)
    with pytest.raises(ValueError, match="no flow with cc == 'cubic'"):
        m.group_throughput_ratio(flows, "cubic")


def test_throughput_ratio_errors():
    with pytest.raises(ValueError, match="b is zero"):
        m.throughput_ratio([1, 2], [0, 0])
    with pytest.raises(ValueError, match="empty"):
        m.throughput_ratio([], [1])


# ================================================================== improvement %

def test_improvement_percent_hand_computed():
    assert m.improvement_percent(150, 100) == pytest.approx(50)
    assert m.improvement_percent(50, 100) == pytest.approx(-50)
    np.testing.assert_allclose(m.improvement_percent(np.array([2.0, 3.0]), 1.0), [100, 200])
    with pytest.raises(ValueError, match="zero"):
        m.improvement_percent(1.0, 0.0)


def test_improvement_percent_document_000():
    # 000 §4.3 (seeds/000 line 766): "there is still a great improvement, which ranges
    # from 89% to 219%"; Table 4.4 Fairness (line 756): DT 0.1737, R1 0.5536, R3 0.3282.
    assert round(m.improvement_percent(0.3282, 0.1737)) == 89
    assert round(m.improvement_percent(0.5536, 0.1737)) == 219
    # 000 §4.2 (line 719): "The fairness improvement will be 69% to 302%"; Table 4.3
    # Fairness (line 710): DT 0.11976, +20 % 0.2028, -20 % 0.48125.
    assert round(m.improvement_percent(0.2028, 0.11976)) == 69
    assert round(m.improvement_percent(0.48125, 0.11976)) == 302
    # 000 §4.1 (line 673): "the improvement in this experiment is about 6% to 157%";
    # Table 4.2 Fairness (line 666): DT 0.0676 0.29067 0.4505, RED 0.17392 0.45113 0.475.
    assert round(m.improvement_percent(0.17392, 0.0676)) == 157
    # DISAGREEMENT (small): the low end is 0.475/0.4505 - 1 = 5.4 %, printed "6%".
    assert m.improvement_percent(0.475, 0.4505) == pytest.approx(5.44, abs=0.01)


def test_improvement_percent_document_000_e2_is_a_plain_ratio():
    # 000 §4.1 (seeds/000 line 611): "The performance improvement is about 230~259%
    # (which is counted based on dividing TCP Vegas throughput in Drop-tail Router by that
    # in RED router)." Table 4.1 Vegas averages (line 622): DT 80 / 81, RED 207 / 187.
    # DISAGREEMENT: the numbers are RED / DT (not DT / RED, as the text says) and are the
    # plain ratio 100·new/old, not (new/old - 1)·100: 207/80 = 258.75 %, 187/81 = 230.9 %
    # (printed "230"). As improvements in the sense of the other sections they are +159 %
    # and +131 %.
    assert 100 * 207 / 80 == pytest.approx(258.75)
    assert m.improvement_percent(207, 80) == pytest.approx(158.75)
    assert m.improvement_percent(187, 81) == pytest.approx(130.86, abs=0.01)


def test_improvement_percent_document_002():
    # 002 §4.1.4 (seeds/002 lines 1490-1492): "Jain's Fairness Index is 0.9364 for RED,
    # 0.8477 for "ECN over RED", and 0.9989 for "FECN over RED" ... 0.9124 for RED, 0.8959
    # for "ECN over RED" ... and 0.9931 for "FECN over RED" ... the improvement in fairness
    # is about 15% for 3-subnets and 10% for 5-subnets."
    # Table 4-4 prints ECN over RED as 0.8688 and 0.8838 instead (reference 002 §8.3).
    # DISAGREEMENT: "15 %" follows from the table's 0.8688 (+14.97 %), not from the text's
    # own 0.8477 (+17.8 %); "10 %" from the text's 0.8959 (+10.85 %), not the table's
    # 0.8838 (+12.4 %).
    assert round(m.improvement_percent(0.9989, 0.8688)) == 15
    assert m.improvement_percent(0.9989, 0.8477) == pytest.approx(17.84, abs=0.01)
    assert m.improvement_percent(0.9931, 0.8959) == pytest.approx(10.85, abs=0.01)
    assert m.improvement_percent(0.9931, 0.8838) == pytest.approx(12.37, abs=0.01)


# ================================================================== convergence time

def test_convergence_time_hand_computed():
    t = np.arange(10.0)
    y = [0, 5, 8, 9.5, 10.6, 9.8, 10.1, 10, 10, 10]
    # final value: mean over the last 10 % of the span (t >= 8.1 -> t = 9): 10
    assert m.convergence_time(t, y, band=0.05) == 5.0   # |y - 10| <= 0.5 from t = 5
    assert m.convergence_time(t, y, band=0.1) == 3.0    # |y - 10| <= 1 from t = 3
    assert m.convergence_time(t, y, band=0.0, atol=2.0) == 2.0
    # measured from the event time
    assert m.convergence_time(t, y, band=0.05, start=2.0) == 3.0
    # already settled
    assert m.convergence_time(t, [10] * 10, band=0.01) == 0.0
    # not settled: last sample outside the band around the final-window mean
    assert m.convergence_time(t, [0, 0, 0, 0, 0, 0, 0, 0, 10, 0], band=0.1, final_window=1.5) == math.inf
    # final_window averages the tail: mean(10, 12) = 11, band 10 % -> [9.9, 12.1]
    assert m.convergence_time([0, 1, 2, 3], [0, 10, 10, 12], band=0.1, final_window=1.0) == 1.0


def test_convergence_time_document_001_vegas_halving():
    # 001 Sect. 5.1 on Fig. 7: after the available bandwidth halves at 80 s, Vegas needs
    # 47.9 s to settle in its new steady state.
    # Our model (the paper prints none): the TCP rate is 3125 pkt/s after the halving, so
    # RTT = W / 3125, and Vegas lowers its window (630 packets at equilibrium, Sect. 3.2.1
    # on Fig. 1) by one packet per RTT until it reaches the new equilibrium of about 316
    # packets. Convergence = time until W stays within
    # one packet of its final value.
    t, w = [80.0], [630.0]
    while w[-1] > 316:
        t.append(t[-1] + w[-1] / 3125.0)
        w.append(w[-1] - 1)
    while t[-1] < 200:
        t.append(t[-1] + 316 / 3125.0)
        w.append(316.0)
    ct = m.convergence_time(t, w, band=0.0, atol=1.0, start=80.0, final_window=20.0)
    assert ct == pytest.approx(47.9, rel=0.02)
    # in BaseRTTs (001 Sect. 5.2 counts convergence in BaseRTTs): base RTT = 100 ms
    assert ct / 0.1 == pytest.approx(479, rel=0.02)


def test_convergence_time_errors():
    with pytest.raises(ValueError, match="differ in length"):
        m.convergence_time([0, 1], [1])
    with pytest.raises(ValueError, match="strictly increasing"):
        m.convergence_time([0, 0, 1], [1, 1, 1])
    with pytest.raises(ValueError, match="no sample at or after start"):
        m.convergence_time([0, 1], [1, 1], start=5)
    with pytest.raises(ValueError, match="tolerance band is zero"):
        m.convergence_time([0, 1, 2], [1, 0, 0])
    with pytest.raises(ValueError, match="empty"):
        m.convergence_time([], [])


# ================================================================== utilization

def test_utilization_document_000_table_4_3():
    # 000 §4.1 (seeds/000 line 648): "The ideal throughput is 2000 Kbps, so the
    # Utilization is calculated based on dividing the Total throughput by 2000."
    # Table 4.3 lines 711-712.
    for col, total in T43_TOTAL.items():
        assert m.utilization(total, 2000) == pytest.approx(T43_UTIL[col])
        # the total is the sum of the per-flow throughputs
        assert m.utilization(T43_VEGAS[col] + T43_RENO[col], 2000) == pytest.approx(T43_UTIL[col])


def test_utilization_document_000_table_3_1_wording():
    # 000 §3.3 (seeds/000 line 502): "the network Utilization is count by 1500 divides
    # Total throughput" -- the wording says 1500/Total (> 1); the numbers are Total/1500.
    # Table 3.1 (line 514-516): Total 1443 -> 0.96256 (the printed utilization comes from
    # un-rounded totals, 1443.8 Kbps, so the match is only to the rounding of Total).
    assert m.utilization(1443, 1500) == pytest.approx(0.96256, abs=1e-3)
    assert 1500 / 1443 > 1


def test_utilization_errors():
    with pytest.raises(ValueError, match="capacity_bps"):
        m.utilization(10, 0)
    with pytest.raises(ValueError, match="negative"):
        m.utilization([-1], 10)


def test_link_utilization_table():
    links = pd.DataFrame({"link": ["a->b", "b->a"], "rate_bps": [1e6, 1e6],
                          "bytes_sent": [625_000, 0], "utilization": [0.5, 0.0]})
    assert m.link_utilization(links).to_dict() == {"a->b": 0.5, "b->a": 0.0}
    assert m.link_utilization(links, "bytes", duration_s=10).to_dict() == {"a->b": 0.5, "b->a": 0.0}
    with pytest.raises(ValueError, match="needs duration_s"):
        m.link_utilization(links, "bytes")
    with pytest.raises(ValueError, match="method"):
        m.link_utilization(links, "bits")
    with pytest.raises(ValueError, match="empty"):
        m.link_utilization(links.iloc[:0])


# ================================================================== loss and drops

@pytest.mark.parametrize("sent, lost, pct", [
    (99035, 200, 0.202), (2990, 640, 21.4), (53685, 120, 0.224), (300, 120, 40.0),
    (53585, 145, 0.271), (1470, 710, 48.3), (1250, 130, 10.4),
])
def test_packet_loss_rate_document_004_table_2(sent, lost, pct):
    # 004 §II, on Table 2: the drop rate is the number of packets lost divided by the
    # number sent. Sent and Lost from Table 2; the rates themselves are not printed, we
    # computed them by hand.
    assert round(m.packet_loss_rate(lost, sent, percent=True), 3 if pct < 1 else 1) == pct


def test_packet_loss_rate_hand_computed_and_errors():
    # 002 §2.3.5 (seeds/002 line 622): "Packets Loss Rate = Number of Drop Packets / Total
    # Number of Packets * 100". 000 Table 4.1 4V1R drop-tail (lines 615-616): 87 drops of
    # 18320 arrivals.
    assert m.packet_loss_rate(87, 18320) == pytest.approx(0.004749, abs=1e-6)
    assert m.packet_loss_rate(87, 18320, percent=True) == pytest.approx(0.4749, abs=1e-4)
    with pytest.raises(ValueError, match="total is zero"):
        m.packet_loss_rate(0, 0)
    with pytest.raises(ValueError, match="exceeds"):
        m.packet_loss_rate(5, 4)


def test_loss_rate_flows_table():
    flows = pd.DataFrame({"name": ["a", "b", "c"], "packets_sent": [1000, 500, 0], "drops": [10, 20, 0]})
    r = m.loss_rate(flows)
    assert r["a"] == 0.01 and r["b"] == 0.04 and math.isnan(r["c"])
    assert m.loss_rate(flows, aggregate=True) == pytest.approx(30 / 1500)
    with pytest.raises(ValueError, match="lacks column"):
        m.loss_rate(flows.drop(columns="drops"))


def test_drop_rates_early_vs_overflow():
    q = pd.DataFrame({"queue": ["r1->r2", "r2->r1"], "arrivals": [1000, 0], "early_drops": [30, 0],
                      "overflow_drops": [10, 0], "marks": [5, 0]})
    d = m.drop_rates(q)
    assert d.loc["r1->r2"].to_dict() == pytest.approx(
        {"early_drop_rate": 0.03, "overflow_drop_rate": 0.01, "drop_rate": 0.04, "mark_rate": 0.005})
    assert d.loc["r2->r1"].isna().all()
    with pytest.raises(ValueError, match="empty"):
        m.drop_rates(q.iloc[:0])


# ================================================================== queueing delay

def test_queueing_delay():
    # 003 Eq. (5) qdelay = Δw / bw: 100 packets of 1000 B at 10 Mb/s = 80 ms (the buffer
    # of 003 §4.1, RTT_0 x bw = 80 ms x 10 Mb/s, when full doubles the 80 ms RTT)
    assert m.queueing_delay(100, 1000, 10e6) == pytest.approx(0.08)
    np.testing.assert_allclose(m.queueing_delay([0, 50], 1000, 10e6), [0.0, 0.04])
    with pytest.raises(ValueError, match="rate_bps"):
        m.queueing_delay(1, 1000, 0)
    q = pd.DataFrame({"queue": ["x"], "mean_sojourn_s": [0.25]})
    assert m.mean_queueing_delay(q).to_dict() == {"x": 0.25}


# ================================================================== rates

def test_throughput_and_goodput_from_counts():
    # 002 §2.3.3 (seeds/002 line 612): "(m-n) * packet-size/t", n dropped
    assert m.throughput_bps(1000, 10, 1000, 10) == pytest.approx(990 * 8000 / 10)
    # 002 §2.3.4 (line 616): "(m-n)*packet-size/t", n retransmitted
    assert m.goodput_bps(990, 10, 1000, 10) == pytest.approx(980 * 8000 / 10)
    with pytest.raises(ValueError, match="exceeds"):
        m.throughput_bps(1, 2, 1000, 1)
    with pytest.raises(ValueError, match="duration_s"):
        m.goodput_bps(1, 0, 1000, 0)


def _ts(rows):
    return pd.DataFrame(rows, columns=["time_s", "entity", "metric", "value"])


def test_throughput_series_and_window():
    rows = []
    for k, t in enumerate([0.0, 0.5, 1.0, 1.5, 2.0]):
        rows += [(t, "a", "cwnd", 10.0), (t, "a", "delivered_bytes", 0.0 if k == 0 else 62_500.0 * k),
                 (t, "b", "delivered_bytes", 0.0 if k == 0 else 31_250.0), (t, "r1->r2", "queue_pkts", 3.0)]
    ts = _ts(rows)
    s = m.throughput_series(ts)
    assert list(s.columns) == ["a", "b"]
    assert s.index.tolist() == [0.5, 1.0, 1.5, 2.0]
    assert s["a"].tolist() == [1e6, 2e6, 3e6, 4e6]
    assert s["b"].tolist() == [5e5] * 4
    # window (0.5, 1.5]: intervals (0.5, 1.0] and (1.0, 1.5]
    w = m.window_throughput(ts, start=0.5, end=1.5)
    assert w.to_dict() == {"a": 2.5e6, "b": 5e5}
    # a window edge inside an interval rounds inward
    assert m.window_throughput(ts, start=0.6, end=2.0)["a"] == 3.5e6
    # whole run: total bytes * 8 / 2 s
    assert m.window_throughput(ts)["a"] == pytest.approx(62_500 * 10 * 8 / 2.0)
    with pytest.raises(ValueError, match="no whole sampling interval"):
        m.window_throughput(ts, start=0.6, end=0.9)
    # explicit interval
    assert m.throughput_series(ts, interval=0.5).equals(s)


def test_throughput_series_errors():
    with pytest.raises(ValueError, match="no delivered_bytes"):
        m.throughput_series(_ts([(0.1, "q", "queue_pkts", 1.0)]))
    with pytest.raises(ValueError, match="empty"):
        m.throughput_series(_ts([]))
    with pytest.raises(ValueError, match="not evenly spaced"):
        m.throughput_series(_ts([(t, "a", "delivered_bytes", 1.0) for t in (0.0, 0.1, 0.3)]))


def test_flow_table_throughput_goodput():
    flows = pd.DataFrame({"name": ["a", "b"], "throughput_bps": [1.04e6, 2.08e6], "goodput_bps": [0.9e6, 2e6],
                          "packets_sent": [100, 0], "retransmits": [10, 0]})
    assert m.throughput(flows).to_dict() == {"a": 1.04e6, "b": 2.08e6}
    assert m.throughput(flows, retransmissions=False).to_dict() == {"a": 0.9e6, "b": 2e6}
    assert m.goodput(flows).to_dict() == {"a": 0.9e6, "b": 2e6}
    r = m.retransmission_ratio(flows)
    assert r["a"] == 0.1 and math.isnan(r["b"])


# ================================================================== a real run

INTEGRATION_SCENARIO = """\
[simulation]
duration = "20s"
seed = 3

[dumbbell]
pairs = 3
access_delays = ["1ms", "10ms", "30ms"]

[dumbbell.bottleneck]
rate = "4Mbps"
delay = "10ms"
queue = { kind = "red", limit = "40p", min_th = 5, max_th = 15 }

[dumbbell.access]
rate = "100Mbps"
delay = "2ms"

[[flow]]
name = "f{i}"
count = 3
from = "s{i}"
to = "d{i}"
recovery = "newreno"
max_window = 200
start_spacing = "0.2s"

[monitor]
interval = "250ms"
"""


@pytest.fixture(scope="module")
def run_results():
    import tcpsim

    return tcpsim.run(INTEGRATION_SCENARIO)


def test_integration_metrics_are_consistent(run_results):
    res = run_results
    flows = res.flows.set_index("name")
    interval = 0.25
    bottleneck_bps = 4e6

    # per-sample throughput from delivered_bytes sums back to goodput_bytes within one
    # interval's worth of bottleneck capacity (what is delivered after the last sample)
    series = m.throughput_series(res)
    assert series.attrs["interval_s"] == pytest.approx(interval)
    assert list(series.columns) == ["f0", "f1", "f2"]
    delivered = series.sum() * interval / 8
    for name in series.columns:
        gap = flows.loc[name, "goodput_bytes"] - delivered[name]
        assert -1e-6 <= gap <= bottleneck_bps * interval / 8, (name, gap)

    # window throughput over the whole run ~ goodput_bps (active time from start_s)
    w = m.window_throughput(res)
    for name in w.index:
        active = flows.loc[name, "stop_s"] - flows.loc[name, "start_s"]
        assert w[name] * 20.0 == pytest.approx(flows.loc[name, "goodput_bps"] * active, abs=bottleneck_bps * interval)

    # fairness metrics in range
    gp = m.goodput(res)
    j = m.jain_index(gp)
    assert 1 / 3 <= j <= 1
    assert 0 < m.worst_case_fairness(gp) <= 1
    stf = m.short_term_fairness(series, start=5.0)
    assert 1 / 3 <= stf <= 1
    cov = m.coefficient_of_variation(series, start=5.0)
    assert (cov >= 0).all()
    assert m.mean_coefficient_of_variation(series, start=5.0) == pytest.approx(cov.mean())

    # throughput (wire bytes, retransmissions included) >= goodput (payload once)
    thr = m.throughput(res)
    assert (thr >= gp).all()
    assert ((m.retransmission_ratio(res) >= 0) & (m.retransmission_ratio(res) < 1)).all()

    # the bottleneck carries the goodput: utilization >= Σ goodput / capacity
    util = m.link_utilization(res)
    assert 0 < util["r1->r2"] <= 1
    assert util["r1->r2"] >= m.utilization(gp.to_numpy(), bottleneck_bps) - 1e-9
    ub = m.link_utilization(res, "bytes")
    one_packet = 1040 * 8 / bottleneck_bps / res.summary["duration_s"]
    assert ub["r1->r2"] == pytest.approx(util["r1->r2"], abs=one_packet + 1e-12)

    # queue drop rates: early + overflow = total; flow drops are the data-packet drops
    d = m.drop_rates(res)
    q = res.queues.set_index("queue")
    row = d.loc["r1->r2"]
    assert row["early_drop_rate"] + row["overflow_drop_rate"] == pytest.approx(row["drop_rate"])
    assert row["drop_rate"] == pytest.approx(
        (q.loc["r1->r2", "early_drops"] + q.loc["r1->r2", "overflow_drops"]) / q.loc["r1->r2", "arrivals"])
    total_queue_drops = int(q["early_drops"].sum() + q["overflow_drops"].sum())
    assert int(res.flows["drops"].sum()) <= total_queue_drops
    lr = m.loss_rate(res)
    assert ((lr >= 0) & (lr < 1)).all()
    assert m.loss_rate(res, aggregate=True) == pytest.approx(res.flows["drops"].sum() / res.flows["packets_sent"].sum())

    # queueing delay: non-negative, and at most a full buffer's drain time at the bottleneck
    qd = m.mean_queueing_delay(res)
    assert 0 <= qd["r1->r2"] <= m.queueing_delay(40, 1040, bottleneck_bps)


def test_coefficient_of_variation_series_with_time_window():
    s = pd.Series([9.0, 1.0, 3.0], index=[0.5, 1.0, 1.5], name="f")
    assert m.coefficient_of_variation(s, start=0.5) == pytest.approx(0.5)
    assert m.coefficient_of_variation(s) == pytest.approx(np.std([9, 1, 3]) / np.mean([9, 1, 3]))
    with pytest.raises(ValueError, match="indexed by time"):
        m.coefficient_of_variation([1.0, 2.0], start=0.0)


def test_docstring_examples_of_every_metrics_module():
    """The worked examples in the docstrings (docs/metrics.md points readers at them)
    run as doctests, module by module of the package."""
    import doctest
    import importlib
    import pkgutil

    attempted = 0
    for info in pkgutil.iter_modules(m.__path__):
        module = importlib.import_module(f"{m.__name__}.{info.name}")
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0, f"{module.__name__}: {result.failed} doctest(s) failed"
        attempted += result.attempted
    assert attempted >= 24
    assert sorted(m.__all__) == sorted(set(m.__all__))
    assert all(callable(getattr(m, name)) for name in m.__all__)


# ================================================================== 002's measures

def test_retransmission_fraction_hand_computed():
    # 1000 packets, 50 of them retransmissions: 50 / 1000
    assert m.retransmission_fraction(1000, 50) == pytest.approx(0.05)
    assert m.retransmission_fraction(500, 0) == 0.0
    with pytest.raises(ValueError, match="no packets"):
        m.retransmission_fraction(0, 0)
    with pytest.raises(ValueError, match="exceeds packets"):
        m.retransmission_fraction(10, 11)
    with pytest.raises(ValueError, match="finite"):
        m.retransmission_fraction(-1, 0)


def test_group_goodput_sums_each_group_and_feeds_jain_over_groups():
    # 002 §2.3.7.1: x_i = the total goodput of subnet i, n = the number of subnets.
    # Two subnets of two flows: 1 + 3 = 4 Mb/s and 2 + 2 = 4 Mb/s, equal totals, so the
    # index over subnets is 1 although the flows differ (over flows: 100 / (4 · 18) = 0.694).
    flows = pd.DataFrame({"name": ["a", "b", "c", "d"], "group": ["subnet0", "subnet0", "subnet1", "subnet1"],
                          "goodput_bps": [1e6, 3e6, 2e6, 2e6]})
    g = m.group_goodput(flows)
    assert g.to_dict() == {"subnet0": 4e6, "subnet1": 4e6}
    assert m.jain_index(g) == 1.0
    assert m.jain_index(flows["goodput_bps"]) == pytest.approx(64 / (4 * 18))
    # three subnets 6, 3, 2 Mb/s (one flow each): 11² / (3 · 49) = 121 / 147
    three = pd.DataFrame({"name": ["a", "b", "c", "x"], "group": ["s0", "s1", "s2", ""],
                          "goodput_bps": [6e6, 3e6, 2e6, 9e6]})
    assert list(m.group_goodput(three).index) == ["s0", "s1", "s2"], "a flow without a group is left out"
    assert m.jain_index(m.group_goodput(three)) == pytest.approx(121 / 147)
    with pytest.raises(ValueError, match="no flow has a 'group'"):
        m.group_goodput(flows.assign(group=""))


def test_queue_statistics_from_the_start_of_the_window():
    # samples before start_s are left out: 20, 40 at t >= 2 -> mean 30, std 10, max 40
    s = pd.Series([300.0, 20.0, 40.0], index=[1.0, 2.0, 3.0])
    assert m.queue_statistics(s, start_s=2.0) == {"mean": 30.0, "std": 10.0, "max": 40.0}
    assert m.queue_statistics(s) == pytest.approx({"mean": 120.0, "std": (((180**2) + 100**2 + 80**2) / 3) ** 0.5,
                                                   "max": 300.0})
    with pytest.raises(ValueError, match="no sample at or after 5 s"):
        m.queue_statistics(s, start_s=5.0)
    with pytest.raises(ValueError, match=">= 0"):
        m.queue_statistics(pd.Series([-1.0], index=[0.0]))

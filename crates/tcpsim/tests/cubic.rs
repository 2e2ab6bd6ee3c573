//! Scenario tests of CUBIC (`cc = "cubic"`, RFC 9438): the window's epochs between losses
//! measured from its cwnd time series on a drop-tail dumbbell, and CUBIC beside Reno.

mod common;

use common::{flow_number, run, series};

const C: f64 = 0.4;
const BETA: f64 = 0.7;
/// A reduction: a sample below this fraction of the one before (β = 0.7 cuts to 0.7).
const CUT: f64 = 0.85;
/// Reductions closer than this to the previous one belong to the same loss episode.
const EPISODE_S: f64 = 0.5;

/// One CUBIC flow (or `cc` for each of `pairs` flows) over a 20 Mb/s, 40 ms drop-tail
/// bottleneck of 100 packets: propagation RTT 2 · (1 + 40 + access) ms.
fn dumbbell(ccs: &[&str], access_delays: &[&str], duration_s: u32) -> String {
    let pairs = ccs.len();
    let delays = access_delays.iter().map(|d| format!("\"{d}\"")).collect::<Vec<_>>().join(", ");
    let mut text = format!(
        "[simulation]\nduration = \"{duration_s}s\"\nseed = 1\n\n\
         [dumbbell]\npairs = {pairs}\naccess_delays = [{delays}]\n\n\
         [dumbbell.bottleneck]\nrate = \"20Mbps\"\ndelay = \"40ms\"\nqueue = {{ kind = \"droptail\", limit = \"100p\" }}\n\n\
         [dumbbell.access]\nrate = \"1Gbps\"\ndelay = \"1ms\"\nqueue = {{ kind = \"droptail\", limit = \"1000p\" }}\n\n\
         [monitor]\ninterval = \"10ms\"\n\n"
    );
    for (i, cc) in ccs.iter().enumerate() {
        text += &format!(
            "[[flow]]\nname = \"f{i}\"\nfrom = \"s{i}\"\nto = \"d{i}\"\ncc = {cc}\nrecovery = \"sack1\"\n\
             receiver = {{ kind = \"every_packet\", sack = true }}\nmax_window = 10000\ninitial_window = 10\n\
             start = \"{}ms\"\n\n",
            100 * i
        );
    }
    text
}

/// One epoch of a window series: from a reduction to the next.
#[derive(Debug)]
struct Epoch {
    /// Time of the reduction, s.
    start: f64,
    /// Time of the next reduction, s.
    end: f64,
    /// The window just before the reduction (W at the loss), packets.
    w_loss: f64,
    /// W_max by RFC 9438 §4.7's rule, and K = ∛((W_max − β·W)/C).
    w_max: f64,
    k: f64,
    /// When the window first reached W_max again, s after `start`.
    regained: Option<f64>,
}

/// The epochs of a cwnd series (samples (t, cwnd)), each reduction found as a drop below
/// CUT of the sample before, one per loss episode; W_max follows fast convergence.
fn epochs(samples: &[(f64, f64)]) -> Vec<Epoch> {
    let mut cuts: Vec<(f64, f64)> = Vec::new();
    for w in samples.windows(2) {
        let ((_, before), (t, after)) = (w[0], w[1]);
        if after < CUT * before && cuts.last().is_none_or(|&(last, _)| t - last > EPISODE_S) {
            cuts.push((t, before));
        }
    }
    let mut out: Vec<Epoch> = Vec::new();
    let mut w_max_prev = 0.0;
    for (i, &(start, w_loss)) in cuts.iter().enumerate() {
        let end = cuts.get(i + 1).map_or(samples.last().unwrap().0, |c| c.0);
        let w_max = if w_loss < w_max_prev { w_loss * (1.0 + BETA) / 2.0 } else { w_loss };
        w_max_prev = w_max;
        let k = ((w_max - BETA * w_loss) / C).cbrt();
        let regained = samples.iter().find(|&&(t, w)| t > start + EPISODE_S && t < end && w >= w_max).map(|&(t, _)| t - start);
        out.push(Epoch { start, end, w_loss, w_max, k, regained });
    }
    out
}

/// Mean slope (packets/s) of the samples in [from, to].
fn slope(samples: &[(f64, f64)], from: f64, to: f64) -> f64 {
    let inside: Vec<_> = samples.iter().filter(|&&(t, _)| t >= from && t <= to).collect();
    let (first, last) = (inside[0], inside[inside.len() - 1]);
    (last.1 - first.1) / (last.0 - first.0)
}

/// Epochs after slow start and its aftermath (the first two reductions) and before the
/// run's end.
const STEADY_FROM_S: f64 = 20.0;

#[test]
fn one_cubic_flow_regains_w_max_about_k_after_each_loss_concave_then_convex() {
    // One CUBIC flow (HyStart++, fast convergence) alone, 120 s: RTT 84 ms plus up to 42
    // ms of queue; pipe + buffer about 300 packets. Measured (seed 1), the epochs
    // alternate:
    // - a loss at W ≈ 303.6 below the previous W_max (≈ 306.4): fast convergence sets
    //   W_max = 0.85 · 303.6 = 258.0, K = ∛((258.0 − 212.5)/0.4) = 4.85 s; the window
    //   regains W_max 4.64-5.06 s after the reduction (−4.3 … +4.4 % of K); it rises at
    //   18.3-18.8 packets/s in the first quarter, 0.5-1.2 packets/s in the quarter before
    //   W_max, and 26.2 packets/s in the last 0.5 s before the next loss (concave, then
    //   convex above W_max), which comes at W ≈ 306.4, 9.96 s after the reduction;
    // - a loss at W ≈ 306.4 (above W_max): W_max = W, K = 6.12 s, and the window, creeping
    //   up toward W_max, is lost at 303.6 (0.9 % below it) 4.43 s after the reduction:
    //   the pipe holds about 303 packets and the previous W overshot it while growing
    //   fast in the convex region.
    let r = run(&dumbbell(&["\"cubic\""], &["1ms"], 120));
    let cwnd = series(&r, "f0", "cwnd");
    let all = epochs(&cwnd);
    let steady: Vec<&Epoch> = all.iter().filter(|e| e.start >= STEADY_FROM_S && e.end < 119.9).collect();
    let (regaining, approaching): (Vec<&Epoch>, Vec<&Epoch>) = steady.iter().partition(|e| e.regained.is_some());
    assert!(regaining.len() >= 4 && approaching.len() >= 4, "{all:#?}");
    for e in regaining {
        let regained = e.regained.unwrap();
        assert!((regained / e.k - 1.0).abs() <= 0.10, "W_max regained {regained:.2} s after the loss, K = {:.2} s: {e:?}", e.k);
        let rise = slope(&cwnd, e.start + EPISODE_S, e.start + EPISODE_S + (regained - EPISODE_S) / 4.0);
        let plateau = slope(&cwnd, e.start + 0.75 * regained, e.start + regained);
        let convex = slope(&cwnd, e.end - 0.5, e.end - 0.02);
        assert!(rise > 10.0 * plateau && convex > 10.0 * plateau, "slopes {rise:.1}, {plateau:.1}, {convex:.1}: {e:?}");
        assert!(e.end - e.start > regained + 2.0, "the convex region lasts: {e:?}");
    }
    for e in approaching {
        assert_eq!(e.w_max, e.w_loss, "a loss above the previous W_max keeps W: {e:?}");
        let last = cwnd.iter().filter(|&&(t, _)| t < e.end).last().unwrap().1;
        assert!(e.end - e.start < e.k && last >= 0.98 * e.w_max && last < e.w_max, "{e:?}: lost at {last:.1}");
        let rise = slope(&cwnd, e.start + EPISODE_S, e.start + EPISODE_S + 1.0);
        let end = slope(&cwnd, e.end - 1.0, e.end - 0.02);
        assert!(rise > 4.0 * end, "concave approach: {rise:.1} then {end:.1} packets/s: {e:?}");
    }
}

/// Goodput of each flow, bits/s.
fn goodputs(r: &tcpsim::RunResults, n: usize) -> Vec<f64> {
    (0..n).map(|i| flow_number(r, i, "goodput_bps")).collect()
}

#[test]
fn two_cubic_flows_take_more_than_two_reno_flows_on_a_long_fat_path() {
    // Same paths (RTT 84 ms), 120 s. Measured (seed 1): CUBIC 7.60 and 5.75 Mb/s, Reno
    // 2.89 and 2.92 Mb/s: CUBIC's windows (about 100-200 packets) grow by the cubic, well
    // above the Reno-friendly estimate, and back off by 0.3 where Reno halves.
    let r = run(&dumbbell(&["\"cubic\"", "\"cubic\"", "\"reno\"", "\"reno\""], &["1ms"; 4], 120));
    let g = goodputs(&r, 4);
    assert!(g[0].min(g[1]) > 1.5 * g[2].max(g[3]), "{g:?}");
    assert!(g.iter().sum::<f64>() > 0.95 * 20e6, "{g:?}");
}

#[test]
fn rtt_fairness_of_two_cubic_flows_beside_two_reno_flows() {
    // Sanity, not a claim of the paper: two flows of RTT 84 and 162 ms (access 1 and 40
    // ms) on the drop-tail dumbbell, 120 s. Measured (seed 1): CUBIC 17.98 and 1.17 Mb/s
    // (ratio 15.4; the long flow had 2 timeouts and 49 fast retransmits), Reno 16.49 and
    // 1.91 Mb/s (ratio 8.6, 2 timeouts). The short CUBIC flow runs in the cubic region
    // (window 200-290 packets), whose growth does not depend on the RTT, and the long one
    // with its 10-60 packets in the Reno-friendly region, growing by α_cubic = 0.53 packets
    // per RTT (Reno: 1), so here CUBIC is less RTT-fair than Reno; the CUBIC paper's
    // better RTT fairness is for flows that both run in the cubic region. Checked: the
    // link stays at least 90 % used (CUBIC 95.8 %, Reno 92.0 %), neither long flow starves, the short flow leads in both.
    let cubic = goodputs(&run(&dumbbell(&["\"cubic\"", "\"cubic\""], &["1ms", "40ms"], 120)), 2);
    let reno = goodputs(&run(&dumbbell(&["\"reno\"", "\"reno\""], &["1ms", "40ms"], 120)), 2);
    for g in [&cubic, &reno] {
        assert!(g[0] + g[1] > 0.9 * 20e6, "{g:?}");
        assert!(g[1] > 0.03 * 20e6 && g[0] > g[1], "{g:?}");
    }
    let (cubic_ratio, reno_ratio) = (cubic[0] / cubic[1], reno[0] / reno[1]);
    assert!((10.0..20.0).contains(&cubic_ratio) && (5.0..12.0).contains(&reno_ratio), "{cubic:?} {reno:?}");
}

#[test]
fn bad_cubic_parameters_are_refused_naming_the_file_key_and_what_was_expected() {
    let with = |cc: &str| tcpsim::load_str(&dumbbell(&[cc], &["1ms"], 10), "cubic.toml").err().expect("refused").to_string();
    // "hystart" (Linux's classic HyStart) is not a choice here.
    let e = with("{ kind = \"cubic\", slow_start = \"hystart\" }");
    assert!(e.contains("cubic.toml") && e.contains("slow_start") && e.contains("hystart++") && e.contains("standard"), "{e}");
    let e = with("{ kind = \"cubic\", beta = 1.0 }");
    assert!(e.contains("cubic.toml") && e.contains("beta") && e.contains("0.99"), "{e}");
    let e = with("{ kind = \"cubic\", hystart_min_rtt_thresh = \"20ms\" }");
    assert!(e.contains("hystart_min_rtt_thresh") && e.contains("hystart_max_rtt_thresh"), "{e}");
}

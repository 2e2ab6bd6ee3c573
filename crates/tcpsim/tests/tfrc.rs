//! TFRC (`type = "tfrc"`, RFC 5348 as ns-2.35's Agent/TFRC runs it) in whole scenarios:
//! alone it fills a link and holds its rate; beside TCP it takes about a fair share.

mod common;

use common::{chain, f64_col, i64_col, series, str_col};

/// The chain s --100 Mb/s, 1 ms-- r1 --10 Mb/s, 40 ms-- r2 --100 Mb/s, 1 ms-- d: 84 ms of
/// round-trip propagation, a bandwidth-delay product of 10 Mb/s × 84 ms = 105 kB, about
/// 100 TFRC packets of 1032 B, which is the bottleneck's buffer.
fn one_bdp_chain(duration: &str, flows: &str) -> String {
    let access = r#"{ kind = "droptail", limit = "1000p" }"#;
    let network = chain("100Mbps", "1ms", access, "10Mbps", "40ms", r#"{ kind = "droptail", limit = "100p" }"#);
    format!("[simulation]\nduration = \"{duration}\"\n\n{network}{flows}\n[monitor]\ninterval = \"1s\"\n")
}

const TFRC_FLOW: &str = "[[flow]]\nname = \"tfrc\"\ntype = \"tfrc\"\nfrom = \"s\"\nto = \"d\"\n\n";

#[test]
fn alone_on_a_one_bdp_buffer_it_fills_the_link_and_holds_a_steady_rate() {
    let r = common::run(&one_bdp_chain("60s", TFRC_FLOW));
    // Once out of slow start (by 20 s), every 1 s sample delivers the link's rate less
    // the 32 B header of each 1032 B packet: 10 Mb/s × 1000/1032 = 9.69 Mb/s of payload.
    // Measured (2026-11-26): 9.64–9.70 Mb/s, coefficient of variation 0.09 %.
    let payload_rate = 10e6 * 1000.0 / 1032.0;
    let per_second: Vec<f64> = series(&r, "tfrc", "delivered_bytes").into_iter().filter(|&(t, _)| t > 20.0).map(|(_, b)| b * 8.0).collect();
    assert_eq!(per_second.len(), 40);
    for (i, rate) in per_second.iter().enumerate() {
        assert!(*rate > 0.97 * payload_rate && *rate < 1.01 * payload_rate, "second {}: {rate} b/s", 21 + i);
    }
    let mean = per_second.iter().sum::<f64>() / per_second.len() as f64;
    let spread = (per_second.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / per_second.len() as f64).sqrt() / mean;
    assert!(spread < 0.01, "coefficient of variation {spread}");
    // One report per RTT or so: 510 reports in 60 s at R of 85–120 ms.
    let reports = i64_col(&r.flows, "rtt_samples")[0];
    assert!((450..=720).contains(&reports), "{reports} reports");
    assert_eq!(i64_col(&r.flows, "retransmits")[0], 0, "TFRC never retransmits");
}

#[test]
fn beside_a_reno_flow_it_takes_a_share_within_a_factor_of_two() {
    // RFC 3448's abstract promises a rate "reasonably fair when competing for bandwidth
    // with TCP flows" and gives no number; the factor of two is our bound. Measured
    // (2026-11-26): TFRC 4.71 Mb/s, Reno 4.82 Mb/s, a ratio of 0.98.
    let reno = "[[flow]]\nname = \"reno\"\nfrom = \"s\"\nto = \"d\"\nmax_window = 1000\n\n";
    let r = common::run(&one_bdp_chain("120s", &format!("{TFRC_FLOW}{reno}")));
    assert_eq!(str_col(&r.flows, "type"), &["tfrc".to_string(), "tcp".to_string()]);
    let goodput = f64_col(&r.flows, "goodput_bps");
    let ratio = goodput[0] / goodput[1];
    assert!((0.5..=2.0).contains(&ratio), "TFRC {} b/s, Reno {} b/s", goodput[0], goodput[1]);
    assert!(goodput[0] + goodput[1] > 0.9 * 10e6 * 1000.0 / 1032.0, "together they fill the link: {goodput:?}");
}

#[test]
fn a_bad_tfrc_parameter_and_a_tcp_key_on_a_tfrc_flow_are_errors_naming_line_and_key() {
    let with = |extra: &str| one_bdp_chain("1s", &TFRC_FLOW.replace("type = \"tfrc\"\n", &format!("type = \"tfrc\"\n{extra}\n")));
    let err = tcpsim::load_str(&with("rtt_filter = 1.5"), "tfrc.toml").expect_err("df_ above 1").to_string();
    assert!(err.contains("tfrc.toml") && err.contains("line") && err.contains("rtt_filter"), "{err}");
    let err = tcpsim::load_str(&with("cc = \"vegas\""), "tfrc.toml").expect_err("a TCP key").to_string();
    assert!(err.contains("'cc' applies to type = \"tcp\" flows"), "{err}");
}

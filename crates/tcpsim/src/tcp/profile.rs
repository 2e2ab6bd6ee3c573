//! TCP profiles: named sets of defaults for a TCP flow's keys.
//!
//! ns-2's one-way TCP stays the default of every key. A flow that names a profile
//! (`profile = "linux"` in its `[[flow]]` table) gets the profile's value for each key it
//! does not write itself; a key the flow writes wins, whole (a `receiver` table written in
//! the flow replaces the profile's receiver, it is not merged with it). The profile is
//! data, read by the scenario reader, `tcpsim models` (through the catalogue's JSON),
//! the generated documentation and the Python front end; its values are scenario text,
//! checked by the same reader as a scenario's own keys (a test loads every profile).

/// A named set of defaults for the keys of a TCP flow.
#[derive(Debug)]
pub struct TcpProfile {
    pub name: &'static str,
    pub summary: &'static str,
    pub source: &'static str,
    /// The flow's source type this profile applies to.
    pub source_type: &'static str,
    /// (flow key, value as scenario (TOML) text, why this value): the flow's defaults.
    pub defaults: &'static [(&'static str, &'static str, &'static str)],
}

/// A Linux sender and receiver of today (kernel 6.x defaults), within what a
/// packet-counted one-way TCP models.
pub static LINUX: TcpProfile = TcpProfile {
    name: "linux",
    summary: "a Linux-like TCP: CUBIC, initial window 10, PRR recovery with SACK and RACK-TLP, delayed ACKs with quick-ACK at 40 ms, an RTT sample from every ACK and Linux's RTO (min 200 ms, 1 ms ticks), a large receive window",
    source: "Linux net/ipv4 (tcp_input.c, tcp_output.c, tcp_timer.c, include/net/tcp.h) and its sysctl defaults; RFC 6928, 6937, 8985, 7323, 6298",
    source_type: "tcp",
    defaults: &[
        ("cc", "\"cubic\"", "Linux's default window control since 2.6.19 (net.ipv4.tcp_congestion_control = cubic)"),
        ("initial_window", "10", "TCP_INIT_CWND = 10 (RFC 6928)"),
        ("max_window", "3000", "stands for receive-window autotuning: Linux's default ceiling net.ipv4.tcp_rmem = 6 MiB, about half of which is advertised, is about 3000 packets of 1000 bytes"),
        ("header_size", "\"52B\"", "20 bytes IP + 20 bytes TCP + 12 bytes of the timestamps option (RFC 7323 §3, padded), which Linux sends on every segment"),
        ("ack_size", "\"52B\"", "an ACK carries the timestamps option too"),
        ("syn", "true", "the connection opens with a SYN"),
        ("limited_transmit", "true", "new data leaves while SACKed packets have left the network (tcp_packets_in_flight)"),
        ("ecn", "false", "net.ipv4.tcp_ecn = 2: ECN only when the peer asks"),
        ("recovery", "{ kind = \"prr\", rack = true }", "SACK recovery with Proportional Rate Reduction (Linux 3.2 and later; RFC 6937) and RACK-TLP loss detection (net.ipv4.tcp_recovery = 1, tcp_early_retrans = 3; RFC 8985)"),
        ("receiver", "{ kind = \"delayed\", sack = true, timeout = \"40ms\", quickack = 16 }", "SACK on (net.ipv4.tcp_sack = 1); delayed ACKs at TCP_ATO_MIN = 40 ms with TCP_MAX_QUICKACKS = 16 quick ACKs"),
        ("rtt_samples", "\"every_ack\"", "timestamps on (net.ipv4.tcp_timestamps = 1): an RTT sample from every ACK of new data"),
        ("rto_rule", "\"linux\"", "tcp_rtt_estimator and tcp_set_rto"),
        ("min_rto", "\"200ms\"", "TCP_RTO_MIN"),
        ("initial_rto", "\"1s\"", "TCP_TIMEOUT_INIT (RFC 6298 §2.1)"),
        ("max_rto", "\"120s\"", "TCP_RTO_MAX"),
        ("clock_granularity", "\"1ms\"", "one jiffy at HZ = 1000"),
    ],
};

/// Every profile, in the order `tcpsim models` lists them.
pub static PROFILES: &[&TcpProfile] = &[&LINUX];

/// The profile called `name`, if any.
pub fn find(name: &str) -> Option<&'static TcpProfile> {
    PROFILES.iter().copied().find(|p| p.name == name)
}

/// The names of every profile.
pub fn names() -> Vec<&'static str> {
    PROFILES.iter().map(|p| p.name).collect()
}

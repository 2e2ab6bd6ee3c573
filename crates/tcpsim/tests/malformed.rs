//! Malformed scenario files.
//!
//! The requirement: any bad input gets one clear error naming the file, line, key and what
//! was expected, `tcpsim-run` exits with status 2, and no input makes the parser or the
//! simulator panic or hang.
//!
//! * `table_of_malformed_scenarios`: hand-written bad files, each with the key path, line
//!   and a word of the message its error must carry. The expected line is the line marked
//!   with `# <-`; a case without a marker expects no line.
//! * `mutation_fuzz`: a few thousand deterministic mutants of valid scenarios, loaded (and,
//!   when cheap, run) under `catch_unwind` and a watchdog.
//! * `cli_*`: `tcpsim-run` on bad files exits 2 with a located message and no panic.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tcpsim::scenario::load_str;
use tcpsim::ScenarioError;

const FILE: &str = "bad.toml";
const MARK: &str = "# <-";

/// Loads `text` and, if that succeeds, builds and runs it: the first error.
fn load_and_run(text: &str, file: &str) -> Result<(), ScenarioError> {
    let scenario = load_str(text, file)?;
    tcpsim::run(&scenario).map(|_| ())
}

/// The 1-based line carrying the `# <-` marker, if any.
fn marked_line(text: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(MARK)).map(|i| i + 1)
}

// ---------------------------------------------------------------------------------------
// Building blocks for the table.
// ---------------------------------------------------------------------------------------

/// A three-node graph with one link a–b and one TCP flow a → b; `link_extra` is appended
/// to the link table and `flow_extra` to the flow table.
fn graph(link_extra: &str, flow_extra: &str) -> String {
    format!(
        r#"[simulation]
duration = "1s"

[network]
nodes = ["a", "b", "c"]

[[link]]
from = "a"
to = "b"
rate = "10Mbps"
delay = "5ms"
{link_extra}
[[flow]]
from = "a"
to = "b"
{flow_extra}"#
    )
}

/// `graph` with a link whose queue is `queue` (an inline table, or `""`).
fn with_queue(queue: &str) -> String {
    graph(&format!("queue = {queue} {MARK}\n"), "")
}

/// A valid two-pair dumbbell without flows or monitor; `extra` goes into `[dumbbell]`.
fn dumbbell(extra: &str) -> String {
    format!(
        r#"[simulation]
duration = "1s"

[dumbbell]
pairs = 2
{extra}
[dumbbell.bottleneck]
rate = "1.5Mbps"
delay = "20ms"

[dumbbell.access]
rate = "10Mbps"
delay = "2ms"
"#
    )
}

struct Case {
    name: &'static str,
    text: String,
    /// Expected key path: exact, or a prefix when it ends with '*'.
    key: &'static str,
    /// A word the message must contain.
    word: &'static str,
    /// A known bug: the case shows what should happen. The main table and the CLI test
    /// skip it; `known_bugs_in_the_table` (ignored until fixed) checks it.
    bug: Option<&'static str>,
    /// Loading and running without an error is acceptable too (only no panic is required).
    may_succeed: bool,
}

fn case(name: &'static str, text: impl Into<String>, key: &'static str, word: &'static str) -> Case {
    Case { name, text: text.into(), key, word, bug: None, may_succeed: false }
}

fn known_bug(why: &'static str, c: Case) -> Case {
    Case { bug: Some(why), ..c }
}

/// A bad value that may also be accepted (clamped), as long as nothing panics.
fn or_accepted(c: Case) -> Case {
    Case { may_succeed: true, ..c }
}

fn cases() -> Vec<Case> {
    let m = MARK;
    vec![
        // --- TOML syntax (no key; the line of the syntax error) ---
        case(
            "toml: unterminated string (reported where it starts)",
            format!("[simulation]\nduration = \"1s {m}\nseed = 3\n"),
            "",
            "not valid TOML",
        ),
        case(
            "toml: unterminated string, marker on the same line",
            "[simulation]\nduration = \"1s # <-\n",
            "",
            "not valid TOML",
        ),
        case("toml: broken header", graph("", "").replace("[[flow]]", "[[flow] # <-"), "", "not valid TOML"),
        case(
            "toml: duplicate key",
            graph(&format!("delay = \"6ms\" {m}\n"), ""),
            "",
            "not valid TOML",
        ),
        case("toml: bare value", graph(&format!("rate 10Mbps {m}\n"), ""), "", "not valid TOML"),
        case(
            // TOML 1.1 allows newlines in inline tables: the error is where the parser gives up.
            "toml: unclosed inline table",
            graph("queue = { kind = \"red\", limit = \"20p\"\n", "").replace("[[flow]]", "[[flow]] # <-"),
            "",
            "not valid TOML",
        ),
        case("toml: invalid escape", graph("", &format!("name = \"a\\qb\" {m}\n")), "", "not valid TOML"),
        case("toml: control character", graph("", &format!("name = \"a\u{7}b\" {m}\n")), "", "not valid TOML"),
        // --- missing required parts ---
        case("missing [simulation]", graph("", "").replace("[simulation]\nduration = \"1s\"\n", ""), "simulation", "[simulation]"),
        case(
            "missing duration",
            graph("", "").replace("[simulation]\nduration = \"1s\"", "[simulation] # <-\nseed = 3"),
            "simulation",
            "duration",
        ),
        case(
            "no flows",
            "[simulation]\nduration = \"1s\"\n[network]\nnodes = [\"a\"]\n",
            "flow",
            "no flows",
        ),
        case("missing link rate", graph("", "").replace("rate = \"10Mbps\"\n", "").replace("[[link]]", "[[link]] # <-"), "link[0]", "rate"),
        case(
            "missing flow destination",
            "[simulation]\nduration = \"1s\"\n[network]\nnodes = [\"a\"]\n[[flow]] # <-\nfrom = \"a\"\n",
            "flow[0]",
            "missing key 'to'",
        ),
        // --- unknown keys ---
        case("unknown key in [simulation]", graph("", "").replace("duration = \"1s\"", "duration = \"1s\"\nsed = 3 # <-"), "simulation.sed", "unknown key"),
        case("unknown key in [[link]]", graph(&format!("bandwidth = \"1Mbps\" {m}\n"), ""), "link[0].bandwidth", "unknown key"),
        case("unknown key in [[flow]]", graph("", &format!("windw = 3 {m}\n")), "flow[0].windw", "unknown key"),
        case("unknown key in [network]", graph("", "").replace("nodes = [", "hosts = 1 # <-\nnodes = ["), "network.hosts", "unknown key"),
        case("unknown top-level table", format!("{}\n[monitr] {m}\ninterval = \"1s\"\n", graph("", "")), "monitr", "unknown key"),
        case("unknown RED key", with_queue("{ kind = \"red\", min_thresh = 5 }"), "link[0].queue.min_thresh", "unknown key"),
        case("unknown droptail key", with_queue("{ kind = \"droptail\", limit = \"10p\", min_th = 5 }"), "link[0].queue.min_th", "unknown key"),
        case(
            "unknown key in a [link.queue] sub-table",
            graph("[link.queue]\nkind = \"droptail\"\nlimt = \"10p\" # <-\n", ""),
            "link[0].queue.limt",
            "unknown key",
        ),
        case("unknown key in [monitor]", format!("{}\n[monitor]\nqueus = \"all\" {m}\n", graph("", "")), "monitor.queus", "unknown key"),
        case(
            "unknown key in [dumbbell.bottleneck]",
            dumbbell("").replace("delay = \"20ms\"", "delay = \"20ms\"\nbuffer = \"10p\" # <-") + "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
            "dumbbell.bottleneck.buffer",
            "unknown key",
        ),
        // --- unknown algorithms / choices ---
        case("unknown recovery", graph("", &format!("recovery = \"cubic\" {m}\n")), "flow[0].recovery", "newreno"),
        case("unknown cc", graph("", &format!("cc = \"vegas\" {m}\n")), "flow[0].cc", "reno"),
        case("unknown flow type", graph("", &format!("type = \"udp\" {m}\n")), "flow[0].type", "cbr"),
        case("unknown queue kind", with_queue("{ kind = \"codel\" }"), "link[0].queue.kind", "droptail"),
        case("unknown receiver", graph("", &format!("receiver = \"sack\" {m}\n")), "flow[0].receiver", "delayed"),
        // --- units ---
        case("delay with a rate unit", graph("", "").replace("delay = \"5ms\"", "delay = \"5Mbps\" # <-"), "link[0].delay", "time"),
        case("rate without a unit", graph("", "").replace("rate = \"10Mbps\"", "rate = \"10\" # <-"), "link[0].rate", "rate with a unit"),
        case("rate with a time unit", graph("", "").replace("rate = \"10Mbps\"", "rate = \"10ms\" # <-"), "link[0].rate", "rate with a unit"),
        case("rate in bytes", graph("", "").replace("rate = \"10Mbps\"", "rate = \"10MB\" # <-"), "link[0].rate", "rate with a unit"),
        case("rate as a bare number", graph("", "").replace("rate = \"10Mbps\"", "rate = 10000000 # <-"), "link[0].rate", "quoted string"),
        case("negative rate", graph("", "").replace("rate = \"10Mbps\"", "rate = \"-1Mbps\" # <-"), "link[0].rate", "greater than zero"),
        case("zero rate", graph("", "").replace("rate = \"10Mbps\"", "rate = \"0Mbps\" # <-"), "link[0].rate", "greater than zero"),
        case("zero CBR rate", graph("", &format!("type = \"cbr\"\nrate = \"0bps\" {m}\n")), "flow[0].rate", "greater than zero"),
        case("packet size without a unit", graph("", &format!("packet_size = 1000 {m}\n")), "flow[0].packet_size", "size"),
        case("zero packet size", graph("", &format!("packet_size = \"0B\" {m}\n")), "flow[0].packet_size", "size from 1 B"),
        case("fractional byte size", graph("", &format!("packet_size = \"10.5B\" {m}\n")), "flow[0].packet_size", "whole number of bytes"),
        case("overflowing time", graph("", &format!("start = \"1e400s\" {m}\n")), "flow[0].start", "time"),
        case("time beyond the clock", graph("", &format!("start = \"1e300s\" {m}\n")), "flow[0].start", "100 days"),
        case("limit without a unit", with_queue("{ kind = \"droptail\", limit = \"50\" }"), "link[0].queue.limit", "packets or bytes"),
        case("fractional packet limit", with_queue("{ kind = \"droptail\", limit = \"2.5p\" }"), "link[0].queue.limit", "whole number of packets"),
        case("negative packet limit", with_queue("{ kind = \"red\", limit = \"-5p\" }"), "link[0].queue.limit", "packets"),
        // --- times ---
        case("duration zero", graph("", "").replace("duration = \"1s\"", "duration = \"0s\" # <-"), "simulation.duration", "greater than zero"),
        case("duration negative", graph("", "").replace("duration = \"1s\"", "duration = \"-1s\" # <-"), "simulation.duration", "not negative"),
        case("duration as a number", graph("", "").replace("duration = \"1s\"", "duration = 10 # <-"), "simulation.duration", "quoted string"),
        case("duration as a table", graph("", "").replace("duration = \"1s\"", "duration = { s = 1 } # <-"), "simulation.duration", "time"),
        case("negative start", graph("", &format!("start = \"-1s\" {m}\n")), "flow[0].start", "not negative"),
        case("negative delay", graph("", "").replace("delay = \"5ms\"", "delay = \"-5ms\" # <-"), "link[0].delay", "not negative"),
        case("stop before start", graph("", &format!("start = \"0.5s\"\nstop = \"0.2s\" {m}\n")), "flow[0].stop", "after the start"),
        case("stop at start", graph("", &format!("start = \"0.5s\"\nstop = \"500ms\" {m}\n")), "flow[0].stop", "after the start"),
        case("zero clock granularity", graph("", &format!("clock_granularity = \"0s\" {m}\n")), "flow[0].clock_granularity", "greater than zero"),
        case("zero initial RTO", graph("", &format!("initial_rto = \"0s\" {m}\n")), "flow[0].initial_rto", "greater than zero"),
        case("max_rto below min_rto", graph("", &format!("min_rto = \"1s\"\nmax_rto = \"100ms\" {m}\n")), "flow[0].max_rto", "min_rto"),
        case("zero monitor interval", format!("{}\n[monitor]\ninterval = \"0s\" {m}\n", graph("", "")), "monitor.interval", "greater than zero"),
        // --- wrong types ---
        case("seed as a string", graph("", "").replace("duration = \"1s\"", "duration = \"1s\"\nseed = \"7\" # <-"), "simulation.seed", "integer"),
        case("negative seed", graph("", "").replace("duration = \"1s\"", "duration = \"1s\"\nseed = -1 # <-"), "simulation.seed", "integer from 0"),
        case("node name as a table", graph("", "").replace("from = \"a\"\nto = \"b\"\nrate", "from = { x = 1 } # <-\nto = \"b\"\nrate"), "link[0].from", "string"),
        case("node name as a number", graph("", "").replace("[[flow]]\nfrom = \"a\"", "[[flow]]\nfrom = 1 # <-"), "flow[0].from", "string"),
        case("queue as a string", with_queue("\"red\""), "link[0].queue", "table"),
        case("nodes as a string", graph("", "").replace("nodes = [\"a\", \"b\", \"c\"]", "nodes = \"a\" # <-"), "network.nodes", "list of strings"),
        case("nodes with a number", graph("", "").replace("nodes = [\"a\", \"b\", \"c\"]", "nodes = [\"a\", \"b\", 3] # <-"), "network.nodes", "list of strings"),
        case("[[flow]] as a number", "flow = 3 # <-\n[simulation]\nduration = \"1s\"\n", "flow", "[[flow]]"),
        case("[[flow]] as a list of numbers", "flow = [1, 2] # <-\n[simulation]\nduration = \"1s\"\n", "flow", "list of tables"),
        case("[simulation] as a value", "simulation = \"1s\" # <-\n", "simulation", "table"),
        case("boolean as a string", with_queue("{ kind = \"red\", gentle = \"yes\" }"), "link[0].queue.gentle", "true or false"),
        case("max_window as a float", graph("", &format!("max_window = 2.5 {m}\n")), "flow[0].max_window", "integer"),
        case("max_window zero", graph("", &format!("max_window = 0 {m}\n")), "flow[0].max_window", "integer from 1"),
        case("initial_window zero", graph("", &format!("initial_window = 0 {m}\n")), "flow[0].initial_window", "number from 1"),
        case("dupack_threshold zero", graph("", &format!("dupack_threshold = 0 {m}\n")), "flow[0].dupack_threshold", "integer from 1"),
        case("date as a time", graph("", &format!("start = 1979-05-27 {m}\n")), "flow[0].start", "date"),
        // --- RED parameters ---
        case("max_th equal to min_th", with_queue("{ kind = \"red\", min_th = 10, max_th = 10 }"), "link[0].queue", "max_th greater than min_th"),
        case("max_th below min_th", with_queue("{ kind = \"red\", min_th = 20, max_th = 10 }"), "link[0].queue", "max_th greater than min_th"),
        case("RED max_p above one", with_queue("{ kind = \"red\", max_p = 1.5 }"), "link[0].queue.max_p", "number from 0 to 1"),
        case("RED weight negative", with_queue("{ kind = \"red\", weight = -0.1 }"), "link[0].queue.weight", "number from 0 to 1"),
        case("RED linterm and max_p", with_queue("{ kind = \"red\", max_p = 0.1, linterm = 10 }"), "link[0].queue.linterm", "not both"),
        case("RED mean_packet_size zero", with_queue("{ kind = \"red\", mean_packet_size = \"0B\" }"), "link[0].queue.mean_packet_size", "greater than zero"),
        case("RED queue without kind", with_queue("{ limit = \"20p\" }"), "link[0].queue", "'kind'"),
        // --- queue limits that cannot hold a packet ---
        case("droptail limit 0p", with_queue("{ kind = \"droptail\", limit = \"0p\" }"), "link[0].queue.limit", "at least one packet"),
        case("droptail limit 0B", with_queue("{ kind = \"droptail\", limit = \"0B\" }"), "link[0].queue.limit", "at least one packet"),
        case("RED limit 0p", with_queue("{ kind = \"red\", limit = \"0p\" }"), "link[0].queue.limit", "at least one packet"),
        case(
            "limit 0p in [link.queue_reverse]",
            graph("[link.queue_reverse]\nkind = \"droptail\"\nlimit = \"0p\" # <-\n", ""),
            "link[0].queue_reverse.limit",
            "at least one packet",
        ),
        // --- nodes, links, flows ---
        case("unknown link node", graph("", "").replace("to = \"b\"\nrate", "to = \"z\" # <-\nrate"), "link[0].to", "unknown node \"z\""),
        case("unknown flow source", graph("", "").replace("[[flow]]\nfrom = \"a\"", "[[flow]]\nfrom = \"q\" # <-"), "flow[0].from", "unknown node \"q\""),
        case("unknown flow destination", graph("", "").replace("[[flow]]\nfrom = \"a\"\nto = \"b\"", "[[flow]]\nfrom = \"a\"\nto = \"B\" # <-"), "flow[0].to", "unknown node \"B\""),
        case("duplicate node", graph("", "").replace("nodes = [\"a\", \"b\", \"c\"]", "nodes = [\"a\", \"b\", \"a\"] # <-"), "network.nodes", "declared twice"),
        case("node name with spaces", graph("", "").replace("nodes = [\"a\", \"b\", \"c\"]", "nodes = [\"a\", \"b\", \"c d\"] # <-"), "network.nodes", "without spaces"),
        case("empty node name", graph("", "").replace("nodes = [\"a\", \"b\", \"c\"]", "nodes = [\"a\", \"b\", \"\"] # <-"), "network.nodes", "node names"),
        case(
            "network node clashing with a dumbbell node",
            dumbbell("").replace("[dumbbell]", "[network]\nnodes = [\"r1\"]\n[dumbbell]").replace("pairs = 2", "pairs = 2 # <-")
                + "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
            "dumbbell.pairs",
            "declared twice",
        ),
        case(
            "duplicate link (reversed)",
            graph("[[link]]\nfrom = \"b\"\nto = \"a\" # <-\nrate = \"1Mbps\"\ndelay = \"1ms\"\n", ""),
            "link[1].to",
            "already exists",
        ),
        case("link to itself", graph("", "").replace("to = \"b\"\nrate", "to = \"a\" # <-\nrate"), "link[0].to", "two different nodes"),
        case("flow to itself", graph("", "").replace("[[flow]]\nfrom = \"a\"\nto = \"b\"", "[[flow]]\nfrom = \"a\"\nto = \"a\" # <-"), "flow[0].to", "different from the source"),
        case(
            "duplicate flow names",
            graph("", "name = \"x\"\n[[flow]]\nname = \"x\" # <-\nfrom = \"b\"\nto = \"a\"\n"),
            "flow[1].name",
            "used twice",
        ),
        case("count zero", graph("", &format!("count = 0 {m}\n")), "flow[0].count", "integer from 1"),
        case("count negative", graph("", &format!("count = -3 {m}\n")), "flow[0].count", "integer from 1"),
        case("count as a string", graph("", &format!("count = \"2\" {m}\n")), "flow[0].count", "integer"),
        case("count as a float", graph("", &format!("count = 1.5 {m}\n")), "flow[0].count", "integer"),
        case("count too large", graph("", &format!("count = 99999999999 {m}\n")), "flow[0].count", "integer from 1"),
        case(
            "count expands to an unknown node",
            graph("", "").replace("[[flow]]\nfrom = \"a\"\nto = \"b\"", "[[flow]]\ncount = 3\nfrom = \"a\"\nto = \"n{i}\" # <-").replace("[\"a\", \"b\", \"c\"]", "[\"a\", \"b\", \"n0\", \"n1\"]"),
            "flow[0].to",
            "unknown node \"n2\"",
        ),
        case("TCP flow with a CBR key", graph("", &format!("rate = \"1Mbps\" {m}\n")), "flow[0].rate", "cbr"),
        case("CBR flow with a TCP key", graph("", &format!("type = \"cbr\"\nrecovery = \"reno\" {m}\n")), "flow[0].recovery", "TCP"),
        // --- generators ---
        case(
            "dumbbell access_delays too short",
            dumbbell(&format!("access_delays = [\"1ms\"] {m}\n")) + "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
            "dumbbell.access_delays",
            "expected 2 delays",
        ),
        case(
            "dumbbell access_delays too long",
            dumbbell(&format!("access_delays = [\"1ms\", \"2ms\", \"3ms\"] {m}\n")) + "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
            "dumbbell.access_delays",
            "expected 2 delays",
        ),
        case(
            "dumbbell access_delays bad entry",
            dumbbell(&format!("access_delays = [\"1ms\", \"2Mbps\"] {m}\n")) + "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
            "dumbbell.access_delays",
            "time",
        ),
        case(
            "dumbbell pairs zero",
            dumbbell("").replace("pairs = 2", "pairs = 0 # <-") + "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
            "dumbbell.pairs",
            "integer from 1",
        ),
        case(
            "dumbbell without bottleneck",
            dumbbell("").replace("[dumbbell.bottleneck]\nrate = \"1.5Mbps\"\ndelay = \"20ms\"\n", "").replace("[dumbbell]", "[dumbbell] # <-")
                + "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
            "dumbbell",
            "bottleneck",
        ),
        case(
            "dumbbell flow to a missing pair",
            dumbbell("") + "[[flow]]\nfrom = \"s0\"\nto = \"d2\" # <-\n",
            "flow[0].to",
            "unknown node \"d2\"",
        ),
        case(
            "chain with one router",
            "[simulation]\nduration = \"1s\"\n[chain]\nrouters = 1 # <-\nrate = \"1Mbps\"\ndelay = \"1ms\"\n[[flow]]\nfrom = \"r0\"\nto = \"r1\"\n",
            "chain.routers",
            "integer from 2",
        ),
        // --- monitor ---
        case("monitor unknown flow", format!("{}\n[monitor]\nflows = [\"nope\"] {m}\n", graph("", "")), "monitor.flows", "unknown flow \"nope\""),
        case("monitor unknown queue", format!("{}\n[monitor]\nqueues = [\"a->c\"] {m}\n", graph("", "")), "monitor.queues", "unknown queue \"a->c\""),
        case("monitor flows selector", format!("{}\n[monitor]\nflows = \"some\" {m}\n", graph("", "")), "monitor.flows", "\"all\""),
        case("monitor queues as a number", format!("{}\n[monitor]\nqueues = 3 {m}\n", graph("", "")), "monitor.queues", "\"all\""),
        // --- errors found by run(): build-time checks ---
        case(
            "byte limit smaller than a packet (run)",
            graph("queue = { kind = \"droptail\", limit = \"500B\" }\n", "").replace("[[link]]", "[[link]] # <-"),
            "*queue.limit",
            "largest packet (1040 B)",
        ),
        case(
            "byte limit equal to a packet (run)",
            graph("queue = { kind = \"droptail\", limit = \"1040B\" }\n", "").replace("[[link]]", "[[link]] # <-"),
            "*queue.limit",
            "largest packet (1040 B)",
        ),
        case(
            "byte limit smaller than a CBR packet (run)",
            graph("queue = { kind = \"droptail\", limit = \"1000B\" }\n", "type = \"cbr\"\npacket_size = \"1500B\"\n")
                .replace("[[link]]", "[[link]] # <-"),
            "*queue.limit",
            "largest packet (1500 B)",
        ),
        case(
            "RED byte-mode limit smaller than a packet (run)",
            graph("queue = { kind = \"red\", limit = \"1p\", queue_in_bytes = true, mean_packet_size = \"500B\" }\n", "")
                .replace("[[link]]", "[[link]] # <-"),
            "*queue.limit",
            "at least one packet",
        ),
        case(
            "unreachable destination (run)",
            "[simulation]\nduration = \"1s\"\n[network]\nnodes = [\"a\", \"b\", \"c\", \"d\"]\n\
             [[link]]\nfrom = \"a\"\nto = \"b\"\nrate = \"1Mbps\"\ndelay = \"1ms\"\n\
             [[link]]\nfrom = \"c\"\nto = \"d\"\nrate = \"1Mbps\"\ndelay = \"1ms\"\n\
             [[flow]] # <-\nfrom = \"a\"\nto = \"d\"\n",
            "flow[0]",
            "no route from \"a\" to \"d\"",
        ),
        case(
            "isolated destination node (run)",
            graph("", "").replace("[[flow]]\nfrom = \"a\"\nto = \"b\"", "[[flow]] # <-\nfrom = \"b\"\nto = \"c\""),
            "flow[0]",
            "no route from \"b\" to \"c\"",
        ),
        // --- known bugs: what should happen (checked strictly by `known_bugs_in_the_table`) ---
        known_bug(
            "BUG-1: a queue limit found too small by run() is reported as key 'queue.limit', \
             without the link, and even when the offending table is queue_reverse",
            case(
                "byte limit too small in queue_reverse (run)",
                graph(&format!("queue_reverse = {{ kind = \"droptail\", limit = \"500B\" }} {m}\n"), ""),
                "link[0].queue_reverse.limit",
                "largest packet",
            ),
        ),
        known_bug(
            "BUG-1: a queue limit found too small by run() in a generator is located at the \
             [dumbbell] header with key 'queue.limit', not at dumbbell.access.queue",
            case(
                "byte limit too small in a dumbbell access queue (run)",
                dumbbell("")
                    .replace("delay = \"2ms\"", "delay = \"2ms\"\nqueue = { kind = \"droptail\", limit = \"500B\" } # <-")
                    + "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
                "dumbbell.access.queue.limit",
                "largest packet",
            ),
        ),
        known_bug(
            "BUG-2: a RED packet-mode limit given in bytes below mean_packet_size becomes 0 packets: \
             accepted, and every packet is dropped",
            case(
                "RED packet-mode byte limit below one packet",
                with_queue("{ kind = \"red\", limit = \"100B\" }"),
                "link[0].queue.limit",
                "at least one packet",
            ),
        ),
        known_bug(
            "BUG-3: a misspelled top-level table is reported only after everything else, so the \
             error names an unrelated key (here: unknown node \"s0\")",
            case(
                "misspelled [dumbbell] table",
                dumbbell("").replace("[dumbbell]", "[dumbell] # <-").replace("[dumbbell.", "[dumell.")
                    + "[[flow]]\nfrom = \"s0\"\nto = \"d0\"\n",
                "dumell",
                "unknown key 'dumell'",
            ),
        ),
        known_bug(
            "BUG-3: a misspelled [[flow]] table gives 'no flows' instead of naming the key",
            case("misspelled [[flow]] table", graph("", "").replace("[[flow]]", "[[flows]] # <-"), "flows", "unknown key 'flows'"),
        ),
        known_bug(
            "BUG-3: a misspelled required key gives 'missing key' at the table header instead of \
             naming the misspelled key and its line",
            case("misspelled link rate", graph("", "").replace("rate = \"10Mbps\"", "rat = \"10Mbps\" # <-"), "link[0].rat", "unknown key 'rat'"),
        ),
        known_bug(
            "BUG-4: start + start_spacing * i overflows u64 (panic in debug builds, wrapped start \
             times in release) instead of an error",
            or_accepted(case(
                "start_spacing times count beyond the clock",
                graph("", &format!("count = 4\nname = \"f{{i}}\"\nstart_spacing = \"9000000s\" {m}\n")),
                "flow[0].*",
                "",
            )),
        ),
        known_bug(
            "BUG-5: RED limit in packets times mean_packet_size overflows u64 (panic in debug builds)",
            or_accepted(case(
                "RED limit in bytes beyond u64",
                with_queue("{ kind = \"red\", limit = \"999999999999p\", mean_packet_size = \"4000000000B\" }"),
                "link[0].queue*",
                "",
            )),
        ),
    ]
}

fn key_matches(expected: &str, key: &str) -> bool {
    if let Some(prefix) = expected.strip_suffix('*') {
        key.starts_with(prefix)
    } else if let Some(suffix) = expected.strip_prefix('*') {
        key.ends_with(suffix)
    } else {
        key == expected
    }
}

/// Checks one case; returns a description of what is wrong, if anything.
fn check_case(c: &Case) -> Option<String> {
    let expected_line = marked_line(&c.text);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| load_and_run(&c.text, FILE)));
    let err = match outcome {
        Err(p) => return Some(format!("[{}] panicked: {}\n{}", c.name, panic_message(&*p), numbered(&c.text))),
        Ok(Ok(())) if c.may_succeed => return None,
        Ok(Ok(())) => return Some(format!("[{}] was accepted\n{}", c.name, numbered(&c.text))),
        Ok(Err(e)) => e,
    };
    let shown = err.to_string();
    let mut wrong = Vec::new();
    if err.file != FILE || !shown.starts_with(FILE) {
        wrong.push(format!("file: got {:?}", err.file));
    }
    if err.line != expected_line {
        wrong.push(format!("line: expected {expected_line:?}, got {:?}", err.line));
    }
    if !key_matches(c.key, &err.key) {
        wrong.push(format!("key: expected {:?}, got {:?}", c.key, err.key));
    }
    if !err.message.contains(c.word) {
        wrong.push(format!("message: expected it to contain {:?}", c.word));
    }
    if let Some(line) = err.line {
        if !shown.contains(&format!(", line {line}")) {
            wrong.push("Display does not show the line".into());
        }
    }
    if !err.key.is_empty() && !shown.contains(&format!(", key '{}'", err.key)) {
        wrong.push("Display does not show the key".into());
    }
    if wrong.is_empty() {
        None
    } else {
        Some(format!("[{}] {}\n  error: {shown}\n{}", c.name, wrong.join("; "), numbered(&c.text)))
    }
}

fn numbered(text: &str) -> String {
    text.lines().enumerate().map(|(i, l)| format!("  {:>3} | {l}\n", i + 1)).collect()
}

#[test]
fn table_of_malformed_scenarios() {
    let cases = cases();
    let good = cases.iter().filter(|c| c.bug.is_none()).count();
    assert!(good >= 40, "only {good} cases");
    let failures: Vec<String> = cases.iter().filter(|c| c.bug.is_none()).filter_map(check_case).collect();
    assert!(failures.is_empty(), "{} of {} cases wrong:\n\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[test]
#[ignore = "bug: known parser/simulator bugs BUG-1..BUG-5 (see each case's `bug`)"]
fn known_bugs_in_the_table() {
    let cases = cases();
    let failures: Vec<String> = cases
        .iter()
        .filter(|c| c.bug.is_some())
        .filter_map(|c| check_case(c).map(|why| format!("{}\n{why}", c.bug.unwrap_or_default())))
        .collect();
    assert!(failures.is_empty(), "{} known bugs still present:\n\n{}", failures.len(), failures.join("\n"));
}

/// The valid starting points are valid: otherwise the table and the fuzz test nothing.
#[test]
fn seeds_and_building_blocks_are_valid() {
    for (name, text) in seeds() {
        let scenario = load_str(text, name).unwrap_or_else(|e| panic!("{e}"));
        tcpsim::run(&scenario).unwrap_or_else(|e| panic!("{e}"));
    }
    for text in [graph("", ""), with_queue("{ kind = \"red\", limit = \"20p\" }").replace(MARK, ""), dumbbell("") + "[[flow]]\nfrom = \"s0\"\nto = \"d1\"\n"] {
        load_and_run(&text, FILE).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}

// ---------------------------------------------------------------------------------------
// Mutation fuzzing.
// ---------------------------------------------------------------------------------------

const DUMBBELL_RED: &str = r#"# A dumbbell with a RED bottleneck.
[simulation]
duration = "1s"
seed = 7

[dumbbell]
pairs = 2
access_delays = ["1ms", "3ms"]

[dumbbell.bottleneck]
rate = "1.5Mbps"
delay = "20ms"
queue = { kind = "red", limit = "30p", min_th = 5, max_th = 15, weight = 0.002, max_p = 0.1 }

[dumbbell.access]
rate = "10Mbps"
delay = "2ms"
queue = { kind = "droptail", limit = "100p" }

[[flow]]
name = "f{i}"
count = 2
from = "s{i}"
to = "d{i}"
recovery = "reno"
start_spacing = "0.1s"
max_window = 50

[monitor]
interval = "100ms"
flows = "all"
queues = ["r1->r2"]
"#;

const GRAPH_CBR_TCP: &str = r#"[simulation]
duration = "1s"

[network]
nodes = ["a", "b", "c"]

[[link]]
from = "a"
to = "b"
rate = "10Mbps"
delay = "5ms"
queue = { kind = "droptail", limit = "20p" }

[[link]]
from = "b"
to = "c"
rate = "2Mbps"
delay = "10ms"
[link.queue]
kind = "red"
limit = "40p"
min_th = 5
max_th = 15
gentle = false
[link.queue_reverse]
kind = "droptail"
limit = "30000B"

[[flow]]
name = "bulk"
from = "a"
to = "c"
type = "tcp"
recovery = "newreno"
packet_size = "1000B"
receiver = "delayed"
stop = "0.9s"

[[flow]]
name = "video"
from = "a"
to = "c"
type = "cbr"
rate = "500Kbps"
packet_size = "500B"
jitter = true
start = "0.2s"

[monitor]
interval = "50ms"
flows = ["bulk"]
queues = "all"
"#;

const CHAIN: &str = r#"[simulation]
duration = "1s"
seed = 3

[chain]
routers = 4
rate = "5Mbps"
delay = "3ms"
queue = { kind = "droptail", limit = "25p" }

[[flow]]
from = "r0"
to = "r3"
recovery = "tahoe"
initial_window = 1
max_window = 30
min_rto = "100ms"
clock_granularity = "100ms"

[[flow]]
from = "r3"
to = "r1"
type = "cbr"
rate = "1Mbps"
"#;

const INLINE_ARRAYS: &str = r#"link = [{ from = "x", to = "y", rate = "1Mbps", delay = "1ms", queue = { kind = "red", limit = "20000B", queue_in_bytes = true, bytes = true, mean_packet_size = "1000B", wait = false, ecn = true, linterm = 10 } }]
flow = [{ name = "t", from = "x", to = "y", packets = 50, ack_size = "40B", dupack_threshold = 2 }, { name = "u", from = "y", to = "x", initial_ssthresh = 8, syn = true }]

[simulation]
duration = "500ms"

[network]
nodes = ["x", "y"]
"#;

fn seeds() -> [(&'static str, &'static str); 4] {
    [
        ("dumbbell_red.toml", DUMBBELL_RED),
        ("graph_cbr_tcp.toml", GRAPH_CBR_TCP),
        ("chain.toml", CHAIN),
        ("inline_arrays.toml", INLINE_ARRAYS),
    ]
}

/// xorshift64: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Values no key accepts, or accepts only at the edge.
const BAD_VALUES: &[&str] = &[
    "\"-1ms\"", "\"0Mbps\"", "\"abc\"", "0", "-5", "1e308", "\"\"", "[]", "{}", "true", "\"1e400s\"",
    "\"999999999999p\"", "\"0p\"", "\"0B\"", "\"1p\"", "\"1B\"", "\"-0s\"", "\"NaNs\"", "\"infMbps\"", "nan", "inf",
    "-inf", "\"1e-300s\"", "\"5\"", "9223372036854775807", "-9223372036854775808", "\"µs\"", "\"1 ms ms\"",
    "[\"a\", 1]", "{ kind = \"red\" }", "{ kind = \"droptail\", limit = \"1B\" }", "1979-05-27T07:32:00Z",
    "\"a->b\"", "\"{i}\"", "\"s{i}{i}\"", "'''\nmultiline\n'''", "\"\\u0000\"", "0.5", "1.0", "2",
];

/// Plausible values: they keep mutants valid more often, so that run() gets exercised.
const PLAUSIBLE_VALUES: &[&str] = &[
    "\"1ms\"", "\"0s\"", "\"1ps\"", "\"2s\"", "\"1p\"", "\"2p\"", "\"1500B\"", "\"64KB\"", "\"1bps\"", "\"56Kbps\"",
    "\"10Mbps\"", "1", "2", "3", "\"red\"", "\"droptail\"", "\"a\"", "\"b\"", "\"c\"", "\"r1\"", "\"s0\"", "\"d1\"",
    "\"x\"", "\"y\"", "\"reno\"", "\"tahoe\"", "\"cbr\"", "\"tcp\"", "\"delayed\"", "\"none\"", "\"all\"", "false",
    "true", "0.9", "[\"r1->r2\"]", "[\"a->b\", \"b->a\"]", "[\"bulk\"]", "\"1000000000B\"",
];

/// Bytes worth inserting: structure characters, quotes, escapes and invalid UTF-8.
const NASTY_BYTES: &[u8] = b"[]{}=\"'#,.\n\r\t\\-+0123456789eEpBs{i}\x00\x7f\x80\xbf\xc3\xe2\xf0\xff";

fn misspell(key: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.is_empty() {
        return "x".into();
    }
    let i = rng.below(chars.len());
    let mut out: Vec<char> = chars.clone();
    match rng.below(5) {
        0 => {
            out.remove(i);
        }
        1 => out.insert(i, chars[i]),
        2 if chars.len() > 1 => out.swap(i, (i + 1) % chars.len()),
        3 => out.push('s'),
        _ => out[i] = out[i].to_ascii_uppercase(),
    }
    let s: String = out.into_iter().collect();
    if s.is_empty() {
        "k".into()
    } else {
        s
    }
}

/// Byte positions of every `key = value` in `line`: (key start, '=' position, value end).
fn assignments(line: &str) -> Vec<(usize, usize, usize)> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut in_string = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'"' {
            in_string = !in_string;
        }
        if b == b'=' && !in_string {
            let mut k = i;
            while k > 0 && bytes[k - 1] == b' ' {
                k -= 1;
            }
            let key_end = k;
            while k > 0 && (bytes[k - 1].is_ascii_alphanumeric() || bytes[k - 1] == b'_') {
                k -= 1;
            }
            // The value runs to the next top-level ',' or '}' (or the end of the line).
            let mut depth = 0i32;
            let mut quoted = false;
            let mut end = bytes.len();
            for (j, &c) in bytes.iter().enumerate().skip(i + 1) {
                match c {
                    b'"' => quoted = !quoted,
                    b'[' | b'{' if !quoted => depth += 1,
                    b']' | b'}' if !quoted && depth > 0 => depth -= 1,
                    b',' | b'}' if !quoted && depth == 0 => {
                        end = j;
                        break;
                    }
                    _ => {}
                }
            }
            if k < key_end {
                out.push((k, i, end));
            }
        }
    }
    out
}

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len().max(1);
    match rng.below(9) {
        0 if !lines.is_empty() => {
            lines.remove(rng.below(n));
        }
        1 if !lines.is_empty() => {
            let l = lines[rng.below(n)].clone();
            lines.insert(rng.below(n + 1), l);
        }
        2 if lines.len() > 1 => {
            let (a, b) = (rng.below(n), rng.below(n));
            lines.swap(a, b);
        }
        3 | 4 | 5 => {
            // Replace one value (in a `key = value` or inside an inline table).
            let candidates: Vec<(usize, (usize, usize, usize))> = lines
                .iter()
                .enumerate()
                .flat_map(|(i, l)| assignments(l).into_iter().map(move |a| (i, a)))
                .collect();
            if !candidates.is_empty() {
                let (i, (_, eq, end)) = *rng.pick(&candidates);
                let value = if rng.below(2) == 0 { *rng.pick(BAD_VALUES) } else { *rng.pick(PLAUSIBLE_VALUES) };
                let l = &lines[i];
                let trailing = if end < l.len() { &l[end..] } else { "" };
                lines[i] = format!("{} {value}{}{trailing}", &l[..=eq], if end < l.len() { " " } else { "" });
            }
        }
        6 => {
            let candidates: Vec<(usize, (usize, usize, usize))> = lines
                .iter()
                .enumerate()
                .flat_map(|(i, l)| assignments(l).into_iter().map(move |a| (i, a)))
                .collect();
            if !candidates.is_empty() {
                let (i, (k, eq, _)) = *rng.pick(&candidates);
                let l = &lines[i];
                let key = l[k..eq].trim_end();
                let new_key = misspell(key, rng);
                lines[i] = format!("{}{new_key}{}", &l[..k], &l[k + key.len()..]);
            }
        }
        7 => {
            // Truncate at a random byte (possibly inside a multi-byte character).
            let bytes = text.as_bytes();
            let cut = rng.below(bytes.len() + 1);
            return String::from_utf8_lossy(&bytes[..cut]).into_owned();
        }
        _ => {
            // Insert a few random bytes, invalid UTF-8 included.
            let mut bytes = text.as_bytes().to_vec();
            let at = rng.below(bytes.len() + 1);
            let count = 1 + rng.below(4);
            for _ in 0..count {
                let b = if rng.below(4) == 0 { (rng.next() & 0xff) as u8 } else { *rng.pick(NASTY_BYTES) };
                bytes.insert(at, b);
            }
            return String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// What happened to one mutant.
enum Outcome {
    Rejected,
    Ran,
    /// Loaded, but too expensive to run here.
    Skipped,
    Panicked(String),
    BadError(String),
}

/// Mutants loaded successfully are run only if this cheap: the whole test must stay fast in
/// debug builds.
const MAX_RUN_DURATION_PS: u64 = 2_000_000_000_000;
const MAX_RUN_FLOWS: usize = 50;
const MAX_RUN_LINKS: usize = 100;

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-string panic)".into())
}

fn check_error(e: &ScenarioError, text: &str, file: &str) -> Option<String> {
    let shown = e.to_string();
    if e.file != file || !shown.starts_with(file) {
        return Some(format!("error does not start with the file name: {shown}"));
    }
    if e.message.trim().is_empty() {
        return Some(format!("error without a message: {shown}"));
    }
    if let Some(line) = e.line {
        if line == 0 || line > text.lines().count() + 1 {
            return Some(format!("line {line} outside the file ({} lines): {shown}", text.lines().count()));
        }
    }
    None
}

fn try_mutant(text: &str, file: &str) -> Outcome {
    let result = panic::catch_unwind(AssertUnwindSafe(|| -> Result<bool, ScenarioError> {
        let scenario = load_str(text, file)?;
        if scenario.duration > MAX_RUN_DURATION_PS
            || scenario.flows.len() > MAX_RUN_FLOWS
            || scenario.links.len() > MAX_RUN_LINKS
        {
            return Ok(false);
        }
        tcpsim::run(&scenario)?;
        Ok(true)
    }));
    match result {
        Err(p) => Outcome::Panicked(panic_message(&*p)),
        Ok(Ok(true)) => Outcome::Ran,
        Ok(Ok(false)) => Outcome::Skipped,
        Ok(Err(e)) => match check_error(&e, text, file) {
            Some(why) => Outcome::BadError(why),
            None => Outcome::Rejected,
        },
    }
}

const MUTANTS_PER_SEED: usize = 900;
/// A single mutant taking longer than this is reported as a hang.
const HANG_LIMIT: Duration = Duration::from_secs(20);

#[test]
fn mutation_fuzz() {
    // The mutant under test, for the report if it hangs.
    let current = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = mpsc::channel::<Option<(String, Outcome)>>();
    let worker_current = Arc::clone(&current);
    std::thread::spawn(move || {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for (seed_name, seed) in seeds() {
            for k in 0..MUTANTS_PER_SEED {
                let mut text = seed.to_string();
                for _ in 0..1 + rng.below(3) {
                    text = mutate(&text, &mut rng);
                }
                let file = format!("{}-mutant{k}.toml", seed_name.trim_end_matches(".toml"));
                *worker_current.lock().unwrap() = text.clone();
                let outcome = try_mutant(&text, &file);
                if tx.send(Some((text, outcome))).is_err() {
                    return;
                }
            }
        }
        let _ = tx.send(None);
    });

    let started = Instant::now();
    let (mut rejected, mut ran, mut skipped) = (0usize, 0usize, 0usize);
    let mut problems: Vec<String> = Vec::new();
    loop {
        match rx.recv_timeout(HANG_LIMIT) {
            Ok(None) => break,
            Ok(Some((text, outcome))) => match outcome {
                Outcome::Rejected => rejected += 1,
                Outcome::Ran => ran += 1,
                Outcome::Skipped => skipped += 1,
                Outcome::Panicked(msg) => problems.push(format!("PANIC: {msg}\n{}", numbered(&text))),
                Outcome::BadError(why) => problems.push(format!("BAD ERROR: {why}\n{}", numbered(&text))),
            },
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let text = current.lock().map(|t| t.clone()).unwrap_or_default();
                panic!("a mutant took more than {HANG_LIMIT:?} (hang?):\n{}", numbered(&text));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the fuzz worker died"),
        }
    }
    let total = rejected + ran + skipped + problems.len();
    println!(
        "mutation fuzz: {total} mutants in {:.1?}: {rejected} rejected with an error, {ran} loaded and ran, \
         {skipped} loaded but not run (too long), {} problems",
        started.elapsed(),
        problems.len()
    );
    assert_eq!(total, MUTANTS_PER_SEED * seeds().len());
    assert!(rejected > total / 3, "too few mutants were rejected: the mutations are too gentle");
    assert!(ran > 50, "too few mutants ran: run() is barely exercised");
    assert!(problems.is_empty(), "{} mutants went wrong; first ones:\n\n{}", problems.len(), problems[..problems.len().min(5)].join("\n"));
}

// ---------------------------------------------------------------------------------------
// The command-line runner.
// ---------------------------------------------------------------------------------------

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcpsim-malformed-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    dir
}

/// Runs `tcpsim-run FILE --quiet`: (exit code, stderr).
fn run_cli(file: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tcpsim-run"))
        .arg(file)
        .arg("--quiet")
        .output()
        .expect("start tcpsim-run");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn cli_exits_2_with_a_located_message() {
    let dir = temp_dir("one");
    let path = dir.join("typo.toml");
    std::fs::write(&path, "[simulation]\nduration = \"1s\"\nsed = 3\n").unwrap();
    let (code, stderr) = run_cli(&path);
    assert_eq!(code, Some(2), "stderr: {stderr}");
    assert!(stderr.contains(&path.display().to_string()), "stderr does not name the file: {stderr}");
    assert!(stderr.contains("line 3"), "stderr does not name the line: {stderr}");
    assert!(stderr.contains("simulation.sed"), "stderr does not name the key: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "expected one error line: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every case of the table through the binary: status 2, one message naming the file and
/// the line, no panic. Includes the errors only `run()` finds.
#[test]
fn cli_exits_2_on_every_table_case() {
    let dir = temp_dir("table");
    let mut failures = Vec::new();
    for (i, c) in cases().iter().enumerate().filter(|(_, c)| c.bug.is_none()) {
        let path = dir.join(format!("case{i}.toml"));
        std::fs::write(&path, &c.text).unwrap();
        let (code, stderr) = run_cli(&path);
        let file = path.display().to_string();
        let mut wrong = Vec::new();
        if code != Some(2) {
            wrong.push(format!("exit status {code:?}"));
        }
        if !stderr.starts_with(&format!("error: {file}")) {
            wrong.push("message does not start with the file name".to_string());
        }
        if let Some(line) = marked_line(&c.text) {
            if !stderr.contains(&format!(", line {line}")) {
                wrong.push(format!("message does not name line {line}"));
            }
        }
        if stderr.contains("panicked") {
            wrong.push("panicked".to_string());
        }
        if !wrong.is_empty() {
            failures.push(format!("[{}] {}: {stderr}", c.name, wrong.join(", ")));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cli_rejects_unreadable_input_without_panicking() {
    let dir = temp_dir("bytes");
    // Invalid UTF-8, an empty file, and a file that is not there.
    let invalid = dir.join("invalid.toml");
    std::fs::write(&invalid, b"[simulation]\nduration = \"1\xff\xfes\"\n").unwrap();
    let empty = dir.join("empty.toml");
    std::fs::write(&empty, b"").unwrap();
    let missing = dir.join("missing.toml");
    for path in [&invalid, &empty, &missing] {
        let (code, stderr) = run_cli(path);
        assert_eq!(code, Some(2), "{}: {stderr}", path.display());
        assert!(stderr.contains(&path.display().to_string()), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

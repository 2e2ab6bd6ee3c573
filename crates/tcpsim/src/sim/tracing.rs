//! Packet traces of a run (`[trace]` in a scenario): ns-2 trace lines and pcap files.
//!
//! Off by default; when off the simulation holds no tracer and each hook is one branch on
//! an empty `Option`. The formats are in `monitor/trace/`; this file maps the
//! simulation's packets and links onto their records:
//! - ns-2 lines: `+` for every packet offered to a selected link's queue, `d` when it is
//!   dropped (by the queue, or by the link's error model at the start of transmission,
//!   where ns-2's loss module sits), `-` when it starts transmission, `r` when it reaches
//!   the far end — as `$ns trace-all` / `trace-queue` record them; and a `v` line when
//!   a selected link direction goes down or comes up (`[[event]]`), as ns-2 writes it.
//! - pcap per link direction: packets as they start transmission (what is on the wire).
//! - pcap per node: packets the node receives.
//!
//! Agent ports follow ns-2's numbering: agents are attached in flow order, the sender
//! then the receiver, each taking the next free port of its node (port 0 first), as the
//! validation twins' scripts attach them.

use super::Flow;
use crate::engine::packet::{TCP_CWR, TCP_ECE};
use crate::engine::{Packet, PacketKind, SimTime};
use crate::monitor::trace::{Ns2TraceWriter, PacketKey, PcapWriter, TraceEvent, TraceKind, TraceOp, TraceSink, TracedPacket};
use crate::net::LinkDirection;
use crate::scenario::{Scenario, ScenarioError, Selection};
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

type File_ = BufWriter<File>;

/// Addresses and sizes of one flow, as traces show them.
struct FlowEnds {
    src_node: u32,
    src_port: u32,
    dst_node: u32,
    dst_port: u32,
    payload: u32,
    header_size: u32,
    opens_with_syn: bool,
}

pub(crate) struct Tracer {
    ns2: Option<Ns2TraceWriter<File>>,
    /// Per link direction, its pcap writer if selected.
    link_pcaps: Vec<Option<PcapWriter<File_>>>,
    /// Per node, its pcap writer if selected.
    node_pcaps: Vec<Option<PcapWriter<File_>>>,
    flows: Vec<FlowEnds>,
    /// The first write error (reported when the run ends) and the file it concerns.
    error: Option<(PathBuf, io::Error)>,
    paths: Vec<PathBuf>,
}

/// Packet `p` of flow `f` (with its SACK blocks) as the trace writers see it.
fn traced<'a>(f: &FlowEnds, p: &Packet, sack: &'a [(i64, i64)]) -> TracedPacket<'a> {
    let (kind, src, dst) = match p.kind {
        PacketKind::Data => (TraceKind::TcpData, (f.src_node, f.src_port), (f.dst_node, f.dst_port)),
        PacketKind::Ack => (TraceKind::TcpAck, (f.dst_node, f.dst_port), (f.src_node, f.src_port)),
        PacketKind::Datagram => (TraceKind::Udp, (f.src_node, f.src_port), (f.dst_node, f.dst_port)),
    };
    TracedPacket {
        uid: p.uid,
        kind,
        size: p.size,
        header_size: if kind == TraceKind::Udp { 0 } else { f.header_size.min(p.size) },
        flow: p.flow,
        src_node: src.0,
        src_port: src.1,
        dst_node: dst.0,
        dst_port: dst.1,
        seq: p.seq,
        payload: f.payload,
        // The SYN, and the ACK that answers it (cumulative 0, echoing packet 0: a
        // duplicate ACK of 0 echoes a later packet), which pcap writes as SYN-ACK.
        syn: f.opens_with_syn && p.seq == 0 && (kind == TraceKind::TcpData || (kind == TraceKind::TcpAck && p.echo_seq == 0)),
        opens_with_syn: f.opens_with_syn,
        ecn: p.ecn,
        ece: p.tcp_flags & TCP_ECE != 0,
        cwr: p.tcp_flags & TCP_CWR != 0,
        sack,
    }
}

fn selected(selection: &Selection, name: &str) -> bool {
    selection.includes(name)
}

impl Tracer {
    /// Opens the selected trace files under `base` (the run's output directory, or the
    /// working directory); `None` when the scenario asks for no trace.
    pub fn open(scenario: &Scenario, links: &[LinkDirection], flows: &[Flow], base: Option<&Path>) -> Result<Option<Tracer>, ScenarioError> {
        let spec = &scenario.trace;
        if !spec.any() {
            return Ok(None);
        }
        // `components` drops "." parts, which `create_dir_all` does not accept.
        let dir: PathBuf = match base {
            Some(b) => b.join(&spec.dir),
            None => PathBuf::from(&spec.dir),
        }
        .components()
        .collect();
        let fail = |path: &Path, e: io::Error| ScenarioError {
            file: scenario.file.clone(),
            line: None,
            key: "trace.dir".into(),
            message: format!("cannot write the trace file {}: {e}", path.display()),
        };
        std::fs::create_dir_all(&dir).map_err(|e| fail(&dir, e))?;
        let mut paths = Vec::new();
        let ns2 = if matches!(&spec.ns2_links, Selection::Named(n) if n.is_empty()) {
            None
        } else {
            let chosen = match &spec.ns2_links {
                Selection::All => None,
                Selection::Named(_) => Some(
                    links
                        .iter()
                        .filter(|l| selected(&spec.ns2_links, &scenario.queue_name(l.from as usize, l.to as usize)))
                        .map(|l| (l.from, l.to))
                        .collect::<HashSet<_>>(),
                ),
            };
            let path = dir.join("trace.tr");
            let writer = Ns2TraceWriter::create(&path, chosen).map_err(|e| fail(&path, e))?;
            paths.push(path);
            Some(writer)
        };
        let mut link_pcaps = Vec::with_capacity(links.len());
        for l in links {
            let name = scenario.queue_name(l.from as usize, l.to as usize);
            link_pcaps.push(if selected(&spec.pcap_links, &name) {
                let path = dir.join(format!("{}-{}.pcap", &scenario.nodes[l.from as usize], &scenario.nodes[l.to as usize]));
                let writer = PcapWriter::create(&path).map_err(|e| fail(&path, e))?;
                paths.push(path);
                Some(writer)
            } else {
                None
            });
        }
        let mut node_pcaps = Vec::with_capacity(scenario.nodes.len());
        for name in scenario.nodes.iter() {
            node_pcaps.push(if selected(&spec.pcap_nodes, name) {
                let path = dir.join(format!("node-{name}.pcap"));
                let writer = PcapWriter::create(&path).map_err(|e| fail(&path, e))?;
                paths.push(path);
                Some(writer)
            } else {
                None
            });
        }
        let mut next_port = vec![0u32; scenario.nodes.len()];
        let mut take_port = |node: usize| {
            next_port[node] += 1;
            next_port[node] - 1
        };
        let ends = scenario
            .flows
            .iter()
            .zip(flows)
            .map(|(spec, f)| FlowEnds {
                src_node: spec.from as u32,
                src_port: take_port(spec.from as usize),
                dst_node: spec.to as u32,
                dst_port: take_port(spec.to as usize),
                payload: f.shape.payload,
                header_size: f.shape.header_size,
                opens_with_syn: f.shape.syn,
            })
            .collect();
        Ok(Some(Tracer { ns2, link_pcaps, node_pcaps, flows: ends, error: None, paths }))
    }

    /// Records one event of packet `p` (with its SACK blocks) on link direction `link`
    /// (index `index`).
    pub fn record(&mut self, op: TraceOp, time: SimTime, index: usize, link: &LinkDirection, p: &Packet, sack: &[(i64, i64)]) {
        let mut result = Ok(());
        if let Some(w) = &mut self.ns2 {
            // A flow's addresses and sizes stay the same through the run, so the packet's
            // own numbers name its columns; its record is built only when the writer does
            // not remember them (about one line in nine on B1).
            let key = PacketKey {
                uid: p.uid,
                seq: p.seq,
                flow: p.flow,
                size: p.size,
                bits: u32::from_le_bytes([p.kind as u8, p.ecn as u8, p.tcp_flags, 0]),
            };
            let flows = &self.flows;
            result = w.record_packet(op, time, (link.from, link.to), key, || traced(&flows[p.flow as usize], p, sack));
        }
        let to_link_pcap = op == TraceOp::Dequeue && self.link_pcaps[index].is_some();
        let to_node_pcap = op == TraceOp::Receive && self.node_pcaps[link.to as usize].is_some();
        if to_link_pcap || to_node_pcap {
            let packet = traced(&self.flows[p.flow as usize], p, sack);
            let event = TraceEvent { op, time, from_node: link.from, to_node: link.to, packet };
            if let (true, Some(w)) = (to_link_pcap, &mut self.link_pcaps[index]) {
                result = result.and(w.record(&event));
            }
            if let (true, Some(w)) = (to_node_pcap, &mut self.node_pcaps[link.to as usize]) {
                result = result.and(w.record(&event));
            }
        }
        if let Err(e) = result {
            if self.error.is_none() {
                self.error = Some((self.paths.first().cloned().unwrap_or_default(), e));
            }
        }
    }

    /// Records that link direction `link` went down (`up` false) or came up: the ns-2
    /// trace's `v` line (pcap has no such record).
    pub fn link_state(&mut self, time: SimTime, link: &LinkDirection, up: bool) {
        if let Some(w) = &mut self.ns2 {
            if let Err(e) = w.link_state(time, link.from, link.to, up) {
                if self.error.is_none() {
                    self.error = Some((self.paths.first().cloned().unwrap_or_default(), e));
                }
            }
        }
    }

    /// Flushes every file; returns the files written, or the first error.
    pub fn finish(&mut self) -> Result<Vec<PathBuf>, String> {
        let mut result: io::Result<()> = Ok(());
        if let Some(w) = &mut self.ns2 {
            result = result.and(w.finish());
        }
        for w in self.link_pcaps.iter_mut().chain(self.node_pcaps.iter_mut()).flatten() {
            result = result.and(w.finish());
        }
        if let Some((path, e)) = self.error.take() {
            return Err(format!("cannot write the trace files in {}: {e}", path.parent().unwrap_or(&path).display()));
        }
        result.map_err(|e| format!("cannot write the trace files: {e}"))?;
        Ok(self.paths.clone())
    }
}

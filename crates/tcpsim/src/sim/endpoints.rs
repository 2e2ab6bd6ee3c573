//! The flows' endpoints: delivering packets to TCP senders, receivers and CBR sinks,
//! their timers, and application start and stop.

use crate::engine::packet::{TCP_CWR, TCP_ECE};
use crate::engine::{Ecn, EventKind, PacketId, PacketKind};
use crate::tcp::receiver::{AckAction, AckPolicy, DataArrival};
use crate::tcp::AckInfo;
use super::{Endpoints, Simulation};

impl Simulation<'_> {

    /// Hands packet `id`, at the end of its route, to its flow's endpoint (the caller
    /// frees it afterwards).
    pub(super) fn deliver(&mut self, id: PacketId) {
        let now = self.now();
        let p = self.packets.get(id);
        let f = &mut self.flows[p.flow as usize];
        let payload = f.payload as u64;
        match (&mut f.endpoints, p.kind) {
            (Endpoints::Tcp { receiver, delack_generation, .. }, PacketKind::Data) => {
                f.received_bytes += p.size as u64;
                let syn_pending = f.syn && receiver.ack_number() < 0;
                let arrival = DataArrival {
                    seq: p.seq,
                    sent_at: p.sent_at,
                    ect: p.ecn.capable(),
                    ce: p.ecn == Ecn::Ce,
                    cwr: p.tcp_flags & TCP_CWR != 0,
                    ece: p.tcp_flags & TCP_ECE != 0,
                };
                let (delivered, action) = receiver.on_data(arrival);
                // The SYN carries no payload.
                let data_packets = delivered - (syn_pending && delivered > 0) as u64;
                f.delivered_since_sample += data_packets * payload;
                *delack_generation += 1;
                let flow = p.flow;
                match action {
                    AckAction::SendNow(ack) => self.inject_ack(flow, &ack),
                    AckAction::StartTimer => {
                        let AckPolicy::Delayed { timeout } = receiver.params().policy else {
                            unreachable!("only a delayed-ACK receiver holds ACKs")
                        };
                        let at = now.saturating_add(timeout);
                        let generation = *delack_generation;
                        self.sched.schedule(at, EventKind::DelayedAckTimer { flow, generation });
                    }
                }
            }
            (Endpoints::Tcp { sender, .. }, PacketKind::Ack) => {
                let flow = p.flow;
                sender.on_ack(&AckInfo::read_from(p, self.packets.sack(id)), now);
                self.flush(flow);
            }
            (Endpoints::Cbr { packets_received, .. }, _) => {
                *packets_received += 1;
                f.received_bytes += p.size as u64;
                f.delivered_since_sample += p.size as u64;
            }
            (Endpoints::Tcp { .. }, PacketKind::Datagram) => unreachable!("datagram on a TCP flow"),
        }
    }

    /// Sends what the TCP sender queued and keeps its timer event in step.
    pub(super) fn flush(&mut self, flow: u32) {
        let now = self.now();
        let Endpoints::Tcp { sender, rtx_generation, rtx_event_at, cc_timer_at, .. } = &mut self.flows[flow as usize].endpoints else {
            return;
        };
        let outbox = std::mem::take(&mut sender.state.outbox);
        if let Some(at) = sender.state.cc_timer {
            if *cc_timer_at != Some(at) {
                *cc_timer_at = Some(at);
                self.sched.schedule(at, EventKind::CcTimer { flow });
            }
        }
        // Lazy timer: keep one heap event; if it is due before the deadline it re-arms.
        if let Some(deadline) = sender.state.rtx_deadline {
            if rtx_event_at.map_or(true, |t| t > deadline) {
                *rtx_generation += 1;
                *rtx_event_at = Some(deadline);
                let generation = *rtx_generation;
                self.sched.schedule(deadline.max(now), EventKind::RetransmitTimer { flow, generation });
            }
        }
        for &out in &outbox {
            self.inject_data(flow, out);
        }
        if let Endpoints::Tcp { sender, .. } = &mut self.flows[flow as usize].endpoints {
            let mut outbox = outbox;
            outbox.clear();
            sender.state.outbox = outbox;
        }
    }

    pub(super) fn retransmit_timer(&mut self, flow: u32, generation: u32) {
        let now = self.now();
        let Endpoints::Tcp { sender, rtx_generation, rtx_event_at, .. } = &mut self.flows[flow as usize].endpoints else {
            return;
        };
        if generation != *rtx_generation {
            return;
        }
        *rtx_event_at = None;
        match sender.state.rtx_deadline {
            None => {}
            Some(deadline) if deadline > now => {
                *rtx_generation += 1;
                *rtx_event_at = Some(deadline);
                let generation = *rtx_generation;
                self.sched.schedule(deadline, EventKind::RetransmitTimer { flow, generation });
            }
            Some(_) => {
                sender.state.rtx_deadline = None;
                sender.on_timeout(now);
                self.flush(flow);
            }
        }
    }

    pub(super) fn delayed_ack_timer(&mut self, flow: u32, generation: u32) {
        let Endpoints::Tcp { receiver, delack_generation, .. } = &mut self.flows[flow as usize].endpoints else {
            return;
        };
        if generation != *delack_generation {
            return;
        }
        if let Some(ack) = receiver.on_timer() {
            self.inject_ack(flow, &ack);
        }
    }

    pub(super) fn cc_timer(&mut self, flow: u32) {
        let now = self.now();
        let Endpoints::Tcp { sender, cc_timer_at, .. } = &mut self.flows[flow as usize].endpoints else { return };
        // Only the latest request counts; an earlier event for a moved timer is stale.
        if *cc_timer_at != Some(now) || sender.state.cc_timer != Some(now) {
            return;
        }
        *cc_timer_at = None;
        sender.on_cc_timer(now);
        self.flush(flow);
    }

    pub(super) fn flow_start(&mut self, flow: u32) {
        self.notify_queues(flow, true);
        let now = self.now();
        match &mut self.flows[flow as usize].endpoints {
            Endpoints::Tcp { sender, .. } => {
                sender.start(now);
                self.flush(flow);
            }
            Endpoints::Cbr { source, .. } => {
                source.running = true;
                self.cbr_send(flow);
            }
        }
    }

    pub(super) fn flow_stop(&mut self, flow: u32) {
        self.notify_queues(flow, false);
        match &mut self.flows[flow as usize].endpoints {
            Endpoints::Tcp { sender, .. } => sender.stop(),
            Endpoints::Cbr { source, .. } => source.running = false,
        }
    }

    pub(super) fn cbr_send(&mut self, flow: u32) {
        let now = self.now();
        let Endpoints::Cbr { source, .. } = &mut self.flows[flow as usize].endpoints else { return };
        if !source.running {
            return;
        }
        let seq = source.next_packet();
        let next = now.saturating_add(source.next_interval());
        self.sched.schedule(next, EventKind::CbrSend { flow });
        self.inject_datagram(flow, seq);
    }
}

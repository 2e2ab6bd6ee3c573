//! Packets on the network: offering a packet to a link direction (error model, queue),
//! transmissions, arrivals, forwarding along the route, and putting new packets on it.

use crate::engine::packet::{SACK_BLOCK_BYTES, TCP_CWR, TCP_ECE};
use crate::engine::{Ecn, EventKind, Packet, PacketId, PacketKind};
use crate::monitor::trace::TraceOp;
use crate::net::error::Transmission;
use crate::queue::{Arrival, DropReason, QueueAction, QueueCtx, Verdict};
use crate::engine::packet::Outgoing;
use crate::tcp::AckInfo;
use super::Simulation;

impl Simulation<'_> {

    /// Offers packet `id` to link direction `link`: its error model, then its queue.
    #[inline(always)]
    pub(super) fn send_on_link(&mut self, link: u32, id: PacketId) {
        let now = self.now();
        if self.links[link as usize].head.is_some() && self.stopped_at_head(link, id) {
            return;
        }
        let p = self.packets.get_mut(id);
        p.enqueued_at = now;
        let l = &mut self.links[link as usize];
        if l.stats.length_now == 0 && p.size <= l.passes_when_empty && l.idle(now) && !l.owes_empty_dequeue {
            // The queue would take the packet and hand it straight back: only the
            // counters change (the length was 1 for an instant).
            l.stats.arrivals += 1;
            l.stats.max_length = l.stats.max_length.max(1);
            if self.tracer.is_some() {
                self.trace(TraceOp::Enqueue, link, id);
            }
            self.transmit(link, id, 0);
            return;
        }
        let (flow, kind) = (p.flow, p.kind);
        let arrival = Arrival { id, size: p.size, ecn: p.ecn, flow, kind, source: p.source, rtt_hint: p.rtt_hint };
        // Disjoint fields: the queue of a link and the shared action buffer.
        let l = &mut self.links[link as usize];
        if l.owes_empty_dequeue && now >= l.busy_until {
            // ns-2 asked the queue for a packet when the last transmission ended.
            l.owes_empty_dequeue = false;
            let nothing = l.queue.dequeue(&mut QueueCtx::new(l.busy_until, &mut self.queue_actions));
            debug_assert!(nothing.is_none());
        }
        l.account_length(now);
        l.stats.arrivals += 1;
        let verdict = l.queue.enqueue(&mut QueueCtx::new(now, &mut self.queue_actions), arrival);
        if self.tracer.is_some() {
            // The packet as it arrived: ns-2 traces `+` before the queue acts (SimpleLink's
            // enqT_ precedes the queue), so a packet RED marks shows E from its `-` on.
            self.trace(TraceOp::Enqueue, link, id);
            if matches!(verdict, Verdict::Dropped(_)) {
                self.trace(TraceOp::Drop, link, id);
            }
        }
        let l = &mut self.links[link as usize];
        match verdict {
            Verdict::Queued => {}
            Verdict::Marked => {
                l.stats.losses_mut().marks += 1;
                self.packets.get_mut(id).ecn = Ecn::Ce;
            }
            Verdict::Dropped(reason) => {
                match reason {
                    DropReason::Early => l.stats.losses_mut().early_drops += 1,
                    DropReason::Overflow => l.stats.losses_mut().overflow_drops += 1,
                }
                if kind != PacketKind::Ack {
                    self.flows[flow as usize].drops += 1;
                }
                self.packets.free(id);
            }
        }
        if !self.queue_actions.is_empty() {
            self.apply_pending_queue_actions(link);
        }
        let l = &mut self.links[link as usize];
        let waiting = l.note_length();
        if l.idle(now) {
            self.start_transmission(link);
        } else if !l.done_event_pending && waiting > 0 {
            // A packet now waits for the transmitter: take it when the current one ends.
            l.owes_empty_dequeue = false;
            l.done_event_pending = true;
            self.sched.schedule_reserved(l.busy_until, l.done_seq, EventKind::TransmitDone { link });
        }
    }

    /// The head of a link that has one: drops packet `id` if the link is down or its
    /// error model loses it, and says whether it did.
    #[inline(never)]
    fn stopped_at_head(&mut self, link: u32, id: PacketId) -> bool {
        let now = self.now();
        let Some(head) = &mut self.links[link as usize].head else { return false };
        if head.down {
            // ns-2.35's DynamicLink frees a packet that reaches a down link without
            // tracing it (its drop target is unset): no `d` line, as there.
            self.links[link as usize].stats.losses_mut().down_drops += 1;
            self.drop_off_link(link, id, false);
        } else if let Some(e) = &mut head.errors {
            let p = self.packets.get(id);
            if !e.model.loses(&Transmission { at: now, size: p.size }, &mut e.random) {
                return false;
            }
            self.links[link as usize].stats.losses_mut().error_drops += 1;
            self.drop_off_link(link, id, true);
        } else {
            return false;
        }
        true
    }

    /// Drops packet `id`, which a link direction has lost outside its queue (the link's
    /// error model, or the link being down), writing a `d` trace line if `traced`. The
    /// caller counts the drop for the link.
    #[cold]
    pub(super) fn drop_off_link(&mut self, link: u32, id: PacketId, traced: bool) {
        if traced {
            self.trace(TraceOp::Drop, link, id);
        }
        let p = self.packets.get(id);
        if p.kind != PacketKind::Ack {
            self.flows[p.flow as usize].drops += 1;
        }
        self.packets.free(id);
    }

    /// Carries out the actions a queue left in the shared buffer (rare: only disciplines
    /// that mark or drop held packets, or run timers, leave any).
    #[cold]
    pub(super) fn apply_pending_queue_actions(&mut self, link: u32) {
        let mut actions = std::mem::take(&mut self.queue_actions);
        self.apply_queue_actions(link, &mut actions);
        self.queue_actions = actions;
    }

    /// Carries out what a queue discipline asked for: marks and drops of packets it held,
    /// timers.
    pub(super) fn apply_queue_actions(&mut self, link: u32, actions: &mut Vec<QueueAction>) {
        for action in actions.drain(..) {
            match action {
                QueueAction::Mark(id) => {
                    let p = self.packets.get_mut(id);
                    if p.ecn.capable() && p.ecn != Ecn::Ce {
                        p.ecn = Ecn::Ce;
                        self.links[link as usize].stats.losses_mut().marks += 1;
                    }
                }
                QueueAction::Drop(id, reason) => {
                    self.trace(TraceOp::Drop, link, id);
                    let l = &mut self.links[link as usize];
                    match reason {
                        DropReason::Early => l.stats.losses_mut().early_drops += 1,
                        DropReason::Overflow => l.stats.losses_mut().overflow_drops += 1,
                    }
                    let p = self.packets.get(id);
                    if p.kind != PacketKind::Ack {
                        self.flows[p.flow as usize].drops += 1;
                    }
                    self.packets.free(id);
                }
                QueueAction::Timer(at) => self.sched.schedule(at, EventKind::QueueTimer { link }),
            }
        }
    }

    pub(super) fn queue_timer(&mut self, link: u32) {
        let now = self.now();
        let mut actions = std::mem::take(&mut self.queue_actions);
        let l = &mut self.links[link as usize];
        l.account_length(now);
        l.queue.on_timer(&mut QueueCtx::new(now, &mut actions));
        self.apply_queue_actions(link, &mut actions);
        self.queue_actions = actions;
        self.links[link as usize].note_length();
    }

    /// Tells the queues on a flow's data path that it started or stopped.
    pub(super) fn notify_queues(&mut self, flow: u32, started: bool) {
        let now = self.now();
        let route = self.flows[flow as usize].data_route;
        let mut actions = std::mem::take(&mut self.queue_actions);
        for hop in 0..self.routes.get(route).len() {
            let link = self.routes.get(route)[hop];
            let l = &mut self.links[link as usize];
            l.account_length(now);
            let mut ctx = QueueCtx::new(now, &mut actions);
            if started {
                l.queue.on_flow_start(&mut ctx, flow);
            } else {
                l.queue.on_flow_stop(&mut ctx, flow);
            }
            self.apply_queue_actions(link, &mut actions);
            self.links[link as usize].note_length();
        }
        self.queue_actions = actions;
    }

    /// The transmitter is free: take the next packet, as ns-2 does even if the queue is
    /// empty (RED starts its idle period then).
    #[inline(always)]
    pub(super) fn start_transmission(&mut self, link: u32) {
        let now = self.now();
        let l = &mut self.links[link as usize];
        l.account_length(now);
        let next = l.queue.dequeue(&mut QueueCtx::new(now, &mut self.queue_actions));
        if !self.queue_actions.is_empty() {
            self.apply_pending_queue_actions(link);
        }
        let waiting = self.links[link as usize].note_length();
        if let Some(id) = next {
            self.transmit(link, id, waiting);
        }
    }

    /// Puts packet `id`, just taken from the queue of link direction `link` with
    /// `waiting` packets behind it, on the wire.
    #[inline(always)]
    fn transmit(&mut self, link: u32, id: PacketId, waiting: usize) {
        let now = self.now();
        let end = self.scenario.duration;
        let l = &mut self.links[link as usize];
        let p = self.packets.get(id);
        l.stats.departures += 1;
        l.stats.sojourn_sum.add((now - p.enqueued_at) as u128);
        l.stats.bytes_sent += p.size as u64;
        let done = now.saturating_add(l.transmission_time(p.size));
        l.stats.busy_time += done.min(end).saturating_sub(now);
        l.busy_until = done;
        // The packet reaches the far end after serialization and propagation. ns-2's
        // LinkDelay schedules that arrival, then the end of the transmission, when the
        // transmission starts; the places taken here give same-time events ns-2's order
        // even when the events themselves are scheduled later.
        // Each packet propagating has its own arrival event: after a delay decrease a
        // packet may overtake earlier ones, as in ns-2.
        let arrival = done.saturating_add(l.delay);
        self.sched.schedule(arrival, EventKind::Arrive { link, packet: id });
        l.done_seq = self.sched.reserve();
        if waiting > 0 {
            l.done_event_pending = true;
            self.sched.schedule_reserved(done, l.done_seq, EventKind::TransmitDone { link });
        } else if l.empty_dequeue_matters {
            l.owes_empty_dequeue = true;
        }
        // Last, so the link is borrowed once (the trace line does not depend on the
        // events just scheduled).
        if self.tracer.is_some() {
            self.trace(TraceOp::Dequeue, link, id);
        }
    }

    pub(super) fn transmit_done(&mut self, link: u32) {
        self.links[link as usize].done_event_pending = false;
        self.start_transmission(link);
    }

    /// Packet `id` reaches the far end of link direction `link`.
    pub(super) fn arrive(&mut self, link: u32, id: PacketId) {
        if self.tracer.is_some() {
            self.trace(TraceOp::Receive, link, id);
        }
        self.forward(id);
    }

    /// Moves a packet to its next hop, or delivers it at the end of its route.
    pub(super) fn forward(&mut self, id: PacketId) {
        let p = self.packets.get_mut(id);
        p.hop += 1;
        if let Some(next) = self.routes.hop(p.route, p.hop as usize) {
            self.send_on_link(next, id);
        } else {
            self.deliver(id);
            self.packets.free(id);
        }
    }

    /// Puts a new packet of `flow` on its route.
    pub(super) fn inject(&mut self, packet: Packet) {
        let first = self.routes.first_hop(packet.route);
        let id = self.packets.alloc(packet);
        self.send_on_link(first, id);
    }

    pub(super) fn inject_data(&mut self, flow: u32, out: Outgoing) {
        let now = self.now();
        let f = &self.flows[flow as usize];
        let shape = &f.shape;
        let size = if out.seq == 0 && shape.syn { shape.syn_size } else { shape.data_size };
        let mut p = Packet::new(flow, out.seq, size, shape.data_kind, f.data_route, now);
        p.source = f.src_node;
        if out.ect {
            p.ecn = Ecn::Ect0;
        }
        if out.ece {
            p.tcp_flags |= TCP_ECE;
        }
        if out.cwr {
            p.tcp_flags |= TCP_CWR;
        }
        p.rtt_hint = out.rtt_hint;
        self.inject(p);
    }

    pub(super) fn inject_ack(&mut self, flow: u32, ack: &AckInfo) {
        let now = self.now();
        let f = &self.flows[flow as usize];
        let size = f.shape.ack_size + SACK_BLOCK_BYTES * ack.sack.len() as u32;
        let mut p = Packet::new(flow, ack.ack, size, PacketKind::Ack, f.ack_route, now);
        p.source = f.dst_node;
        ack.write_to(&mut p);
        let first = self.routes.first_hop(p.route);
        let id = self.packets.alloc(p);
        self.packets.set_sack(id, &ack.sack);
        self.send_on_link(first, id);
    }
}

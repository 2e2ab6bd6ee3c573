//! Changes to links during a run (`[[event]]`): rate, delay, down, up; and routes that
//! follow links going down and up (`[routing] mode = "dynamic"`).
//!
//! The semantics follow ns-2.35 (docs/ns2-semantics.md, section 11):
//!
//! - **rate**: `$link set bandwidth_` — the packet being sent keeps the time its
//!   transmission was given when it started; the next packet is sent at the new rate.
//! - **delay**: `$link set delay_` — packets already on the wire keep their arrival
//!   times; packets that start from then on propagate for the new delay (after a
//!   decrease a packet may overtake earlier ones, as in ns-2, whose `avoidReordering_`
//!   is off by default: each packet on the wire has an arrival event of its own).
//! - **down**: `rtmodel-at T down` sets the head `DynamicLink`'s status to 0 and resets
//!   the link's connectors: the queue drops everything it holds (`Queue::reset`) and the
//!   delay line drops the packet being sent and every packet propagating
//!   (`LinkDelay::reset` of a dynamic link), each traced as `d`. While down, arrivals
//!   are dropped at the head, before the queue, untraced (ns-2.35's `DynamicLink` frees
//!   them). All count as the link's `down_drops`.
//! - **up**: the head lets packets through again.
//! - **dynamic routing**: each down or up recomputes the shortest paths at once, as
//!   ns-2's `rtproto Session` (a route to a destination no longer reachable is kept, as
//!   ns-2 adds only the routes it finds, so such packets go to the down link and are
//!   dropped there). Packets already in a queue or on a wire stay there; from their next
//!   node on they follow the new routes.

use super::Simulation;
use crate::engine::{EventKind, PacketId};
use crate::net::routing::{path, Graph};
use crate::queue::QueueCtx;
use crate::scenario::{LinkChange, RoutingMode};
use std::collections::HashMap;

impl Simulation<'_> {
    /// Carries out the scenario's event `index`.
    pub(super) fn link_change(&mut self, index: u32) {
        let scenario = self.scenario;
        let event = &scenario.events[index as usize];
        let mut topology_changed = false;
        for &link in &event.directions {
            let l = &mut self.links[link as usize];
            match event.change {
                LinkChange::Rate(rate_bps) => l.set_rate(rate_bps),
                LinkChange::Delay(delay) => {
                    if delay < l.delay {
                        // Where the packets on the wire before the decrease end (see
                        // `flush_down_link`).
                        self.delay_lowered_at.insert(link, self.sched.reserve());
                    }
                    self.links[link as usize].delay = delay;
                }
                LinkChange::Down => {
                    if !l.is_down() {
                        l.head.get_or_insert_with(Box::default).down = true;
                        self.flush_down_link(link);
                        self.trace_link_state(link, false);
                        topology_changed = true;
                    }
                }
                LinkChange::Up => {
                    if let Some(head) = &mut l.head {
                        let was_down = head.down;
                        head.down = false;
                        if head.errors.is_none() {
                            l.head = None;
                        }
                        if was_down {
                            self.trace_link_state(link, true);
                            topology_changed = true;
                        }
                    }
                }
            }
        }
        if topology_changed && scenario.routing == RoutingMode::Dynamic {
            self.reroute();
        }
    }

    /// Drops every packet a link direction that just went down holds: those in its queue,
    /// the one being sent and those propagating (ns-2: `all-connectors reset`).
    fn flush_down_link(&mut self, link: u32) {
        let now = self.now();
        let cancelled = self.sched.cancel_where(|k| {
            matches!(*k, EventKind::Arrive { link: l, .. } | EventKind::TransmitDone { link: l } if l == link)
        });
        // The packets on the wire are dropped in the order of their arrivals, except that
        // those sent before the link's last delay decrease go first: the order in which
        // traces have always shown these `d` lines (those packets used to be the only
        // ones with an arrival event each), kept so that traces stay the same.
        let lowered = self.delay_lowered_at.get(&link).copied();
        let mut on_wire: Vec<_> = cancelled
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::Arrive { packet, .. } => Some((lowered.is_none_or(|m| e.seq > m), e.at, e.seq, packet)),
                _ => None,
            })
            .collect();
        on_wire.sort_unstable();
        let mut actions = std::mem::take(&mut self.queue_actions);
        let mut flushed: Vec<PacketId> = Vec::new();
        let l = &mut self.links[link as usize];
        l.account_length(now);
        l.done_event_pending = false;
        l.owes_empty_dequeue = false;
        while let Some(id) = l.queue.dequeue(&mut QueueCtx::new(now, &mut actions)) {
            flushed.push(id);
        }
        self.apply_queue_actions(link, &mut actions);
        self.queue_actions = actions;
        let l = &mut self.links[link as usize];
        l.note_length();
        // The transmitter stays taken until the aborted transmission would have ended, as
        // ns-2's queue stays blocked until the link's `intr_` event.
        flushed.extend(on_wire.into_iter().map(|(_, _, _, id)| id));
        l.stats.losses_mut().down_drops += flushed.len() as u64;
        for id in flushed {
            self.drop_off_link(link, id, true);
        }
    }

    fn trace_link_state(&mut self, link: u32, up: bool) {
        let now = self.now();
        if let Some(t) = &mut self.tracer {
            t.link_state(now, &self.links[link as usize], up);
        }
    }

    /// Recomputes the routes over the links that are up (ns-2 Session routing): each
    /// flow's routes, and the rest of the route of every packet in the network.
    fn reroute(&mut self) {
        let mut graph = Graph::new(self.scenario.nodes.len());
        for (i, l) in self.links.iter().enumerate() {
            if !l.is_down() {
                graph.add(l.from as usize, l.to as usize, i as u32);
            }
        }
        let mut trees = HashMap::new();
        let mut new_path = |from: usize, to: usize| -> Option<Vec<u32>> {
            let tree = trees.entry(from).or_insert_with(|| graph.tree(from));
            path(tree, from, to)
        };
        if self.route_ids.is_empty() {
            self.route_ids = self.routes.iter().map(|(id, r)| (r.to_vec(), id)).collect();
        }
        for f in 0..self.flows.len() {
            let (src, dst) = (self.flows[f].src_node as usize, self.flows[f].dst_node as usize);
            if let Some(hops) = new_path(src, dst) {
                self.flows[f].data_route = self.route_id(hops);
            }
            if let Some(hops) = new_path(dst, src) {
                self.flows[f].ack_route = self.route_id(hops);
            }
        }
        // A packet on link direction `link` (queued, being sent or propagating) goes on
        // from the link's far end by the new route to where its route ends.
        for id in self.packets.live_ids() {
            let p = self.packets.get(id);
            let route = self.routes.get(p.route);
            let link = route[p.hop as usize];
            let here = self.links[link as usize].to as usize;
            let dest = self.links[*route.last().expect("routes are not empty") as usize].to as usize;
            let rest = if here == dest { Some(Vec::new()) } else { new_path(here, dest) };
            if let Some(rest) = rest {
                let mut hops = Vec::with_capacity(rest.len() + 1);
                hops.push(link);
                hops.extend(rest);
                let route = self.route_id(hops);
                let p = self.packets.get_mut(id);
                p.route = route;
                p.hop = 0;
            }
        }
    }

    /// The id of a route, adding it to the table if it is new.
    fn route_id(&mut self, hops: Vec<u32>) -> u32 {
        if let Some(&id) = self.route_ids.get(&hops) {
            return id;
        }
        let id = self.routes.push(&hops);
        self.route_ids.insert(hops, id);
        id
    }
}

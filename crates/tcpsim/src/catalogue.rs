//! The catalogue: every model, listed once, above the models.
//!
//! Each model file declares its spec in the vocabulary of `crate::model` and pairs it with
//! its family's constructor (`tcp::cc::CcModel`, `queue::QueueModel`, ...); it knows
//! nothing of the other models. This module is the one place that knows them all, as
//! Linux's `tcp_cong.c` keeps the list of congestion controls: adding a model is its file
//! plus one line in the family's list below (and its docs page, which
//! `tests/test_docs_registry.py` asks for). The scenario reader, the builder,
//! `tcpsim models`, the parameter tables in `docs/models/` and the Python front end all
//! read these lists, so each default and each relation between models is written once.
//!
//! The lists also say which model a scenario gets when it names none ([`default_model`]).

use crate::agent::{cbr, tcp, tfrc, SourceModel};
use crate::model::{required, Chosen, Family, FamilyModel, ModelSpec, ParamType};
use crate::net::error::{blackout, uniform, LinkErrorModel};
use crate::queue::{codel, dred, droptail, drr, ecn_dred, ecn_red, fecn_red, fq_codel, mecn_red, mffecn_red, pie, red, red_n, QueueModel};
use crate::tcp::cc::{self, CcModel};
use crate::tcp::receiver::{self, ReceiverModel};
use crate::tcp::recovery::{self, RecoveryModel};

/// Traffic sources: the `type` of a `[[flow]]`.
pub static SOURCES: &[&SourceModel] = &[&tcp::MODEL, &cbr::MODEL, &tfrc::MODEL];

/// Window controls: a TCP flow's `cc`.
pub static CONGESTION_CONTROLS: &[&CcModel] = &[&cc::reno::MODEL, &cc::reno_gamma::MODEL, &cc::vegas::MODEL, &cc::quick_vegas::MODEL, &cc::fast::MODEL, &cc::new_vegas::MODEL, &cc::vegas_a::MODEL, &cc::vegas_plus::MODEL, &cc::cubic::MODEL, &cc::bbr::MODEL, &cc::bbr3::MODEL];

/// Loss recoveries: a TCP flow's `recovery`.
pub static RECOVERIES: &[&RecoveryModel] = &[
    &recovery::tahoe::MODEL,
    &recovery::reno::MODEL,
    &recovery::newreno::MODEL,
    &recovery::sack1::MODEL,
    &recovery::fack::MODEL,
    &recovery::prr::MODEL,
    &recovery::vegas::MODEL,
];

/// Receivers (a TCP flow's sink): a TCP flow's `receiver`.
pub static RECEIVERS: &[&ReceiverModel] = &[&receiver::every_packet::MODEL, &receiver::delayed::MODEL];

/// Queue disciplines: a link direction's `queue`.
pub static QUEUES: &[&QueueModel] = &[
    &droptail::MODEL,
    &red::MODEL,
    &red_n::MODEL,
    &drr::MODEL,
    &ecn_red::MODEL,
    &mecn_red::MODEL,
    &fecn_red::MODEL,
    &mffecn_red::MODEL,
    &dred::MODEL,
    &ecn_dred::MODEL,
    &codel::MODEL,
    &pie::MODEL,
    &fq_codel::MODEL,
];

/// Link error models: a link direction's `error_model`.
pub static ERROR_MODELS: &[&LinkErrorModel] = &[&blackout::MODEL, &uniform::MODEL];

/// The model a scenario gets when it names none; `None` when leaving the key out means no
/// model at all (a link without an error model loses nothing). The defaults are ns-2's
/// most common pairing in the reference documents' scripts: a TCP bulk transfer with
/// `Agent/TCP/Newreno`'s Reno window and NewReno recovery, an `Agent/TCPSink` that ACKs
/// every packet, `DropTail` queues.
pub fn default_model(family: Family) -> Option<&'static str> {
    match family {
        Family::Agent => Some("tcp"),
        Family::CongestionControl => Some("reno"),
        Family::Recovery => Some("newreno"),
        Family::Receiver => Some("every_packet"),
        Family::Queue => Some("droptail"),
        Family::ErrorModel => None,
    }
}

/// A family's list, by the type of its models.
pub trait Listed: FamilyModel + Sized {
    fn all() -> &'static [&'static Self];

    /// The model called `name`, if listed.
    fn find(name: &str) -> Option<&'static Self> {
        Self::all().iter().copied().find(|m| m.spec().name == name)
    }

    /// The family's default model (see [`default_model`]).
    fn default() -> Option<&'static Self> {
        default_model(Self::FAMILY).map(|name| Self::find(name).expect("a family's default model is listed"))
    }
}

macro_rules! listed {
    ($model:ty, $list:ident) => {
        impl Listed for $model {
            fn all() -> &'static [&'static Self] {
                $list
            }
        }
    };
}

listed!(SourceModel, SOURCES);
listed!(CcModel, CONGESTION_CONTROLS);
listed!(RecoveryModel, RECOVERIES);
listed!(ReceiverModel, RECEIVERS);
listed!(QueueModel, QUEUES);
listed!(LinkErrorModel, ERROR_MODELS);

/// Every model's spec: sources, window controls, recoveries, receivers, queues, error
/// models, each family in its list's order.
pub fn specs() -> impl Iterator<Item = &'static ModelSpec> {
    fn of<M: Listed>() -> impl Iterator<Item = &'static ModelSpec> {
        M::all().iter().map(|m| m.spec())
    }
    of::<SourceModel>()
        .chain(of::<CcModel>())
        .chain(of::<RecoveryModel>())
        .chain(of::<ReceiverModel>())
        .chain(of::<QueueModel>())
        .chain(of::<LinkErrorModel>())
}

/// The spec of model `name` of `family`, if listed.
pub fn find(family: Family, name: &str) -> Option<&'static ModelSpec> {
    specs().find(|m| m.family == family && m.name == name)
}

/// The names of every model of `family`, in list order.
pub fn names(family: Family) -> Vec<&'static str> {
    specs().filter(|m| m.family == family).map(|m| m.name).collect()
}

/// The loss recovery of a flow that names window control `cc` and no recovery: the
/// window control's own pairing (its `relations.default_recovery`), else the family
/// default.
pub fn default_recovery(cc: &ModelSpec) -> &'static RecoveryModel {
    cc.relations
        .default_recovery
        .map(|name| RecoveryModel::find(name).expect("a default recovery is a listed recovery"))
        .unwrap_or_else(|| RecoveryModel::default().expect("loss recovery has a default"))
}

/// The model `name` of family `M` at its defaults, for tests and examples that build
/// models directly; panics when no such model is listed.
pub fn chosen<M: Listed>(name: &str) -> Chosen<M> {
    Chosen::defaults(M::find(name).unwrap_or_else(|| panic!("no {} named {name:?}", M::FAMILY.title())))
}

/// A TCP sender with the default window control and its default recovery (for tests and
/// examples that drive a sender directly).
pub fn default_tcp_sender(params: impl Into<std::sync::Arc<crate::tcp::TcpParams>>, clock_phase: f64) -> crate::tcp::TcpSender {
    let cc = Chosen::defaults(CcModel::default().expect("congestion control has a default"));
    let recovery = Chosen::defaults(default_recovery(cc.config.spec));
    crate::tcp::TcpSender::new(params, recovery.build(), cc.build(), clock_phase)
}

/// The catalogue as JSON (for `tcpsim models` and the Python front end): `families` (id,
/// scenario key, title, scope, default model) in [`Family::ALL`] order, then `models` in
/// [`specs`] order, each with its parameters and relations, then the TCP `profiles`
/// (`tcp/profile.rs`: name, summary, source, source type and their defaults).
pub fn to_json() -> serde_json::Value {
    let models: Vec<serde_json::Value> = specs()
        .map(|m| {
            let params: Vec<serde_json::Value> = m
                .params
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "name": p.name,
                        "type": match p.ty { ParamType::Choice(_) => "choice".to_string(), t => t.describe() },
                        "choices": match p.ty { ParamType::Choice(c) | ParamType::NumberOr(c) => c.to_vec(), _ => Vec::new() },
                        "unit": p.unit,
                        "default": p.default.to_json(),
                        "default_toml": p.default.to_toml(),
                        "min": p.range.map(|r| r.0),
                        "max": p.range.map(|r| r.1),
                        "doc": p.doc,
                        "source": p.source,
                        "required": required(m, p),
                        "example_toml": p.example,
                    })
                })
                .collect();
            serde_json::json!({
                "family": m.family.key(),
                "family_title": m.family.title(),
                "name": m.name,
                "summary": m.summary,
                "source": m.source,
                "params": params,
                "relations": m.relations.to_json(),
                "relations_text": m.relations.describe(),
            })
        })
        .collect();
    let families: Vec<serde_json::Value> = Family::ALL
        .iter()
        .map(|&f| {
            serde_json::json!({
                "id": f.id(),
                "key": f.key(),
                "title": f.title(),
                "scope": f.scope(),
                "default": default_model(f),
            })
        })
        .collect();
    let profiles: Vec<serde_json::Value> = crate::tcp::profile::PROFILES
        .iter()
        .map(|p| {
            let defaults: Vec<serde_json::Value> =
                p.defaults.iter().map(|&(key, value, why)| serde_json::json!({ "key": key, "value_toml": value, "why": why })).collect();
            serde_json::json!({ "name": p.name, "summary": p.summary, "source": p.source, "type": p.source_type, "defaults": defaults })
        })
        .collect();
    serde_json::json!({ "families": families, "models": models, "profiles": profiles })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Param, Value};
    use crate::units::Limit;

    #[test]
    fn names_are_unique_within_a_family_and_parameters_within_a_model() {
        let all: Vec<_> = specs().collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(!(a.family == b.family && a.name == b.name), "{a:?} listed twice");
            }
            for (j, p) in a.params.iter().enumerate() {
                assert!(a.params[j + 1..].iter().all(|q| q.name != p.name), "{a:?}.{} twice", p.name);
                assert!(!p.doc.is_empty() && !p.source.is_empty(), "{a:?}.{} needs a doc and a source", p.name);
            }
            assert!(a.params.len() <= 64, "{a:?}: `given` is a 64-bit mask");
        }
    }

    #[test]
    fn every_model_is_in_the_list_of_its_own_family() {
        fn check<M: Listed>() {
            for m in M::all() {
                assert_eq!(m.spec().family, M::FAMILY, "{:?} is listed under {:?}", m.spec(), M::FAMILY);
            }
        }
        check::<SourceModel>();
        check::<CcModel>();
        check::<RecoveryModel>();
        check::<ReceiverModel>();
        check::<QueueModel>();
        check::<LinkErrorModel>();
    }

    #[test]
    fn every_default_is_in_its_range_and_passes_the_model_check() {
        for m in specs() {
            for p in m.params {
                if let (Some((lo, hi)), Some(x)) = (p.range, Param::magnitude(&p.default)) {
                    assert!(x >= lo && x <= hi, "{m:?}.{}: default {x} outside [{lo}, {hi}]", p.name);
                }
            }
            // Defaults pass the model's check, unless it has a required parameter (no default).
            if let Err(e) = (m.check)(&m.defaults()) {
                let required = m.param(e.key).is_some_and(|p| p.default == Value::Unset && !p.example.is_empty());
                assert!(required, "{m:?} defaults fail their check: {e:?} (a required parameter needs an example)");
            }
        }
    }

    #[test]
    fn every_family_default_and_every_relation_names_a_listed_model() {
        for f in Family::ALL {
            if let Some(name) = default_model(f) {
                assert!(find(f, name).is_some(), "default {} '{name}' is not listed", f.title());
            }
        }
        for m in specs() {
            if let Some(r) = m.relations.default_recovery {
                assert_eq!(m.family, Family::CongestionControl, "{m:?}: only a window control has a default recovery");
                assert!(find(Family::Recovery, r).is_some(), "{m:?}: default recovery '{r}' is not listed");
            }
            assert!(!m.relations.reads_sack || m.family == Family::Recovery, "{m:?}: only a recovery reads SACK blocks");
            assert!(m.relations.selects.is_empty() || m.family == Family::Agent, "{m:?}: only a source selects models");
        }
        let json = to_json();
        assert_eq!(json["families"].as_array().map(Vec::len), Some(Family::ALL.len()));
        assert_eq!(json["families"][1]["default"], "reno");
    }

    #[test]
    fn the_window_controls_pair_with_their_ns2_recoveries() {
        let recovery_of = |cc| default_recovery(find(Family::CongestionControl, cc).unwrap()).spec.name;
        assert_eq!(recovery_of("reno"), "newreno");
        assert_eq!(recovery_of("vegas"), "vegas");
        assert_eq!(recovery_of("quick_vegas"), "vegas");
        for vegas_variant in ["new_vegas", "vegas_a", "vegas_plus"] {
            assert_eq!(recovery_of(vegas_variant), "vegas");
        }
        assert_eq!(recovery_of("fast"), "sack1");
        let reads_sack: Vec<&str> = specs().filter(|m| m.relations.reads_sack).map(|m| m.name).collect();
        assert_eq!(reads_sack, ["sack1", "fack", "prr"]);
    }

    #[test]
    fn values_print_as_scenario_text() {
        use crate::engine::time;
        use crate::model::ParamType;
        assert_eq!(Value::Time(200 * time::PS_PER_MS).to_toml(), "\"200ms\"");
        assert_eq!(Value::Time(3 * time::PS_PER_S).to_toml(), "\"3s\"");
        assert_eq!(Value::Rate(448_000).to_toml(), "\"448Kbps\"");
        assert_eq!(Value::Number(0.002).to_toml(), "0.002");
        assert_eq!(Value::Number(2.0).to_toml(), "2");
        assert_eq!(Value::Limit(Limit::Packets(50)).to_toml(), "\"50p\"");
        assert_eq!(Value::Choice("auto").to_toml(), "\"auto\"");
        assert_eq!(ParamType::NumberOr(&["auto"]).describe(), "number or \"auto\"");
        assert_eq!(ParamType::NumberOr(&["a", "b", "c"]).describe(), "number, \"a\", \"b\" or \"c\"");
    }
}

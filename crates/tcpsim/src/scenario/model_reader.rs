//! Reading the catalogue's models from a scenario: `cc = "vegas"`, or
//! `cc = { kind = "vegas", alpha = 2, beta = 4 }`, and a model's parameters written
//! directly in a table (a flow's source parameters). Every key, type, unit, default and
//! range comes from the models' specs (`crate::catalogue`), so nothing is repeated here.

use super::reader::{closest, quote, quote_list, Section};
use super::ScenarioError;
use crate::catalogue::Listed;
use crate::model::{Chosen, ModelConfig, ModelSpec, Param, ParamType, Value};
use crate::units::{self, parse_limit, parse_rate, parse_size, parse_time};

/// Where a model was written, for errors found later (for example a queue limit that
/// cannot hold the largest packet).
pub type At = (String, Option<usize>);

/// Reads the model of family `M` selected by `key` of `s` (a name or a table with
/// `kind`), or `None` when the key is absent.
pub fn model<M: Listed>(s: &Section, key: &str) -> Result<Option<(Chosen<M>, At)>, ScenarioError> {
    let family = M::FAMILY;
    let names: Vec<&'static str> = M::all().iter().map(|m| m.spec().name).collect();
    if !s.present(key) {
        s.has(key);
        return Ok(None);
    }
    if s.is_table(key) {
        let t = s.table(key)?.expect("present");
        // Keys no model of the family has are reported first (a misspelled `kind` too).
        let mut family_keys: Vec<&str> = vec!["kind"];
        for m in M::all() {
            family_keys.extend(m.spec().params.iter().map(|p| p.name).filter(|k| !family_keys.contains(k)).collect::<Vec<_>>());
        }
        t.allow(&family_keys)?;
        let kind = t.required("kind", t.string("kind")?, &format!("the {} to use: one of {}", family.title(), quote_list(&names)))?;
        let model = find::<M>(&t, "kind", &names, &kind.value)?;
        let spec = model.spec();
        for &k in &family_keys[1..] {
            if t.present(k) && spec.param(k).is_none() {
                let owners: Vec<&str> = M::all().iter().map(|m| m.spec()).filter(|m| m.param(k).is_some()).map(|m| m.name).collect();
                let owners = owners.iter().map(|o| format!("kind = \"{o}\"")).collect::<Vec<_>>().join(" or ");
                return Err(t.error(k, format!("'{k}' applies to {owners}; this {} has kind = \"{}\"", family.title(), spec.name)));
            }
        }
        let config = params(&t, spec)?;
        t.finish()?;
        let at = (format!("{}.{}", t.path, spec.params.first().map_or("kind", |p| p.name)), t.line);
        return Ok(Some((Chosen { model, config }, at)));
    }
    let Some(name) = s.string(key).map_err(|_| s.error(key, format!("expected the name of a {} (a string such as {}) or a table with kind = ...", family.title(), quote(names.first().copied().unwrap_or("")))))? else {
        return Ok(None);
    };
    let model = find::<M>(s, key, &names, &name.value)?;
    let spec = model.spec();
    let at = (name.key.clone(), name.line);
    let config = spec.defaults();
    (spec.check)(&config).map_err(|e| s.error(key, format!("expected {}", e.expected)))?;
    Ok(Some((Chosen { model, config }, at)))
}

/// The model `name` of family `M` (whose models are `names`), or an error naming the
/// closest one, or the family the name belongs to (ns-2 users write `cc = "newreno"`,
/// which is a loss recovery here).
fn find<M: Listed>(s: &Section, key: &str, names: &[&'static str], name: &str) -> Result<&'static M, ScenarioError> {
    M::find(name).ok_or_else(|| {
        let elsewhere = crate::catalogue::specs().find(|m| m.name == name && m.family != M::FAMILY);
        let hint = match (elsewhere, closest(name, names)) {
            (Some(m), _) => format!("; {} is a {}: write {} = {}. Expected", quote(name), m.family.title(), m.family.key(), quote(name)),
            (None, Some(n)) => format!("; did you mean '{n}'? Expected"),
            (None, None) => "; expected".to_string(),
        };
        s.error(key, format!("unknown {} {}{hint} one of {}", M::FAMILY.title(), quote(name), quote_list(names)))
    })
}

/// Reads every parameter of `spec` present in `s` (the caller has checked that no other
/// key is there), fills in defaults and runs the model's own check.
pub fn params(s: &Section, spec: &'static ModelSpec) -> Result<ModelConfig, ScenarioError> {
    let mut config = spec.defaults();
    for (i, p) in spec.params.iter().enumerate() {
        if let Some(v) = value(s, p)? {
            config.values[i] = v;
            config.given |= 1 << i;
        }
    }
    (spec.check)(&config).map_err(|e| s.error(e.key, format!("expected {}", e.expected)))?;
    Ok(config)
}

/// One parameter's value, type- and range-checked.
fn value(s: &Section, p: &Param) -> Result<Option<Value>, ScenarioError> {
    let key = p.name;
    let (lo, hi) = p.range.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    let v = match p.ty {
        ParamType::Number => s.number(key, lo, hi)?.map(Value::Number),
        ParamType::Integer => {
            let clamp = |x: f64| if x.is_finite() { x.clamp(i64::MIN as f64, i64::MAX as f64) as i64 } else if x > 0.0 { i64::MAX } else { i64::MIN };
            s.integer(key, clamp(lo), clamp(hi))?.map(Value::Integer)
        }
        ParamType::Bool => s.boolean(key)?.map(Value::Bool),
        ParamType::Time => s.quantity(key, parse_time, units::TIME_EXPECTED)?.map(Value::Time),
        ParamType::Size => s.quantity(key, parse_size, units::SIZE_EXPECTED)?.map(Value::Size),
        ParamType::Rate => s.quantity(key, parse_rate, units::RATE_EXPECTED)?.map(Value::Rate),
        ParamType::Limit => s.quantity(key, parse_limit, units::LIMIT_EXPECTED)?.map(Value::Limit),
        ParamType::NumberOr(words) => s.number_or_word(key, lo, hi, words)?.map(|v| v.map_or_else(Value::Choice, Value::Number)),
        ParamType::Choice(choices) => s.choice(key, choices)?.map(|c| Value::Choice(choices.iter().find(|&&x| x == c.value).expect("checked by choice"))),
        ParamType::TimeWindows => {
            let windows = s.pairs(key, parse_time, "times")?;
            if let Some(w) = &windows {
                if let Some(bad) = w.iter().find(|(a, b)| b <= a) {
                    return Err(s.error(key, format!("expected each window to end after it starts, got [{} s, {} s]", crate::engine::time::to_secs(bad.0), crate::engine::time::to_secs(bad.1))));
                }
            }
            windows.map(Value::TimeWindows)
        }
    };
    if let (Some(v), Some((lo, hi))) = (&v, p.range) {
        if matches!(p.ty, ParamType::Time | ParamType::Size | ParamType::Rate) {
            let x = Param::magnitude(v).expect("a quantity");
            if !(x >= lo && x <= hi) {
                let range = p.describe_range().unwrap_or_default();
                return Err(s.error(key, format!("expected a {} {range}, got {} {}", p.ty.describe(), x, p.unit)));
            }
        }
    }
    Ok(v)
}

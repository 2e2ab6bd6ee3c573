//! `tcpsim._core` — the Python extension module of tcpsim.
//!
//! A deliberately thin layer: the Python package (`python/tcpsim/`) reads files, builds
//! DataFrames, writes most files and draws plots; this module only
//!
//! - validates scenario text ([`validate_toml`]),
//! - runs it ([`run_toml`]), returning each result table as `{column: list}` and the
//!   summary as JSON text, or runs it and writes the tables as Parquet files itself
//!   ([`run_toml_to_parquet`], what a sweep's runs call: `parquet_files`),
//! - reads a quantity with the scenario grammar's units ([`parse_quantity`]), and
//! - hands over the registry of models ([`models_json`], [`model_markdown`]), which
//!   `tcpsim models`, the docs generator and the scenario classes read, and
//! - reads an ns-2 trace file's packet lines into columns ([`read_ns2_trace`]), which
//!   `tcpsim.reproduce.measures.read_trace` turns into a DataFrame.
//!
//! Rules it keeps:
//!
//! - **Scenario errors** become `tcpsim.ScenarioError` (a `ValueError`) carrying the core's
//!   message unchanged (file, line, key, what was expected).
//! - **The GIL is released** for the whole simulation; the progress callback re-acquires
//!   it briefly (about a hundred times a run). Each of those moments also checks for
//!   signals, so Ctrl-C interrupts a long run with `KeyboardInterrupt`.
//! - **No panic reaches Python.** An exception raised by the progress callback (or a
//!   signal) unwinds out of the engine with a private payload and is re-raised as it was;
//!   a genuine panic in the core becomes `RuntimeError("tcpsim internal error: ...")`
//!   instead of pyo3's `PanicException` (a `BaseException` most code does not catch).

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use tcpsim::{Column, RunResults, Scenario, Table};

mod parquet_files;

pyo3::create_exception!(
    tcpsim,
    ScenarioError,
    PyValueError,
    "A scenario is invalid: the message names the file, line, key and what was expected."
);

/// Unwind payload: the progress callback raised (or a signal arrived); the `PyErr` itself
/// is kept outside the unwinding closure and re-raised once the engine is left.
struct CallbackRaised;

/// Turns a caught panic payload into the `RuntimeError` Python sees.
fn internal_error(payload: Box<dyn Any + Send>) -> PyErr {
    let what = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    };
    PyRuntimeError::new_err(format!(
        "tcpsim internal error (please report it with the scenario): {what}"
    ))
}

fn scenario_error(err: tcpsim::ScenarioError) -> PyErr {
    ScenarioError::new_err(err.to_string())
}

/// The limits on a run's estimated memory (bytes) and time-series samples; `None` keeps
/// the default.
fn limits(max_memory: Option<u64>, max_samples: Option<u64>) -> tcpsim::Limits {
    let default = tcpsim::Limits::default();
    tcpsim::Limits {
        max_memory: max_memory.unwrap_or(default.max_memory),
        max_samples: max_samples.unwrap_or(default.max_samples),
    }
}

/// The candidate nearest to `word` by edit distance, if near enough: the scenario
/// reader's own "did you mean" rule (one implementation for Rust and Python).
#[pyfunction]
fn closest_name(word: &str, candidates: Vec<String>) -> Option<String> {
    let refs: Vec<&str> = candidates.iter().map(String::as_str).collect();
    tcpsim::words::closest(word, &refs).map(str::to_string)
}

/// The default limits on a run's estimated cost: (memory in bytes, time-series values).
#[pyfunction]
fn default_limits() -> (u64, u64) {
    let d = tcpsim::Limits::default();
    (d.max_memory, d.max_samples)
}

/// Parses and validates scenario text; never panics into the caller.
fn load(text: &str, file_name: &str, limits: &tcpsim::Limits) -> PyResult<Scenario> {
    match panic::catch_unwind(|| tcpsim::load_str_with(text, file_name, limits)) {
        Ok(Ok(scenario)) => Ok(scenario),
        Ok(Err(err)) => Err(scenario_error(err)),
        Err(payload) => Err(internal_error(payload)),
    }
}

/// One table as a dict of column name -> list (floats, ints or strs).
fn table_to_dict<'py>(py: Python<'py>, table: &Table) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, column) in &table.columns {
        let list = match column {
            Column::F64(values) => PyList::new(py, values.iter())?,
            Column::I64(values) => PyList::new(py, values.iter())?,
            Column::Str(values) => PyList::new(py, values.iter())?,
        };
        dict.set_item(name, list)?;
    }
    Ok(dict)
}

fn results_to_dict<'py>(py: Python<'py>, results: &RunResults) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("flows", table_to_dict(py, &results.flows)?)?;
    dict.set_item("queues", table_to_dict(py, &results.queues)?)?;
    dict.set_item("links", table_to_dict(py, &results.links)?)?;
    dict.set_item("timeseries", table_to_dict(py, &results.timeseries)?)?;
    dict.set_item("summary", summary_json(results)?)?;
    Ok(dict)
}

fn summary_json(results: &RunResults) -> PyResult<String> {
    serde_json::to_string(&results.summary)
        .map_err(|e| PyRuntimeError::new_err(format!("tcpsim: cannot encode summary: {e}")))
}

/// Validates scenario text; raises `ScenarioError` if it is invalid or its estimated
/// cost exceeds `max_memory` bytes or `max_samples` time-series values (defaults: the
/// core's `Limits`).
#[pyfunction]
#[pyo3(signature = (text, file_name = "<string>", max_memory = None, max_samples = None))]
fn validate_toml(text: &str, file_name: &str, max_memory: Option<u64>, max_samples: Option<u64>) -> PyResult<()> {
    load(text, file_name, &limits(max_memory, max_samples)).map(|_| ())
}

/// Reads `text` as a quantity of `kind` ("time", "rate", "size" or "limit") with the
/// scenario files' grammar of units. Returns `(value, unit)` in the core's units: times
/// `(picoseconds, "ps")`, rates `(bits per second, "bit/s")`, sizes `(bytes, "B")`,
/// limits `(packets, "p")` or `(bytes, "B")`. Raises `ValueError` with the accepted forms.
#[pyfunction]
fn parse_quantity(kind: &str, text: &str) -> PyResult<(u64, &'static str)> {
    use tcpsim::queue::Limit;
    use tcpsim::units::{self, Kind, Quantity};
    let kind = Kind::ALL
        .into_iter()
        .find(|k| k.name() == kind)
        .ok_or_else(|| PyValueError::new_err(format!("unknown kind {kind:?}: expected \"time\", \"rate\", \"size\" or \"limit\"")))?;
    match units::parse(kind, text) {
        Ok(Quantity::Time(ps)) => Ok((ps, "ps")),
        Ok(Quantity::Rate(bps)) => Ok((bps, "bit/s")),
        Ok(Quantity::Size(b)) | Ok(Quantity::Limit(Limit::Bytes(b))) => Ok((b, "B")),
        Ok(Quantity::Limit(Limit::Packets(n))) => Ok((n, "p")),
        Err(e) => Err(PyValueError::new_err(e.message(text))),
    }
}

/// Runs scenario text to completion.
///
/// Returns `{"flows": {col: list}, "queues": ..., "links": ..., "timeseries": ...,
/// "summary": json_text}`. `progress`, if given, is called with the fraction of simulated
/// time done (0..1) about a hundred times. Trace files (`[trace]`) go under
/// `output_dir` (the working directory when `None`). `max_memory` (bytes) and
/// `max_samples` raise or lower the limits on the run's estimated cost.
#[pyfunction]
#[pyo3(signature = (text, file_name = "<string>", progress = None, output_dir = None, max_memory = None, max_samples = None))]
fn run_toml<'py>(
    py: Python<'py>,
    text: &str,
    file_name: &str,
    progress: Option<Py<PyAny>>,
    output_dir: Option<std::path::PathBuf>,
    max_memory: Option<u64>,
    max_samples: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let results = run_scenario(py, text, file_name, progress, output_dir, max_memory, max_samples)?;
    results_to_dict(py, &results)
}

/// Runs scenario text to completion and writes its non-empty tables as Parquet files
/// `directory/<table>.parquet`, each tagged with `run_uuid` (see `parquet_files`), with
/// the GIL released while it writes.
///
/// Returns `{"written": [table names], "flows": ..., "queues": ..., "links": ...,
/// "summary": json_text}`: the flows, queues and links tables as `{column: list}` (a run's
/// metrics read them), and any table it did not write (a table without rows, which
/// Python writes) the same way. The other arguments are `run_toml`'s.
#[pyfunction]
#[pyo3(signature = (text, file_name, directory, run_uuid, progress = None, output_dir = None, max_memory = None, max_samples = None))]
#[allow(clippy::too_many_arguments)]
fn run_toml_to_parquet<'py>(
    py: Python<'py>,
    text: &str,
    file_name: &str,
    directory: std::path::PathBuf,
    run_uuid: &str,
    progress: Option<Py<PyAny>>,
    output_dir: Option<std::path::PathBuf>,
    max_memory: Option<u64>,
    max_samples: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let results = run_scenario(py, text, file_name, progress, output_dir, max_memory, max_samples)?;
    let tables = [
        ("flows", &results.flows),
        ("queues", &results.queues),
        ("links", &results.links),
        ("timeseries", &results.timeseries),
    ];
    let written: Vec<&str> = py.detach(|| -> PyResult<Vec<&str>> {
        let mut written = Vec::new();
        for (name, table) in tables {
            if table.columns.first().is_some_and(|(_, column)| !column.is_empty()) {
                let path = directory.join(format!("{name}.parquet"));
                parquet_files::write_table(table, &path, run_uuid).map_err(|e| {
                    pyo3::exceptions::PyOSError::new_err(format!("tcpsim: cannot write {}: {e}", path.display()))
                })?;
                written.push(name);
            }
        }
        Ok(written)
    })?;
    let dict = PyDict::new(py);
    for (name, table) in tables {
        // The time series only when Python must write it: the metrics do not read it.
        if name != "timeseries" || !written.contains(&name) {
            dict.set_item(name, table_to_dict(py, table)?)?;
        }
    }
    dict.set_item("written", PyList::new(py, &written)?)?;
    dict.set_item("summary", summary_json(&results)?)?;
    Ok(dict)
}

/// Loads and runs scenario text with the GIL released (see `run_toml`).
fn run_scenario(
    py: Python<'_>,
    text: &str,
    file_name: &str,
    progress: Option<Py<PyAny>>,
    output_dir: Option<std::path::PathBuf>,
    max_memory: Option<u64>,
    max_samples: Option<u64>,
) -> PyResult<RunResults> {
    let scenario = load(text, file_name, &limits(max_memory, max_samples))?;

    let (outcome, raised) = py.detach(|| {
        let mut raised: Option<PyErr> = None;
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut on_progress = |fraction: f64| {
                let err = Python::attach(|py| -> Option<PyErr> {
                    if let Err(e) = py.check_signals() {
                        return Some(e);
                    }
                    match &progress {
                        Some(callback) => callback.call1(py, (fraction,)).err(),
                        None => None,
                    }
                });
                if let Some(e) = err {
                    raised = Some(e);
                    // resume_unwind skips the panic hook: nothing is printed.
                    panic::resume_unwind(Box::new(CallbackRaised));
                }
            };
            tcpsim::run_in(&scenario, output_dir.as_deref(), &mut on_progress)
        }));
        (outcome, raised)
    });

    match outcome {
        Ok(Ok(results)) => Ok(results),
        Ok(Err(err)) => Err(scenario_error(err)),
        Err(payload) => match raised {
            Some(err) if payload.is::<CallbackRaised>() => Err(err),
            _ => Err(internal_error(payload)),
        },
    }
}

/// The registry of models as JSON text: `{"families": [...], "models": [...]}` with every
/// model's name, summary, source and parameters (type, choices, unit, default — times in
/// seconds, rates in bit/s, sizes in bytes, limits as "50p" —, default_toml, min, max,
/// doc, source). See `tcpsim::catalogue::to_json`. Beside them, `flow_common_keys`: the keys
/// of every `[[flow]]` that are not parameters of its source (the scenario reader's list).
#[pyfunction]
fn models_json() -> String {
    let mut json = tcpsim::catalogue::to_json();
    json["flow_common_keys"] = serde_json::json!(tcpsim::scenario::FLOW_COMMON_KEYS);
    json.to_string()
}

/// The Markdown parameter table of the model `name` of the family `family` (a family id
/// such as "queue", "cc" or "agent", as in the JSON), as written in `docs/models/`.
#[pyfunction]
fn model_markdown(family: &str, name: &str) -> PyResult<String> {
    use tcpsim::catalogue;
    use tcpsim::model::{self, Family};
    let fam = Family::ALL
        .into_iter()
        .find(|f| f.id() == family)
        .ok_or_else(|| PyValueError::new_err(format!("unknown model family {family:?}")))?;
    catalogue::find(fam, name)
        .map(model::markdown_table)
        .ok_or_else(|| PyValueError::new_err(format!("no {} named {name:?}", fam.title())))
}

/// The columns of the ns-2 trace file at `path` (`tcpsim::monitor::trace::read`), as
/// `{name: bytearray}` of little-endian int64 / float64 values, and for the word columns
/// `{name: (bytearray of int32 codes, [values])}`; `None` when the file holds anything
/// but packet lines (the caller's general reader then reads it and reports problems).
/// The GIL is released while the file is read and parsed.
#[pyfunction]
fn read_ns2_trace<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<Option<Bound<'py, PyDict>>> {
    use tcpsim::monitor::trace::read::{self, TraceColumn};
    let parsed = py.detach(|| std::fs::read(&path).map(|text| read::read_ns2_trace(&text)));
    let columns = match parsed {
        Err(e) => return Err(pyo3::exceptions::PyOSError::new_err(format!("cannot read {}: {e}", path.display()))),
        Ok(Err(_)) => return Ok(None),
        Ok(Ok(columns)) => columns,
    };
    // Each value's bytes written straight into the bytearray numpy will view.
    fn bytes<'py, const N: usize, T: Copy>(
        py: Python<'py>,
        values: &[T],
        le_bytes: fn(T) -> [u8; N],
    ) -> PyResult<Bound<'py, pyo3::types::PyByteArray>> {
        pyo3::types::PyByteArray::new_with(py, values.len() * N, |buffer| {
            for (slot, &value) in buffer.chunks_exact_mut(N).zip(values) {
                slot.copy_from_slice(&le_bytes(value));
            }
            Ok(())
        })
    }
    let out = PyDict::new(py);
    for (name, column) in read::COLUMNS.iter().zip(columns) {
        match column {
            TraceColumn::Words(w) => out.set_item(name, (bytes(py, &w.codes, i32::to_le_bytes)?, w.values))?,
            TraceColumn::Integers(v) => out.set_item(name, bytes(py, &v, i64::to_le_bytes)?)?,
            TraceColumn::Times(v) => out.set_item(name, bytes(py, &v, f64::to_le_bytes)?)?,
        }
    }
    Ok(Some(out))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The version and the fingerprint of the simulator's sources: what run caches key on.
    m.add("__build__", format!("{}+{}", env!("CARGO_PKG_VERSION"), tcpsim::SOURCE_HASH))?;
    m.add_function(wrap_pyfunction!(run_toml, m)?)?;
    m.add_function(wrap_pyfunction!(run_toml_to_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(validate_toml, m)?)?;
    m.add_function(wrap_pyfunction!(parse_quantity, m)?)?;
    m.add_function(wrap_pyfunction!(models_json, m)?)?;
    m.add_function(wrap_pyfunction!(model_markdown, m)?)?;
    m.add_function(wrap_pyfunction!(default_limits, m)?)?;
    m.add_function(wrap_pyfunction!(closest_name, m)?)?;
    m.add_function(wrap_pyfunction!(read_ns2_trace, m)?)?;
    Ok(())
}

//! tcpsim — a packet-level, discrete-event network simulator for research on TCP
//! congestion control and active queue management.
//!
//! Data flows one way: scenario text → [`load_str`] (validation with file/line/key
//! errors) → [`run`] (build + single-threaded deterministic engine) →
//! [`results::RunResults`] (columnar tables). Every model is listed once in
//! [`catalogue`], above the models, which know only the vocabulary of [`model`].

/// Fingerprint of the simulator's sources (build.rs): changes with any change of the code,
/// so that caches of results never mix runs of different simulator code.
pub const SOURCE_HASH: &str = env!("TCPSIM_SOURCE_HASH");

pub mod agent;
pub mod cost;
pub mod engine;
pub mod monitor;
pub mod net;
pub mod queue;
pub mod catalogue;
pub mod model;
pub mod results;
pub mod scenario;
pub mod sim;
pub mod tcp;
pub mod units;
pub mod words;

pub use cost::Limits;
pub use results::{Column, RunResults, Table};
pub use scenario::{Scenario, ScenarioError};

/// Parses and validates scenario text; `file_name` is used in error messages.
///
/// Validation is complete: besides every key, it checks what only the assembled network
/// shows (a route for every flow, queue limits that hold the largest packet), so a
/// scenario that loads always runs; and it refuses a scenario whose estimated cost
/// exceeds the default [`Limits`] (see [`load_str_with`]).
pub fn load_str(text: &str, file_name: &str) -> Result<Scenario, ScenarioError> {
    load_str_with(text, file_name, &Limits::default())
}

/// [`load_str`] with the given limits on memory and time-series samples: the scenario's
/// estimated cost ([`cost::estimate`]) must stay within them.
pub fn load_str_with(text: &str, file_name: &str, limits: &Limits) -> Result<Scenario, ScenarioError> {
    let mut scenario = scenario::parse_str(text, file_name)?;
    let routes = sim::plan(&scenario, limits)?;
    cost::check(&scenario, &cost::estimate(&scenario, &routes), limits)?;
    // Planned once: building uses these routes.
    scenario.routes = Some(std::sync::Arc::new(routes));
    Ok(scenario)
}

/// Reads, parses and validates a scenario file.
pub fn load_file(path: &std::path::Path) -> Result<Scenario, ScenarioError> {
    load_file_with(path, &Limits::default())
}

/// [`load_file`] with the given limits.
pub fn load_file_with(path: &std::path::Path, limits: &Limits) -> Result<Scenario, ScenarioError> {
    let (text, file) = scenario::read_file(path)?;
    load_str_with(&text, &file, limits)
}

/// Runs a validated scenario to completion.
pub fn run(scenario: &Scenario) -> Result<RunResults, ScenarioError> {
    run_with_progress(scenario, &mut |_| {})
}

/// Runs a scenario, calling `progress` with the fraction of simulated time done (0..=1)
/// about a hundred times during the run. Fails only on problems found while building
/// (for example a destination without a route).
pub fn run_with_progress(scenario: &Scenario, progress: &mut dyn FnMut(f64)) -> Result<RunResults, ScenarioError> {
    run_in(scenario, None, progress)
}

/// Runs a scenario whose trace files (`[trace]`) go under `output_dir` (the working
/// directory when `None`); fails on problems found while building or writing traces.
pub fn run_in(scenario: &Scenario, output_dir: Option<&std::path::Path>, progress: &mut dyn FnMut(f64)) -> Result<RunResults, ScenarioError> {
    Ok(run_to_end_in(scenario, output_dir, progress)?.results())
}

/// [`run_in`], returning the finished run instead of its tables: it gives them whole or
/// a range of rows at a time, so that a very large run's tables can be written without
/// holding them all in memory beside the simulation (`tcpsim-run --csv` does so).
pub fn run_to_end_in<'s>(
    scenario: &'s Scenario,
    output_dir: Option<&std::path::Path>,
    progress: &mut dyn FnMut(f64),
) -> Result<sim::Finished<'s>, ScenarioError> {
    sim::Simulation::new_in(scenario, output_dir)?.run_to_end(progress)
}

/// `docs/architecture.md`, whose examples (a congestion control, a loss recovery, a queue
/// discipline) `cargo test` compiles and runs as doc-tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/architecture.md")]
pub struct ArchitectureDoc;

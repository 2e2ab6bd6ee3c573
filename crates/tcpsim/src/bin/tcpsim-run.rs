//! `tcpsim-run SCENARIO.toml [--out DIR [--csv]] [--quiet] [--max-memory SIZE] [--max-samples N]`
//!
//! Runs one scenario file and prints a per-flow table. With `--out DIR` it writes
//! `summary.json` and, with `--csv`, `flows.csv`, `queues.csv`, `links.csv` and
//! `timeseries.csv` (each written to a temporary file, then renamed). Parquet output and
//! plots are in the Python front end (`tcpsim run`). Trace files the scenario asks for
//! (`[trace]`) go under DIR (the working directory without `--out`).
//!
//! Exit status: 0 on success; 2 on bad usage or a scenario error, including a scenario
//! file that cannot be read and one whose estimated cost exceeds the limits (the message
//! names file, line and key); 1 when the results cannot be written.

use clap::Parser;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tcpsim::{Column, Limits, Table};

/// Runs a tcpsim scenario and prints one line per flow.
#[derive(Parser)]
#[command(
    name = "tcpsim-run",
    version,
    after_help = "Exit status: 0 success, 1 results cannot be written, 2 usage or scenario error.\n\n\
                  example: tcpsim-run examples/dumbbell.toml --out results/dumbbell --csv"
)]
struct Options {
    /// Scenario file (TOML; see docs/scenario.md)
    #[arg(value_name = "SCENARIO.toml")]
    scenario: PathBuf,
    /// Write summary.json (and the CSV tables with --csv) into DIR
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Write flows.csv, queues.csv, links.csv, timeseries.csv into the --out directory
    #[arg(long, requires = "out")]
    csv: bool,
    /// Print nothing on success
    #[arg(long)]
    quiet: bool,
    /// Refuse a scenario whose estimated memory exceeds SIZE (a size such as 16GiB)
    #[arg(long, value_name = "SIZE", default_value = "4GiB", value_parser = memory_size)]
    max_memory: u64,
    /// Refuse a scenario whose monitor would record more than N time-series values
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT_MAX_SAMPLES, value_parser = clap::value_parser!(u64).range(1..))]
    max_samples: u64,
    /// Print the scenario's estimated cost (memory, samples, events) and exit without running
    #[arg(long, conflicts_with_all = ["out", "csv"])]
    estimate: bool,
}

/// The estimate as printed by --estimate.
fn print_estimate(scenario: &tcpsim::Scenario) -> Result<(), tcpsim::ScenarioError> {
    use tcpsim::cost;
    let e = cost::estimate(scenario, &tcpsim::sim::plan(scenario, &Limits::unlimited())?);
    println!("memory   about {} (upper estimate)", cost::human_bytes(e.memory));
    for p in e.parts.iter().filter(|p| p.bytes > 0) {
        println!("  {:>10}  {}", cost::human_bytes(p.bytes), p.what);
    }
    println!("samples  {}", e.samples);
    println!("events   about {:.1e} (upper estimate: every link busy with the smallest packets)", e.events);
    Ok(())
}

/// A size with the scenario files' units ("16GiB", "500MB"), in bytes.
fn memory_size(text: &str) -> Result<u64, String> {
    tcpsim::units::parse_size(text).map_err(|e| e.message(text))
}

/// Writes `path` through a temporary file renamed into place.
fn write_atomically(path: &Path, write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
    write(&mut out)?;
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&tmp, path)
}

fn write_csv(table: &Table, out: &mut impl Write) -> std::io::Result<()> {
    table.write_csv(out).map_err(std::io::Error::other)
}

/// Rows of a table built and written at a time: a million flows' tables are written
/// without holding them whole beside the simulation (a part of the flows table costs
/// about 4 MiB).
const ROWS_PER_PART: usize = 16_384;

/// The row ranges of a table of `rows` rows written in parts (one empty part for an
/// empty table, which still gets its header).
fn parts(rows: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    (0..rows.div_ceil(ROWS_PER_PART).max(1)).map(move |p| p * ROWS_PER_PART..((p + 1) * ROWS_PER_PART).min(rows))
}

/// Writes a table as CSV part by part; `part` builds the rows of a range.
fn write_csv_in_parts(rows: usize, part: impl Fn(std::ops::Range<usize>) -> Table, out: &mut impl Write) -> std::io::Result<()> {
    for (i, range) in parts(rows).enumerate() {
        part(range).write_csv_part(&mut *out, i == 0).map_err(std::io::Error::other)?;
    }
    Ok(())
}

fn print_flows(finished: &tcpsim::sim::Finished) {
    println!("{:<16} {:>14} {:>12} {:>9} {:>13}", "flow", "goodput_Mbps", "retransmits", "timeouts", "mean_rtt_ms");
    for range in parts(finished.flow_count()) {
        print_flow_rows(&finished.flows(range));
    }
}

fn print_flow_rows(flows: &Table) {
    let col = |name: &str| flows.column(name).expect("flow column");
    let (Column::Str(names), Column::F64(goodput), Column::I64(rtx), Column::I64(timeouts), Column::F64(rtt)) =
        (col("name"), col("goodput_bps"), col("retransmits"), col("timeouts"), col("rtt_mean_s"))
    else {
        return;
    };
    for i in 0..names.len() {
        println!(
            "{:<16} {:>14.4} {:>12} {:>9} {:>13.2}",
            names[i],
            goodput[i] / 1e6,
            rtx[i],
            timeouts[i],
            rtt[i] * 1e3
        );
    }
}

fn main() -> ExitCode {
    // clap prints usage errors and exits with status 2, --help and --version with 0.
    let options = Options::parse();
    let limits = Limits { max_memory: options.max_memory, max_samples: options.max_samples };
    let scenario = match tcpsim::load_file_with(&options.scenario, &limits) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if options.estimate {
        return match print_estimate(&scenario) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    let finished = match tcpsim::run_to_end_in(&scenario, options.out.as_deref(), &mut |_| {}) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !options.quiet {
        print_flows(&finished);
    }
    if let Some(dir) = &options.out {
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(dir)?;
            if options.csv {
                let (flows, links) = (finished.flow_count(), finished.link_count());
                write_atomically(&dir.join("flows.csv"), |out| write_csv_in_parts(flows, |r| finished.flows(r), out))?;
                write_atomically(&dir.join("queues.csv"), |out| write_csv_in_parts(links, |r| finished.queues(r), out))?;
                write_atomically(&dir.join("links.csv"), |out| write_csv_in_parts(links, |r| finished.links(r), out))?;
                write_atomically(&dir.join("timeseries.csv"), |out| write_csv(&finished.timeseries(), out))?;
            }
            let summary = serde_json::to_string_pretty(&finished.summary()).unwrap_or_default();
            write_atomically(&dir.join("summary.json"), |out| out.write_all(summary.as_bytes()))
        };
        if let Err(e) = write() {
            eprintln!("error: cannot write results to {}: {e}", dir.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Options::command().debug_assert();
    }

    #[test]
    fn options_parse_and_sizes_use_the_scenario_units() {
        let o = Options::try_parse_from(["tcpsim-run", "s.toml", "--out", "d", "--csv", "--max-memory", "16GiB", "--max-samples", "5"]).unwrap();
        assert_eq!((o.max_memory, o.max_samples, o.csv), (16 << 30, 5, true));
        let o = Options::try_parse_from(["tcpsim-run", "s.toml"]).unwrap();
        assert_eq!((o.max_memory, o.max_samples), (Limits::DEFAULT_MAX_MEMORY, Limits::DEFAULT_MAX_SAMPLES));
        for bad in [
            &["tcpsim-run"][..],
            &["tcpsim-run", "s.toml", "--csv"],
            &["tcpsim-run", "s.toml", "--max-memory", "16gb"],
            &["tcpsim-run", "s.toml", "--max-samples", "0"],
            &["tcpsim-run", "s.toml", "--bogus"],
            &["tcpsim-run", "a.toml", "b.toml"],
        ] {
            let e = Options::try_parse_from(bad).err().unwrap_or_else(|| panic!("{bad:?} accepted"));
            assert_eq!(e.exit_code(), 2, "{bad:?}");
        }
    }
}

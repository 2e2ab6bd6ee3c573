//! `tcpsim-run SCENARIO.toml [--out DIR] [--csv] [--quiet]`
//!
//! Runs one scenario file and prints a per-flow table. With `--out DIR` it writes
//! `summary.json` and, with `--csv`, `flows.csv`, `queues.csv`, `links.csv` and
//! `timeseries.csv` (each written to a temporary file, then renamed). Parquet output and
//! plots are in the Python front end (`tcpsim run`). Trace files the scenario asks for
//! (`[trace]`) go under DIR (the working directory without `--out`).
//!
//! Exit status: 0 on success; 2 on bad usage or a scenario error, including a scenario
//! file that cannot be read (the message names file, line and key); 1 when the results
//! cannot be written.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tcpsim::{Column, RunResults};

const USAGE: &str = "usage: tcpsim-run SCENARIO.toml [--out DIR] [--csv] [--quiet]

Runs a tcpsim scenario and prints one line per flow.
  --out DIR   write summary.json (and the CSV tables with --csv) into DIR
  --csv       write flows.csv, queues.csv, links.csv, timeseries.csv
  --quiet     print nothing on success

example: tcpsim-run examples/dumbbell.toml --out results/dumbbell --csv";

struct Options {
    scenario: PathBuf,
    out: Option<PathBuf>,
    csv: bool,
    quiet: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut scenario = None;
    let mut out = None;
    let (mut csv, mut quiet) = (false, false);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(args.next().ok_or("--out needs a directory")?)),
            "--csv" => csv = true,
            "--quiet" => quiet = true,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s if scenario.is_none() => scenario = Some(PathBuf::from(s)),
            s => return Err(format!("unexpected argument {s}")),
        }
    }
    let scenario = scenario.ok_or("missing the scenario file")?;
    Ok(Options { scenario, out, csv, quiet })
}

fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

fn print_flows(r: &RunResults) {
    let col = |name: &str| r.flows.column(name).expect("flow column");
    let (Column::Str(names), Column::F64(goodput), Column::I64(rtx), Column::I64(timeouts), Column::F64(rtt)) =
        (col("name"), col("goodput_bps"), col("retransmits"), col("timeouts"), col("rtt_mean_s"))
    else {
        return;
    };
    println!("{:<16} {:>14} {:>12} {:>9} {:>13}", "flow", "goodput_Mbps", "retransmits", "timeouts", "mean_rtt_ms");
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
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("tcpsim-run: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let scenario = match tcpsim::load_file(&options.scenario) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let results = match tcpsim::run_in(&scenario, options.out.as_deref(), &mut |_| {}) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !options.quiet {
        print_flows(&results);
    }
    if let Some(dir) = &options.out {
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(dir)?;
            if options.csv {
                for (name, table) in [
                    ("flows.csv", &results.flows),
                    ("queues.csv", &results.queues),
                    ("links.csv", &results.links),
                    ("timeseries.csv", &results.timeseries),
                ] {
                    write_atomically(&dir.join(name), &table.to_csv())?;
                }
            }
            let summary = serde_json::to_string_pretty(&results.summary).unwrap_or_default();
            write_atomically(&dir.join("summary.json"), &summary)
        };
        if let Err(e) = write() {
            eprintln!("error: cannot write results to {}: {e}", dir.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

use std::io::{self, BufWriter};
use std::process::ExitCode;

use logroll::output::{write_csv, write_json_lines};
use logroll::{ingest, open_input, Rollup};

const USAGE: &str = "usage: logroll [--json] FILE...   (FILE may be - for stdin)";

fn run(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let json = args.iter().any(|a| a == "--json");
    let files: Vec<&String> = args.iter().filter(|a| *a != "--json").collect();
    if files.is_empty() {
        return Err(USAGE.into());
    }
    let mut rollup = Rollup::new();
    for path in files {
        let input = open_input(path).map_err(|e| format!("{path}: {e}"))?;
        let stats = ingest(input, &mut rollup)?;
        eprintln!("{path}: {} lines, {} records", stats.lines, stats.records);
    }
    let rows = rollup.rows();
    let mut out = BufWriter::new(io::stdout().lock());
    if json {
        write_json_lines(&mut out, &rows)?;
    } else {
        write_csv(&mut out, &rows)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("logroll: {e}");
            ExitCode::FAILURE
        }
    }
}

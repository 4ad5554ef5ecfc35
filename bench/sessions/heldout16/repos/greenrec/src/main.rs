use greenrec::report::{format_duration, summarize};
use greenrec::{gap_rows, parse_log, reconcile, render_csv};
use std::process::ExitCode;

const USAGE: &str = "usage: greenrec [--max-silence SECONDS] LOG...";

fn run(args: &[String]) -> Result<(), String> {
    let mut max_silence: i64 = 600;
    let mut files = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--max-silence" {
            let value = iter.next().ok_or(USAGE)?;
            max_silence = value
                .parse()
                .map_err(|_| format!("--max-silence: not a number of seconds: {}", value))?;
        } else if arg.starts_with("--") {
            return Err(format!("unknown option {}\n{}", arg, USAGE));
        } else {
            files.push(arg.clone());
        }
    }
    if files.len() == 0 {
        return Err(USAGE.to_string());
    }

    let mut readings = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {}", file, e))?;
        readings.extend(parse_log(file, &text).map_err(|e| e.to_string())?);
    }

    let timelines = reconcile(&readings);
    print!("{}", render_csv(&timelines));
    for gap in gap_rows(&timelines, max_silence) {
        eprintln!(
            "gap: {} {:?} from {} for {}",
            gap.sensor,
            gap.kind,
            gap.from,
            format_duration(gap.to - gap.from)
        );
    }
    let summary = summarize(&timelines, max_silence);
    eprintln!(
        "{} sensors, {} points, {} gaps ({} silent)",
        summary.sensors,
        summary.points,
        summary.gaps,
        format_duration(summary.silent_seconds)
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("greenrec: {}", message);
            ExitCode::FAILURE
        }
    }
}

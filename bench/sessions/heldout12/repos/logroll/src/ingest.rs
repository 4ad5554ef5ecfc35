//! Reading input: files or stdin, line by line, into a `Rollup`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use crate::parse::parse_line;
use crate::rollup::Rollup;

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Stats {
    pub lines: u64,
    pub records: u64,
}

/// A reader for `path`, or for stdin when the path is `-`.
pub fn open_input(path: &str) -> io::Result<Box<dyn Read>> {
    if path == "-" {
        return Ok(Box::new(io::stdin()));
    }
    let file = File::open(Path::new(path))?;
    Ok(Box::new(file))
}

/// Feeds every line of `input` into `rollup`.
pub fn ingest<R: Read>(input: R, rollup: &mut Rollup) -> Result<Stats, Box<dyn std::error::Error>> {
    let mut stats = Stats::default();
    for line in BufReader::new(input).lines() {
        let line = line?;
        stats.lines += 1;
        if line.trim().is_empty() {
            continue;
        }
        let record = parse_line(&line)?;
        rollup.add(&record);
        stats.records += 1;
    }
    Ok(stats)
}

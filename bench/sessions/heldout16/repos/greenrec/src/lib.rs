//! greenrec: merges the sensor logs of one greenhouse into one timeline per sensor
//! and reports where it has holes.

pub mod parse;
pub mod reading;
pub mod reconcile;
pub mod report;

pub use parse::{parse_line, parse_log, ParseError};
pub use reading::{Kind, Reading, Source};
pub use reconcile::{find_gaps, merge_bucket, reconcile, Gap, Timeline};
pub use report::{gap_rows, render_csv, Summary};

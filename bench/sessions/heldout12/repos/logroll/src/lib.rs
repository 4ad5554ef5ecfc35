//! logroll: reads nginx access logs (the `combined` format plus `$request_time`) and rolls them up
//! into one row per minute and route: request count, 5xx count and latency percentiles.

pub mod ingest;
pub mod output;
pub mod parse;
pub mod rollup;
pub mod route;
pub mod time;

pub use ingest::{ingest, open_input, Stats};
pub use parse::{parse_line, LogRecord, ParseError};
pub use rollup::{Bucket, Rollup};

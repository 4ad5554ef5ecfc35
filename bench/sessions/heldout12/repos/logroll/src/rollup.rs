//! The rollup: one bucket per (minute, route), holding every duration so that percentiles are
//! computed over the whole minute.

use std::collections::BTreeMap;

use crate::parse::LogRecord;
use crate::route::{is_noise, normalize};
use crate::time::minute_of;

#[derive(Debug, Default, Clone)]
pub struct Bucket {
    pub count: u64,
    pub server_errors: u64,
    pub bytes: u64,
    pub durations_ms: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub minute: i64,
    pub route: String,
    pub count: u64,
    pub server_errors: u64,
    pub bytes: u64,
    pub p50_ms: u32,
    pub p95_ms: u32,
    pub max_ms: u32,
}

#[derive(Debug, Default)]
pub struct Rollup {
    buckets: BTreeMap<(i64, String), Bucket>,
}

impl Rollup {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, record: &LogRecord) {
        let route = normalize(&record.path);
        if is_noise(&route) {
            return;
        }
        let bucket = self.buckets.entry((minute_of(record.timestamp), route)).or_default();
        bucket.count += 1;
        if record.status >= 500 {
            bucket.server_errors += 1;
        }
        bucket.bytes += record.bytes;
        bucket.durations_ms.push(record.duration_ms);
    }

    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    /// The rows in minute order, then route order.
    pub fn rows(&self) -> Vec<Row> {
        self.buckets
            .iter()
            .map(|((minute, route), bucket)| {
                let mut sorted = bucket.durations_ms.clone();
                sorted.sort_unstable();
                Row {
                    minute: *minute,
                    route: route.clone(),
                    count: bucket.count,
                    server_errors: bucket.server_errors,
                    bytes: bucket.bytes,
                    p50_ms: percentile(&sorted, 0.50),
                    p95_ms: percentile(&sorted, 0.95),
                    max_ms: *sorted.last().unwrap_or(&0),
                }
            })
            .collect()
    }
}

/// The `p` quantile (0.0–1.0) of sorted durations.
pub fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.len() == 0 {
        return 0;
    }
    let index = (p * sorted.len() as f64) as usize;
    sorted[index.min(sorted.len() - 1)]
}

//! Merges the readings of all loggers into one timeline per sensor and kind.

use crate::reading::{Kind, Reading};
use std::collections::BTreeMap;

/// Readings are grouped into buckets of this many seconds.
pub const BUCKET_SECONDS: i64 = 60;

/// One value per bucket for a sensor and kind.
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline {
    pub sensor: String,
    pub kind: Kind,
    /// (bucket start, value), in time order.
    pub points: Vec<(i64, f64)>,
}

/// A stretch with no reading at all.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    pub sensor: String,
    pub kind: Kind,
    pub from: i64,
    pub to: i64,
}

fn bucket_of(at: i64) -> i64 {
    return at - at.rem_euclid(BUCKET_SECONDS);
}

/// The one value kept for a bucket when several loggers reported in it.
pub fn merge_bucket(readings: &[Reading]) -> Option<f64> {
    let plausible: Vec<&Reading> = readings.iter().filter(|r| r.kind.plausible(r.value)).collect();
    plausible.first().map(|r| r.value)
}

/// Builds the timelines of every sensor and kind in `readings`.
pub fn reconcile(readings: &[Reading]) -> Vec<Timeline> {
    let mut groups: BTreeMap<(String, Kind), BTreeMap<i64, Vec<Reading>>> = BTreeMap::new();
    for reading in readings {
        groups
            .entry((reading.sensor.clone(), reading.kind))
            .or_default()
            .entry(bucket_of(reading.at))
            .or_default()
            .push(reading.clone());
    }
    let mut timelines = Vec::new();
    for ((sensor, kind), buckets) in groups {
        let mut points = Vec::new();
        for (start, in_bucket) in buckets {
            if let Some(value) = merge_bucket(&in_bucket) {
                points.push((start, value));
            }
        }
        timelines.push(Timeline { sensor, kind, points });
    }
    timelines
}

/// Stretches longer than `max_silence` seconds between two points of a timeline.
pub fn find_gaps(timeline: &Timeline, max_silence: i64) -> Vec<Gap> {
    let mut gaps = Vec::new();
    for pair in timeline.points.windows(2) {
        let (a, b) = (pair[0].0, pair[1].0);
        if b - a > max_silence {
            gaps.push(Gap {
                sensor: timeline.sensor.clone(),
                kind: timeline.kind,
                from: a + BUCKET_SECONDS,
                to: b,
            });
        }
    }
    gaps
}

//! What greenrec prints: the merged timelines as CSV and a summary of holes.

use crate::reconcile::{find_gaps, Gap, Timeline};
use std::fmt::Write;

/// Counts shown at the end of a run.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Summary {
    pub sensors: usize,
    pub points: usize,
    pub gaps: usize,
    pub silent_seconds: i64,
}

/// The merged timelines as `sensor,kind,bucket_start,value` rows.
pub fn render_csv(timelines: &[Timeline]) -> String {
    let mut out = String::from("sensor,kind,bucket_start,value\n");
    for timeline in timelines {
        for (start, value) in &timeline.points {
            let _ = writeln!(out, "{},{:?},{},{:.2}", timeline.sensor, timeline.kind, start, value);
        }
    }
    out
}

/// One row per gap, longest first, for the grower's morning report.
pub fn gap_rows(timelines: &Vec<Timeline>, max_silence: i64) -> Vec<Gap> {
    let mut gaps: Vec<Gap> = timelines.iter().flat_map(|t| find_gaps(t, max_silence)).collect();
    gaps.sort_by(|a, b| (b.to - b.from).cmp(&(a.to - a.from)).then(a.sensor.cmp(&b.sensor)));
    gaps
}

pub fn summarize(timelines: &Vec<Timeline>, max_silence: i64) -> Summary {
    let gaps = gap_rows(timelines, max_silence);
    Summary {
        sensors: timelines.len(),
        points: timelines.iter().map(|t| t.points.len()).sum(),
        gaps: gaps.len(),
        silent_seconds: gaps.iter().map(|g| g.to - g.from).sum(),
    }
}

/// Human-readable duration for the report: "2h 05m".
pub fn format_duration(seconds: i64) -> String {
    let hours = seconds / 3600;
    let minutes = (seconds % 3600) / 60;
    if hours > 0 {
        format!("{}h {:02}m", hours, minutes)
    } else {
        format!("{}m", minutes)
    }
}

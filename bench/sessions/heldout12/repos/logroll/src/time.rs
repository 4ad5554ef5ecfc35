//! nginx's `$time_local` (`10/Oct/2026:13:55:36 +0200`) into Unix seconds, without a date crate.

use crate::parse::ParseError;

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub fn parse_time(text: &str) -> Result<i64, ParseError> {
    let bad = || ParseError::BadTime(text.to_string());
    let (stamp, zone) = text.split_once(' ').ok_or_else(bad)?;
    let mut parts = stamp.splitn(4, |c| c == '/' || c == ':');
    let day: u32 = parts.next().and_then(|d| d.parse().ok()).ok_or_else(bad)?;
    let month = parts.next().and_then(|m| MONTHS.iter().position(|&n| n == m)).ok_or_else(bad)? as u32 + 1;
    let year: i64 = parts.next().and_then(|y| y.parse().ok()).ok_or_else(bad)?;
    let clock: Vec<i64> = parts.next().ok_or_else(bad)?.split(':').map(|p| p.parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
    if clock.len() != 3 || zone.len() != 5 {
        return Err(bad());
    }
    let sign = if zone.starts_with('-') { -1 } else { 1 };
    let offset = sign * (zone[1..3].parse::<i64>().map_err(|_| bad())? * 3600 + zone[3..5].parse::<i64>().map_err(|_| bad())? * 60);
    let local = days_from_civil(year, month, day) * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2];
    Ok(local - offset)
}

/// The start of the minute a timestamp falls in: the rollup's row key.
pub fn minute_of(timestamp: i64) -> i64 {
    timestamp - timestamp.rem_euclid(60)
}

/// `2026-10-10T11:55:00Z` for a Unix timestamp, for the output's first column.
pub fn format_utc(timestamp: i64) -> String {
    let days = timestamp.div_euclid(86_400);
    let secs = timestamp.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs % 3600 / 60, secs % 60)
}

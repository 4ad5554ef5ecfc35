//! Reads the loggers' CSV lines: `sensor,epoch_seconds,kind,value,source`.

use crate::reading::{Kind, Reading, Source};
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub file: String,
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.reason)
    }
}

impl std::error::Error for ParseError {}

/// Parses one line; `Ok(None)` for blank lines and `#` comments.
pub fn parse_line(text: &str) -> Result<Option<Reading>, String> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    if fields.len() != 5 {
        return Err(format!("expected 5 fields, found {}", fields.len()));
    }
    let sensor = fields[0];
    if sensor.is_empty() {
        return Err("empty sensor id".to_string());
    }
    let at: i64 = fields[1]
        .parse()
        .map_err(|_| format!("bad timestamp {:?}", fields[1]))?;
    let kind = Kind::from_tag(fields[2]).ok_or_else(|| format!("unknown kind {:?}", fields[2]))?;
    let value: f64 = fields[3]
        .parse()
        .map_err(|_| format!("bad value {:?}", fields[3]))?;
    let source = Source::from_tag(fields[4]).ok_or_else(|| format!("unknown source {:?}", fields[4]))?;
    Ok(Some(Reading {
        sensor: sensor.to_string(),
        at,
        kind,
        value,
        source,
    }))
}

/// Parses a whole log. Stops at the first bad line, naming file and line.
pub fn parse_log(file: &str, text: &str) -> Result<Vec<Reading>, ParseError> {
    let mut readings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(reading)) => readings.push(reading),
            Ok(None) => {}
            Err(reason) => {
                return Err(ParseError {
                    file: file.to_string(),
                    line: index + 1,
                    reason,
                })
            }
        }
    }
    Ok(readings)
}

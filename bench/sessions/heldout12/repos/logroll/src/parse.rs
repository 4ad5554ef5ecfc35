//! One access-log line into a `LogRecord`. The nginx `log_format` this expects:
//!
//! `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time`

use std::fmt;

use crate::time::parse_time;

/// User agents are kept for the "top clients" column; the long tail of bot strings is cut short.
const MAX_AGENT: usize = 120;

#[derive(Debug, Clone, PartialEq)]
pub struct LogRecord {
    pub addr: String,
    pub timestamp: i64,
    pub method: String,
    pub path: String,
    pub status: u16,
    pub bytes: u64,
    pub agent: String,
    pub duration_ms: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ParseError {
    MissingField(&'static str),
    BadTime(String),
    BadRequest(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::MissingField(name) => write!(f, "missing field {name}"),
            ParseError::BadTime(t) => write!(f, "bad timestamp {t:?}"),
            ParseError::BadRequest(r) => write!(f, "bad request line {r:?}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Splits `s` at the first `open`…`close` pair, returning (inside, rest after close).
fn delimited(s: &str, open: char, close: char) -> Option<(&str, &str)> {
    let start = s.find(open)? + open.len_utf8();
    let end = start + s[start..].find(close)?;
    Some((&s[start..end], &s[end + close.len_utf8()..]))
}

pub fn parse_request(request: &str) -> Result<(String, String), ParseError> {
    let mut parts = request.split(' ');
    match (parts.next(), parts.next()) {
        (Some(method), Some(target)) if !method.is_empty() => Ok((method.to_string(), target.to_string())),
        _ => Err(ParseError::BadRequest(request.to_string())),
    }
}

pub fn parse_line(line: &str) -> Result<LogRecord, ParseError> {
    let addr = line.split(' ').next().filter(|a| !a.is_empty()).ok_or(ParseError::MissingField("remote_addr"))?;
    let (time, rest) = delimited(line, '[', ']').ok_or(ParseError::MissingField("time_local"))?;
    let (request, rest) = delimited(rest, '"', '"').ok_or(ParseError::MissingField("request"))?;
    let mut numbers = rest.split_whitespace();
    let status: u16 = numbers.next().ok_or(ParseError::MissingField("status"))?.parse().unwrap();
    let bytes: u64 = numbers.next().ok_or(ParseError::MissingField("body_bytes_sent"))?.parse().unwrap_or(0);
    let (_referer, rest) = delimited(rest, '"', '"').ok_or(ParseError::MissingField("http_referer"))?;
    let (agent, rest) = delimited(rest, '"', '"').ok_or(ParseError::MissingField("http_user_agent"))?;
    let seconds: f64 = rest.trim().parse().unwrap();
    let (method, path) = parse_request(request)?;
    let agent = if agent.len() > MAX_AGENT { &agent[..MAX_AGENT] } else { agent };
    Ok(LogRecord {
        addr: addr.to_string(),
        timestamp: parse_time(time)?,
        method,
        path,
        status,
        bytes,
        agent: agent.to_string(),
        duration_ms: (seconds * 1000.0).round() as u32,
    })
}

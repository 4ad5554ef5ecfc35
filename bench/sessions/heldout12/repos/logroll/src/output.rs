//! Writing rows: CSV for spreadsheets, JSON lines for the dashboard's importer.

use std::io::{self, Write};

use crate::rollup::Row;
use crate::time::format_utc;

pub const CSV_HEADER: &str = "minute,route,count,5xx,bytes,p50_ms,p95_ms,max_ms";

fn csv_field(value: &str) -> String {
    if value.contains([',', '"', '\n']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

pub fn write_csv<W: Write>(out: &mut W, rows: &[Row]) -> io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    for row in rows {
        writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            format_utc(row.minute),
            csv_field(&row.route),
            row.count,
            row.server_errors,
            row.bytes,
            row.p50_ms,
            row.p95_ms,
            row.max_ms
        )?;
    }
    Ok(())
}

fn json_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn write_json_lines<W: Write>(out: &mut W, rows: &[Row]) -> io::Result<()> {
    for row in rows {
        writeln!(
            out,
            "{{\"minute\":{},\"route\":{},\"count\":{},\"5xx\":{},\"bytes\":{},\"p50_ms\":{},\"p95_ms\":{},\"max_ms\":{}}}",
            json_string(&format_utc(row.minute)),
            json_string(&row.route),
            row.count,
            row.server_errors,
            row.bytes,
            row.p50_ms,
            row.p95_ms,
            row.max_ms
        )?;
    }
    Ok(())
}

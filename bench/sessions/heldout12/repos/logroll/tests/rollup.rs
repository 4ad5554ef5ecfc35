use logroll::output::write_csv;
use logroll::rollup::percentile;
use logroll::time::{format_utc, parse_time};
use logroll::{ingest, parse_line, Rollup};

const LINE: &str = r#"203.0.113.9 - - [10/Oct/2026:13:55:36 +0200] "GET /orders/1182?expand=1 HTTP/1.1" 200 5120 "-" "curl/8.5.0" 0.042"#;

#[test]
fn parses_a_combined_line() {
    let record = parse_line(LINE).unwrap();
    assert_eq!(record.method, "GET");
    assert_eq!(record.path, "/orders/1182?expand=1");
    assert_eq!(record.status, 200);
    assert_eq!(record.duration_ms, 42);
    assert_eq!(format_utc(record.timestamp), "2026-10-10T11:55:36Z");
}

#[test]
fn applies_negative_offsets() {
    assert_eq!(parse_time("01/Jan/2026:00:00:00 -0130").unwrap(), parse_time("01/Jan/2026:01:30:00 +0000").unwrap());
}

#[test]
fn rolls_up_per_minute_and_route() {
    let log = [
        LINE,
        r#"203.0.113.9 - - [10/Oct/2026:13:55:50 +0200] "GET /orders/77 HTTP/1.1" 502 0 "-" "curl/8.5.0" 1.300"#,
        r#"203.0.113.9 - - [10/Oct/2026:13:56:01 +0200] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.29" 0.001"#,
    ]
    .join("\n");
    let mut rollup = Rollup::new();
    let stats = ingest(log.as_bytes(), &mut rollup).unwrap();
    assert_eq!((stats.lines, stats.records), (3, 3));
    let rows = rollup.rows();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].route.as_str(), rows[0].count, rows[0].server_errors), ("/orders/:id", 2, 1));
    assert_eq!(rows[0].max_ms, 1300);
}

#[test]
fn percentile_of_nothing_is_zero() {
    assert_eq!(percentile(&[], 0.95), 0);
}

#[test]
fn writes_csv() {
    let mut rollup = Rollup::new();
    rollup.add(&parse_line(LINE).unwrap());
    let mut out = Vec::new();
    write_csv(&mut out, &rollup.rows()).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().nth(1), Some("2026-10-10T11:55:00Z,/orders/:id,1,0,5120,42,42,42"));
}

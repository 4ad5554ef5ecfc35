use greenrec::{find_gaps, parse_log, reconcile, Kind, Source};

const LOG: &str = "\
# house 3, bay B
b3-07,1741082400,temp,21.5,wired
b3-07,1741082410,temp,21.9,lora
b3-07,1741082460,temp,21.6,wired
b3-07,1741083600,temp,22.4,wired
b3-07,1741082400,rh,78,wired
";

#[test]
fn parses_every_line() {
    let readings = parse_log("house3.csv", LOG).unwrap();
    assert_eq!(readings.len(), 5);
    assert_eq!(readings[1].source, Source::Lora);
    assert_eq!(readings[4].kind, Kind::Humidity);
}

#[test]
fn names_file_and_line_of_a_bad_line() {
    let err = parse_log("house3.csv", "b3-07,1741082400,temp,warm,wired\n").unwrap_err();
    assert_eq!(err.to_string(), "house3.csv:1: bad value \"warm\"");
}

#[test]
fn one_point_per_minute() {
    let readings = parse_log("house3.csv", LOG).unwrap();
    let timelines = reconcile(&readings);
    let temp = timelines.iter().find(|t| t.kind == Kind::Temperature).unwrap();
    assert_eq!(temp.points.len(), 3);
    assert_eq!(temp.points[0].0, 1741082400);
}

#[test]
fn reports_a_silent_stretch() {
    let readings = parse_log("house3.csv", LOG).unwrap();
    let timelines = reconcile(&readings);
    let temp = timelines.iter().find(|t| t.kind == Kind::Temperature).unwrap();
    let gaps = find_gaps(temp, 600);
    assert_eq!(gaps.len(), 1);
    assert_eq!(gaps[0].from, 1741082520);
    assert_eq!(gaps[0].to, 1741083600);
}

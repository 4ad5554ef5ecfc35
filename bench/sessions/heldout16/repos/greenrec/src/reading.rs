//! One measurement, as written by a logger.

use std::fmt;

/// Which logger wrote the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// The climate computer's wired probes, exported every night.
    Wired,
    /// Battery LoRa probes hanging in the crop, relayed by the gateway.
    Lora,
}

impl Source {
    pub fn from_tag(tag: &str) -> Option<Source> {
        match tag {
            "wired" | "hx" => Some(Source::Wired),
            "lora" => Some(Source::Lora),
            _ => None,
        }
    }
}

/// What was measured, with the unit the loggers use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Air temperature, degrees Celsius.
    Temperature,
    /// Relative humidity, percent.
    Humidity,
    /// Substrate moisture, percent of volume.
    Moisture,
}

impl Kind {
    pub fn from_tag(tag: &str) -> Option<Kind> {
        match tag {
            "temp" | "t" => Some(Kind::Temperature),
            "rh" => Some(Kind::Humidity),
            "vwc" => Some(Kind::Moisture),
            _ => None,
        }
    }

    /// Values outside this range are a broken probe, not weather.
    pub fn plausible(self, value: f64) -> bool {
        match self {
            Kind::Temperature => (-20.0..=60.0).contains(&value),
            Kind::Humidity | Kind::Moisture => (0.0..=100.0).contains(&value),
        }
    }
}

/// One line of a log: a sensor's value at a moment (epoch seconds, UTC).
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub sensor: String,
    pub at: i64,
    pub kind: Kind,
    pub value: f64,
    pub source: Source,
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}={} at {} ({:?})", self.sensor, self.kind, self.value, self.at, self.source)
    }
}

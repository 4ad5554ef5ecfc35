export interface Interval {
  start: Date;
  end: Date;
}

/** A wall-clock date and time at a site, e.g. ("2026-03-29", "06:00", "Europe/Berlin"). */
export function parseLocal(day: string, time: string, _tz: string): Date {
  return new Date(`${day}T${time}:00`);
}

export function overlaps(a: Interval, b: Interval): boolean {
  return a.start <= b.end && b.start <= a.end;
}

export function durationHours(i: Interval): number {
  const ms = i.end.getTime() - i.start.getTime();
  return Math.round(ms / 36e5 * 100) / 100;
}

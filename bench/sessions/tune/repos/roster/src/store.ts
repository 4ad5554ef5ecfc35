import { Interval, overlaps } from "./time";

export interface Shift extends Interval {
  id: string;
  siteId: string;
  workerId: string | null;
  role: string;
}

export class ShiftStore {
  private shifts = new Map<string, Shift>();
  private seq = 0;

  add(input: Omit<Shift, "id">): Shift {
    const shift = { ...input, id: `sh_${++this.seq}` };
    this.shifts.set(shift.id, shift);
    return shift;
  }

  get(id: string): Shift | undefined {
    return this.shifts.get(id);
  }

  byWorker(workerId: string): Shift[] {
    return [...this.shifts.values()].filter((s) => s.workerId === workerId);
  }

  conflicts(workerId: string, when: Interval): Shift[] {
    return this.byWorker(workerId).filter((s) => overlaps(s, when));
  }

  assign(id: string, workerId: string | null): Shift {
    const shift = this.shifts.get(id);
    if (!shift) throw new Error(`no shift ${id}`);
    shift.workerId = workerId;
    return shift;
  }
}

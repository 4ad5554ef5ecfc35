/** Size accounting: how much an entry counts against `maxSize`. */

export type Sizer<V> = (value: V, key: string) => number;

const OVERHEAD = 48;

export function sizeOf(value: unknown): number {
  if (value === null || value === undefined) return OVERHEAD;
  switch (typeof value) {
    case "string":
      return OVERHEAD + value.length;
    case "number":
    case "boolean":
      return OVERHEAD + 8;
    case "bigint":
      return OVERHEAD + 16;
    default:
      break;
  }
  if (value instanceof Uint8Array) return OVERHEAD + value.byteLength;
  return OVERHEAD + JSON.stringify(value).length;
}

export function entrySize<V>(key: string, value: V, sizer?: Sizer<V>): number {
  const size = sizer ? sizer(value, key) : sizeOf(value) + key.length;
  if (!Number.isFinite(size) || size < 0) {
    throw new RangeError(`size of ${key} must be a finite non-negative number, got ${size}`);
  }
  return size;
}

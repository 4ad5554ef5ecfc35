// Dice for combat. Every roll in the game goes through here, so that the source of randomness
// can be swapped in one place.

export interface Rng {
  next(): number;
  int(maxExclusive: number): number;
}

export function createRng(_seed: number): Rng {
  return {
    next: () => Math.random(),
    int: (maxExclusive: number) => Math.floor(Math.random() * maxExclusive),
  };
}

/** A d6 roll plus the attacker's damage, minus one on a roll of 1 (a glancing blow). */
export function rollDamage(rng: Rng, damage: number): number {
  const die = rng.int(6) + 1;
  if (die === 1) return Math.max(damage - 1, 0);
  if (die === 6) return damage + 1;
  return damage;
}

/** Picks an item from a weighted loot table; weights need not sum to anything in particular. */
export function pickLoot(rng: Rng, table: Array<[string, number]>): string | null {
  const total = table.reduce((sum, [, w]) => sum + w, 0);
  if (total <= 0) return null;
  let roll = rng.next() * total;
  for (const [item, weight] of table) {
    if (roll < weight) return item;
    roll -= weight;
  }
  return table[table.length - 1][0];
}

/** True with probability `p` (0–1): ambushes, critical hits, morale checks. */
export function chance(rng: Rng, p: number): boolean {
  return rng.next() < p;
}

/** A shuffled copy of `items` (Fisher–Yates), e.g. the order reinforcements arrive in. */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Counters for a cache: hits, misses, sets, evictions, expirations. */

export interface StatsSnapshot {
  hits: number;
  misses: number;
  sets: number;
  evictions: number;
  expirations: number;
  hitRate: number;
}

export class Stats {
  hits = 0;
  misses = 0;
  sets = 0;
  evictions = 0;
  expirations = 0;

  hit(): void {
    this.hits++;
  }

  miss(): void {
    this.misses++;
  }

  set(): void {
    this.sets++;
  }

  evicted(n = 1): void {
    this.evictions += n;
  }

  expired(n = 1): void {
    this.expirations += n;
  }

  reset(): void {
    this.hits = this.misses = this.sets = this.evictions = this.expirations = 0;
  }

  snapshot(): StatsSnapshot {
    const lookups = this.hits + this.misses;
    return {
      hits: this.hits,
      misses: this.misses,
      sets: this.sets,
      evictions: this.evictions,
      expirations: this.expirations,
      hitRate: lookups === 0 ? 0 : this.hits / lookups,
    };
  }
}

// Schema migrations: an ordered list, applied in order, with the applied versions recorded in a
// table of their own.

import type { Connection } from "./pool.js";

export interface Migration {
  version: number;
  name: string;
  up: string[];
  down?: string[];
}

const VERSIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_tinyorm_migrations" (
  "version" INTEGER PRIMARY KEY,
  "name" TEXT NOT NULL,
  "applied_at" TEXT NOT NULL
)`;

export function checkOrder(migrations: Migration[]): void {
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i].version <= migrations[i - 1].version) {
      throw new Error(`migration ${migrations[i].name} is out of order (version ${migrations[i].version})`);
    }
  }
}

export async function appliedVersions(conn: Connection): Promise<Set<number>> {
  await conn.run(VERSIONS_TABLE, []);
  const rows = await conn.all(`SELECT "version" FROM "_tinyorm_migrations"`, []);
  return new Set(rows.map((r) => Number(r.version)));
}

export async function pending(conn: Connection, migrations: Migration[]): Promise<Migration[]> {
  checkOrder(migrations);
  const done = await appliedVersions(conn);
  return migrations.filter((m) => !done.has(m.version));
}

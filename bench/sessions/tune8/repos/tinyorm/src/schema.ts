// Table definitions. A table is a name and its columns; column names are snake_case in the
// database and camelCase in the TypeScript row objects (see rows.ts).

export type ColumnType = "integer" | "real" | "text" | "boolean" | "datetime" | "json";

export interface Column {
  name: string;
  type: ColumnType;
  nullable: boolean;
  primaryKey: boolean;
  references?: { table: string; column: string };
}

export interface Table {
  name: string;
  columns: Column[];
}

export interface ColumnOptions {
  nullable?: boolean;
  primaryKey?: boolean;
  references?: { table: string; column: string };
}

export function column(name: string, type: ColumnType, opts: ColumnOptions = {}): Column {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) {
    throw new Error(`column names are snake_case: ${name}`);
  }
  return {
    name,
    type,
    nullable: opts.nullable ?? false,
    primaryKey: opts.primaryKey ?? false,
    references: opts.references,
  };
}

export function defineTable(name: string, columns: Column[]): Table {
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c.name)) throw new Error(`${name}: duplicate column ${c.name}`);
    seen.add(c.name);
  }
  if (columns.filter((c) => c.primaryKey).length > 1) {
    throw new Error(`${name}: composite primary keys are not supported`);
  }
  return { name, columns };
}

export function columnNamed(table: Table, name: string): Column {
  const col = table.columns.find((c) => c.name === name);
  if (!col) throw new Error(`${table.name} has no column ${name}`);
  return col;
}

const SQL_TYPES: Record<ColumnType, string> = {
  integer: "INTEGER",
  real: "REAL",
  text: "TEXT",
  boolean: "INTEGER",
  datetime: "TEXT",
  json: "TEXT",
};

export function createTableSQL(table: Table): string {
  const cols = table.columns.map((c) => {
    let def = `"${c.name}" ${SQL_TYPES[c.type]}`;
    if (c.primaryKey) def += " PRIMARY KEY";
    if (!c.nullable && !c.primaryKey) def += " NOT NULL";
    if (c.references) def += ` REFERENCES "${c.references.table}"("${c.references.column}")`;
    return def;
  });
  return `CREATE TABLE IF NOT EXISTS "${table.name}" (\n  ${cols.join(",\n  ")}\n)`;
}

export { column, defineTable, createTableSQL, type Table, type Column, type ColumnType } from "./schema.js";
export { quoteIdent, Params, type Param } from "./escape.js";
export { from, SelectBuilder, type Compiled, type Op } from "./query.js";
export { fromDb, toDb, toCamel, toSnake, toBool } from "./rows.js";
export { pending, checkOrder, type Migration } from "./migrations.js";
export { Pool, type Connection, type PoolOptions } from "./pool.js";

/**
 * @module
 * Applies the schema migrations (schema.ts) that a database has not recorded yet, each in its own transaction.
 */
import { migrationsFor, schemaMigrationsTable } from './schema.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlConnection } from './sql-driver.js';

export async function applyMigrations(connection: SqlConnection, dialect: SqlDialect): Promise<void> {
  await connection.exec(schemaMigrationsTable(dialect));
  const applied = new Set((await connection.all('SELECT version FROM schema_migrations')).map((row) => row.version as number));
  for (const [index, sql] of migrationsFor(dialect).entries()) {
    const version = index + 1;
    if (applied.has(version)) continue;
    await connection.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [version, Date.now()]);
    });
  }
}

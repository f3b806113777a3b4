// One SQL surface over both databases, `?` placeholders: how the publishing benches seed and read the service's own
// database beside it (publish-scheduler.mjs, publish-latency.mjs).
import Database from 'better-sqlite3';
import pg from 'pg';

export function sqlite(file) {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  return {
    all: async (sql, params = []) => db.prepare(sql).all(...params),
    batch: async (statements) => db.transaction(() => statements.forEach(([sql, params]) => db.prepare(sql).run(...params)))(),
    close: async () => db.close(),
  };
}

export async function postgres(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const number = (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    all: async (sql, params = []) => (await client.query(number(sql), params)).rows,
    batch: async (statements) => {
      await client.query('BEGIN');
      for (const [sql, params] of statements) await client.query(number(sql), params);
      await client.query('COMMIT');
    },
    close: () => client.end(),
  };
}

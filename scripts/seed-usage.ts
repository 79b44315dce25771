import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createStore } from '../src/store/create-store.ts';
import { openDatabase } from '../src/store/open-database.ts';
import { parseDatabaseUrl } from '../src/store/parse-database-url.ts';
import { rebuildUsageRollup, ROLLUPS } from '../src/store/repositories/usage-rollup.ts';

/**
 * `node --import tsx scripts/seed-usage.ts --database <url> --rows 1000000 [--days 90]`: fills
 * usage_logs with synthetic rows, for measuring the logs page, the summary and the export at
 * scale (scripts/measure-usage-queries.ts). The rows are made by the database itself
 * (INSERT … SELECT over generate_series on PostgreSQL, a recursive CTE on SQLite), a chunk per
 * transaction, so ten million rows take minutes, not hours. Row i is a pure function of i (the
 * same data on both databases): times spread evenly over the last --days, 200 keys, 20 models,
 * 10 channels, 5 groups, 2 % 429s and 2 % 500s. Migrations run first; existing rows stay, and
 * the hourly and daily rollups are summed again from all rows at the end.
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    rows: { type: 'string', default: '1000000' },
    days: { type: 'string', default: '90' },
    chunk: { type: 'string', default: '200000' },
  },
});
if (!values.database) throw new Error('--database <sqlite:path | postgres://…> is required');
const rows = Number(values.rows);
const spanMs = Number(values.days) * 86_400_000;
const chunk = Number(values.chunk);
const end = Date.now();
const start = end - spanMs;
const run = end.toString(36);

// The schema, and a gateway secret for it (the store refuses to open without one).
await (await createStore({ databaseUrl: values.database, secretKey: Buffer.alloc(32, 7) })).close();
const location = parseDatabaseUrl(values.database);
const { db } = openDatabase(location);

/** Columns as SQL over the integer `i`; `%` and `||` mean the same on both databases. */
const columns = {
  request_id: sql`${sql.lit(`seed-${run}-`)} || i`,
  time: sql`${sql.lit(start)} + (i * ${sql.lit(spanMs)}) / ${sql.lit(rows)}`,
  key_id: sql`'key-seed-' || ((i * 7919) % 200)`,
  key_name: sql`'seed key ' || ((i * 7919) % 200)`,
  group_name: sql`'group-' || ((i * 7919) % 200 % 5)`,
  model: sql`'model-' || ((i * 104729) % 20)`,
  upstream_model: sql`'model-' || ((i * 104729) % 20)`,
  channel_id: sql`'chan-seed-' || ((i * 15485863) % 10)`,
  channel_name: sql`'seed channel ' || ((i * 15485863) % 10)`,
  client_protocol: sql`'openai-chat'`,
  upstream_protocol: sql`'openai-chat'`,
  surface: sql`'chat'`,
  status: sql`case when i % 50 = 7 then 429 when i % 50 = 13 then 500 else 200 end`,
  input_tokens: sql`(i * 37) % 4000`,
  output_tokens: sql`(i * 53) % 1500`,
  cost_micros: sql`((i * 37) % 4000) * 150 + ((i * 53) % 1500) * 600`,
  latency_ms: sql`50 + (i * 61) % 4000`,
  ttft_ms: sql`20 + (i * 29) % 800`,
  stream: sql`i % 2`,
  client_ip: sql`'10.0.' || (i % 250) || '.' || (i % 7)`,
};
const names = sql.raw(Object.keys(columns).join(', '));
const expressions = sql.join(Object.values(columns));

const began = Date.now();
for (let from = 0; from < rows; from += chunk) {
  const to = Math.min(rows, from + chunk) - 1;
  const numbers = location.dialect === 'postgres' ? sql`generate_series(${sql.lit(from)}::bigint, ${sql.lit(to)}::bigint) as numbers(i)` : sql`numbers`;
  const prefix =
    location.dialect === 'postgres'
      ? sql``
      : sql`with recursive numbers(i) as (select ${sql.lit(from)} union all select i + 1 from numbers where i < ${sql.lit(to)}) `;
  await sql`${prefix}insert into usage_logs (${names}) select ${expressions} from ${numbers}`.execute(db);
  process.stdout.write(`${to + 1} rows (${((Date.now() - began) / 1000).toFixed(1)} s)\n`);
}
// The rows went in behind the usage writer's back: sum them into the summary's rollups.
for (const rollup of ROLLUPS) await rebuildUsageRollup(db, rollup);
process.stdout.write(`rollups rebuilt (${((Date.now() - began) / 1000).toFixed(1)} s)\n`);
if (location.dialect === 'postgres') await sql`analyze usage_logs`.execute(db);
else await sql`analyze`.execute(db);
await db.destroy();
process.stdout.write(`seeded ${rows} usage rows in ${((Date.now() - began) / 1000).toFixed(1)} s\n`);

import { createSqliteHarness } from './create-sqlite-harness.ts';
import { runStoreConformance } from './store-conformance.ts';

runStoreConformance('SQLite store', createSqliteHarness);

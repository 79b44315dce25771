import { createPostgresHarness } from './create-postgres-harness.ts';
import { runStoreConformance } from './store-conformance.ts';

// Runs on every `npm test`: a missing PostgreSQL server fails the run with instructions.
runStoreConformance('PostgreSQL store', createPostgresHarness);

import { createRequire } from 'node:module';

/**
 * Loads a CommonJS dependency synchronously the first time a code path needs it. For the
 * libraries only some deployments use (PostgreSQL, Redis, AWS signing and event streams,
 * YAML config files) or only rare console paths run (Stripe, mail, two-factor, multipart
 * uploads): an embedded gateway with neither never loads them, which is ~8 MB of heap and
 * their compiled code off its idle memory (BENCHMARKS.md, idle RSS). `require` caches each
 * module, so the later calls cost a map lookup.
 */
export const requireOnDemand = createRequire(import.meta.url);

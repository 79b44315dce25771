import { createMemoryKv } from '../../src/kv/create-memory-kv.ts';
import { runKvConformance } from './kv-conformance.ts';

runKvConformance('memory kv', async () => {
  let time = 1_700_000_000_000;
  const kv = createMemoryKv({ now: () => time });
  return {
    kv,
    advanceTime: async (milliseconds) => {
      time += milliseconds;
    },
    dispose: () => kv.close(),
  };
});

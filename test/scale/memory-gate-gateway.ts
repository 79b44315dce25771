import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { ADMIN_TOKEN } from '../../bench/systems.ts';
import { startGateway } from '../../src/startup/start-gateway.ts';

/**
 * The gateway side of the memory gate (memory-gate.test.ts forks it with --expose-gc): one
 * gateway on a temporary SQLite file, alone in its process so that its heap is only its own.
 * Messages: 'heap' answers the median of three used-heap readings, each after two full
 * collections (a full collection is deterministic where RSS and time are not); 'close' stops it.
 */
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');

const directory = mkdtempSync(join(tmpdir(), 'switchyard-memory-gate-'));
const gateway = await startGateway({
  port: 0,
  host: '127.0.0.1',
  databaseUrl: `sqlite:${join(directory, 'gateway.db')}`,
  adminToken: ADMIN_TOKEN,
  bodyLimitBytes: 1024 * 1024,
  altPrefix: 'antigravity',
  upstream: { connectMs: 5_000, firstByteMs: 10_000, idleMs: 60_000 },
  maxAttempts: 1,
  retryStatuses: [502, 503],
  logger: pino({ level: 'silent' }),
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

async function usedHeap(): Promise<number> {
  const readings: number[] = [];
  for (let sample = 0; sample < 3; sample += 1) {
    // Timers and I/O callbacks waiting to run hold garbage; let them run between collections.
    await settle();
    collect?.();
    await settle();
    collect?.();
    readings.push(process.memoryUsage().heapUsed);
  }
  return readings.sort((a, b) => a - b)[1] as number;
}

process.on('message', (message) => {
  if (message === 'heap') {
    void usedHeap().then((bytes) => process.send?.({ heap: bytes }));
  } else if (message === 'close') {
    void gateway.close().finally(() => {
      rmSync(directory, { recursive: true, force: true });
      process.exit(0);
    });
  }
});
process.send?.({ url: gateway.url });

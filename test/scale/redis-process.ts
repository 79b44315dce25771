import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** A redis-server of the test's own, on its own port, that the test can stop and start again. */
export interface RedisProcess {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Sends a signal to the server (SIGSTOP stalls it: connections stay up, nothing is answered; SIGCONT resumes it). */
  signal(signal: NodeJS.Signals): void;
  dispose(): Promise<void>;
}

export async function createRedisProcess(options: { persistent: boolean }): Promise<RedisProcess> {
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    directory,
    '--save',
    '',
    ...(options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  ];
  const waitUntilAnswering = async () => {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      for (let attempt = 0; attempt < 200; attempt += 1) {
        try {
          if (probe.status !== 'ready') await probe.connect();
          if ((await probe.ping()) === 'PONG') return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
      throw new Error(`redis-server on port ${port} did not answer`);
    } finally {
      probe.disconnect();
    }
  };

  const handle: RedisProcess = {
    url,
    async start() {
      child = spawn('redis-server', args, { stdio: 'ignore' });
      await waitUntilAnswering();
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      });
    },
    signal(signal) {
      if (child === undefined || child.exitCode !== null) throw new Error('redis-server is not running');
      child.kill(signal);
    },
    async dispose() {
      child?.kill('SIGCONT');
      await handle.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
  return handle;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

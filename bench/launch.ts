import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Launched {
  name: string;
  child: ChildProcess;
  pid: number;
  url: string;
  /** stdout + stderr so far (the tail is shown when something fails). */
  output(): string;
  stop(): Promise<void>;
}

const HAS_TASKSET = existsSync('/usr/bin/taskset') || existsSync('/bin/taskset');

export interface LaunchOptions {
  name: string;
  args: string[];
  /** CPU list for taskset (`1`, `0`); unpinned when undefined or taskset is missing. */
  cpus: string | undefined;
  env?: Record<string, string>;
  cwd: string;
  /** How the process is known to be ready: it prints `listening <url>`, or the URL answers. */
  ready: { printsUrl: true } | { url: string; path: string };
  timeoutMs?: number;
}

/** Starts `node …` (pinned with taskset when asked) and resolves once it serves. */
export async function launch(options: LaunchOptions): Promise<Launched> {
  const argv = options.cpus !== undefined && HAS_TASKSET ? ['taskset', '-c', options.cpus, process.execPath] : [process.execPath];
  const child = spawn(argv[0] as string, [...argv.slice(1), ...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-8_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let url: string | undefined;
  while (Date.now() < deadline) {
    const done = await Promise.race([exited.then((code) => ({ code })), sleep(100).then(() => undefined)]);
    if (done) throw new LaunchError(`${options.name} exited with code ${done.code} before serving:\n${log.slice(-2_000)}`, log);
    if ('printsUrl' in options.ready) {
      url = /listening (http:\/\/\S+)/.exec(log)?.[1];
      if (url) break;
    } else {
      try {
        const response = await fetch(`${options.ready.url}${options.ready.path}`, { signal: AbortSignal.timeout(1_000) });
        await response.arrayBuffer();
        url = options.ready.url;
        break;
      } catch {
        // Not yet listening.
      }
    }
  }
  if (!url) {
    child.kill('SIGKILL');
    throw new LaunchError(`${options.name} did not serve within ${options.timeoutMs ?? 30_000} ms:\n${log.slice(-2_000)}`, log);
  }
  const pid = child.pid as number;
  return {
    name: options.name,
    child,
    pid,
    url,
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

export class LaunchError extends Error {
  constructor(
    message: string,
    readonly log: string,
  ) {
    super(message);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A free TCP port on 127.0.0.1 (bind to 0, read, release). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on every Linux we run on). */
const TICKS_PER_SECOND = 100;

/** The process and every descendant (tsx or cluster workers would otherwise escape the count). */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let index = 0; index < all.length; index++) {
    const current = all[index] as number;
    try {
      for (const task of readdirSync(`/proc/${current}/task`)) {
        const children = readFileSync(`/proc/${current}/task/${task}/children`, 'utf8').trim();
        if (children) for (const child of children.split(/\s+/)) all.push(Number(child));
      }
    } catch {
      // The process ended between listing and reading.
    }
  }
  return all;
}

/** utime + stime of the whole tree, in microseconds. */
export function cpuMicros(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${member}/stat`, 'utf8');
      // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone: its time is lost, which only under-counts a process that exited mid-window.
    }
  }
  return (ticks * 1_000_000) / TICKS_PER_SECOND;
}

/** Resident set size of the whole tree, in MiB. */
export function rssMiB(pid: number): number {
  let kib = 0;
  for (const member of processTree(pid)) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${member}/status`, 'utf8'));
      if (match) kib += Number(match[1]);
    } catch {
      // Gone.
    }
  }
  return kib / 1024;
}

/** Busy fraction of one CPU between two samples of /proc/stat (for the load-generator core). */
export function cpuCoreTicks(core: number): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .find((row) => row.startsWith(`cpu${core} `));
  const values = (line ?? '').trim().split(/\s+/).slice(1).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/**
 * The kernel's count of connections refused at a full listen queue (TcpExt ListenOverflows and
 * ListenDrops, whole machine). A SYN dropped there is retried by the client after 1, 3, 7, 15 … s,
 * so a rise during a run explains first bytes that take tens of seconds.
 */
export function listenQueueDrops(): { overflows: number; drops: number } {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const names = (lines.find((line) => line.startsWith('TcpExt:')) ?? '').trim().split(/\s+/);
  const values = (lines.filter((line) => line.startsWith('TcpExt:'))[1] ?? '').trim().split(/\s+/);
  const read = (name: string) => Number(values[names.indexOf(name)] ?? Number.NaN);
  return { overflows: read('ListenOverflows'), drops: read('ListenDrops') };
}

import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

/** A pino logger at `info` whose JSON lines land, parsed, in `lines` (access lines and all). */
export function captureLogLines(): { logger: Logger; lines: Array<Record<string, any>> } {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

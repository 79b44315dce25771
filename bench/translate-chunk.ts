import { createParser } from 'eventsource-parser';
import { createRuntime } from '../src/core/create-runtime.ts';
import { getCodec } from '../src/protocols/codec-registry.ts';
import type { ProtocolId } from '../src/protocols/protocol-codec.ts';
import { streamFrames, type Dialect } from './upstream-payloads.ts';

/**
 * Micro-benchmark: CPU per streamed chunk of the gateway's per-chunk work, without sockets.
 * - scan: a byte search for `"usage"` in the raw chunk (the least a metering passthrough can do);
 * - tap: what the passthrough lane does now (SSE parse with eventsource-parser + the upstream
 *   codec's usage tap);
 * - translate: SSE parse + upstream StreamDecoder + client StreamEncoder (the translated lane).
 * One "chunk" is one upstream SSE frame, each fed as its own Buffer as it arrives off a socket.
 */
export interface ChunkCostRow {
  lane: string;
  upstream: Dialect;
  client: string;
  nsPerChunk: number;
}

const PROTOCOL: Record<Dialect, ProtocolId> = {
  openai: 'openai-chat',
  anthropic: 'anthropic-messages',
  gemini: 'gemini-generate-content',
};

function framesOf(dialect: Dialect): Buffer[] {
  const frames = streamFrames(dialect, 'bench-sb');
  const all = [frames.head, ...frames.deltas, frames.tail].filter((frame) => frame !== '');
  // The tail holds several events; split every frame at its blank lines so one chunk = one event.
  return all.flatMap((frame) => frame.split(/(?<=\n\n)/).filter(Boolean)).map((frame) => Buffer.from(frame));
}

function time(iterations: number, chunksPerIteration: number, run: () => void): number {
  for (let index = 0; index < Math.min(2_000, iterations); index++) run();
  const started = performance.now();
  for (let index = 0; index < iterations; index++) run();
  return ((performance.now() - started) * 1e6) / (iterations * chunksPerIteration);
}

export function measureChunkCost(streams: number): ChunkCostRow[] {
  const runtime = createRuntime();
  const rows: ChunkCostRow[] = [];
  const USAGE = Buffer.from('"usage"');
  let sink = 0;

  for (const upstream of ['openai', 'anthropic'] as const) {
    const chunks = framesOf(upstream);
    const codec = getCodec(PROTOCOL[upstream]);
    rows.push({
      lane: 'passthrough: byte scan for "usage"',
      upstream,
      client: upstream,
      nsPerChunk: time(streams, chunks.length, () => {
        for (const chunk of chunks) sink += chunk.indexOf(USAGE);
      }),
    });
    rows.push({
      lane: 'passthrough: SSE parse + usage tap (current lane)',
      upstream,
      client: upstream,
      nsPerChunk: time(streams, chunks.length, () => {
        const tap = codec.createUsageTap();
        const decoder = new TextDecoder();
        const parser = createParser({
          onEvent: (event) => tap.observe(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data }),
        });
        for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
        sink += tap.usage()?.outputTokens ?? 0;
      }),
    });
  }

  const pairs: Array<{ client: Dialect; upstream: Dialect }> = [
    { client: 'openai', upstream: 'anthropic' },
    { client: 'anthropic', upstream: 'openai' },
    { client: 'gemini', upstream: 'openai' },
  ];
  for (const { client, upstream } of pairs) {
    const chunks = framesOf(upstream);
    const upstreamCodec = getCodec(PROTOCOL[upstream]);
    const clientCodec = getCodec(PROTOCOL[client]);
    rows.push({
      lane: 'translated: SSE parse + decode + encode',
      upstream,
      client,
      nsPerChunk: time(streams, chunks.length, () => {
        const decoder = upstreamCodec.createStreamDecoder(runtime);
        const encoder = clientCodec.createStreamEncoder(runtime, { includeUsage: true });
        const text = new TextDecoder();
        let out = '';
        const parser = createParser({
          onEvent: (event) => {
            for (const decoded of decoder.push(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data }))
              out += encoder.push(decoded);
          },
        });
        for (const chunk of chunks) parser.feed(text.decode(chunk, { stream: true }));
        for (const decoded of decoder.end()) out += encoder.push(decoded);
        out += encoder.end();
        sink += out.length;
      }),
    });
  }
  if (sink === 42) process.stdout.write('');
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const streams = process.argv.includes('--smoke') ? 100 : 3_000;
  for (const row of measureChunkCost(streams)) {
    process.stdout.write(`${row.lane.padEnd(52)} ${`${row.upstream} → ${row.client}`.padEnd(22)} ${(row.nsPerChunk / 1000).toFixed(2)} µs/chunk\n`);
  }
}

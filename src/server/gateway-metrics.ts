import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ChannelHealth } from '../routing/channel-health.ts';
import type { StreamGauge } from '../relay/stream-gauge.ts';
import type { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import type { UsageLogEntry } from '../store/store.ts';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const CIRCUIT_STATES = { closed: 0, 'half-open': 1, open: 2 } as const;

/**
 * Prometheus metrics, fed from the same usage rows the log gets (one per request), so the two
 * can never disagree. Gauges for open streams and circuit states are read at scrape time.
 * Its own registry: nothing global, several gateways per process (tests) stay apart.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: 'switchyard_requests_total',
    help: 'Requests by client surface, protocol, model, channel and status.',
    labelNames: ['surface', 'protocol', 'model', 'channel', 'status'] as const,
    registers: [this.registry],
  });
  readonly #latency = new Histogram({
    name: 'switchyard_request_duration_seconds',
    help: 'Whole request time as the client saw it.',
    labelNames: ['protocol', 'stream'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #firstToken = new Histogram({
    name: 'switchyard_time_to_first_token_seconds',
    help: 'Time until the first byte of the reply reached the client.',
    labelNames: ['protocol'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #tokens = new Counter({
    name: 'switchyard_tokens_total',
    help: 'Tokens by model and kind (input, output, cache_read, cache_write, reasoning).',
    labelNames: ['model', 'kind'] as const,
    registers: [this.registry],
  });
  readonly #upstreamErrors = new Counter({
    name: 'switchyard_upstream_errors_total',
    help: 'Failed upstream attempts by channel and error code.',
    labelNames: ['channel', 'code'] as const,
    registers: [this.registry],
  });

  constructor(dependencies: { streams: StreamGauge; health: ChannelHealth; snapshot: SnapshotHolder }) {
    new Gauge({
      name: 'switchyard_open_streams',
      help: 'Replies streaming right now.',
      registers: [this.registry],
      collect() {
        this.set(dependencies.streams.open);
      },
    });
    new Gauge({
      name: 'switchyard_channel_circuit_state',
      help: 'Circuit state per channel: 0 closed, 1 half-open, 2 open.',
      labelNames: ['channel'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const channel of dependencies.snapshot.current.channels.values()) {
          this.set({ channel: channel.name }, CIRCUIT_STATES[dependencies.health.describe(channel).state]);
        }
      },
    });
  }

  observe(entry: UsageLogEntry): void {
    const protocol = entry.clientProtocol ?? 'unknown';
    const model = entry.model ?? '';
    this.#requests.inc({
      surface: entry.surface ?? 'root',
      protocol,
      model,
      channel: entry.channelName ?? '',
      status: String(entry.status),
    });
    this.#latency.observe({ protocol, stream: String(entry.stream) }, entry.latencyMs / 1000);
    if (entry.ttftMs !== null) this.#firstToken.observe({ protocol }, entry.ttftMs / 1000);
    if (entry.inputTokens > 0) this.#tokens.inc({ model, kind: 'input' }, entry.inputTokens);
    if (entry.outputTokens > 0) this.#tokens.inc({ model, kind: 'output' }, entry.outputTokens);
    if (entry.cacheReadTokens > 0) this.#tokens.inc({ model, kind: 'cache_read' }, entry.cacheReadTokens);
    if (entry.cacheWriteTokens > 0) this.#tokens.inc({ model, kind: 'cache_write' }, entry.cacheWriteTokens);
    if (entry.reasoningTokens > 0) this.#tokens.inc({ model, kind: 'reasoning' }, entry.reasoningTokens);
    for (const attempt of entry.attempts) {
      if (attempt.errorCode !== null) this.#upstreamErrors.inc({ channel: attempt.channelName, code: attempt.errorCode });
    }
  }
}

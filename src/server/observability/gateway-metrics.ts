import cluster from 'node:cluster';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { buildInfo } from '../../config/build-info.ts';
import { joinClusterMetrics } from '../../cluster/cluster-metrics.ts';
import type { ChannelHealth } from '../../relay/routing/channel-health.ts';
import type { StreamGauge } from '../../relay/stream-gauge.ts';
import type { SnapshotHolder } from '../../snapshot/snapshot-holder.ts';
import type { UsageLogEntry } from '../../domain/usage-log-entry.ts';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const CIRCUIT_STATES = { closed: 0, 'half-open': 1, open: 2 } as const;

/**
 * Prometheus metrics, fed from the same usage rows the log gets (one per request), so the two
 * can never disagree. Gauges for open streams and circuit states are read at scrape time.
 * Its own registry: nothing global, several gateways per process (tests) stay apart.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  /**
   * Rows are counted in from the usage writer's batches, off the request path; a scrape first
   * asks for the rows still queued (set by the gateway to the writer's `observeQueued`).
   */
  beforeScrape: (() => void) | undefined;
  readonly #requests = new Counter({
    name: 'switchyard_requests_total',
    help: 'Requests by client surface, protocol, model, channel and status.',
    labelNames: ['surface', 'protocol', 'model', 'channel', 'status'] as const,
    registers: [this.registry],
    // The first metric of the registry: its collect runs before any other metric is read.
    collect: () => this.beforeScrape?.(),
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
  readonly #cost = new Counter({
    name: 'switchyard_cost_usd_total',
    help: "What the gateway charged, in USD, by group and model (the usage log's cost).",
    labelNames: ['group', 'model'] as const,
    registers: [this.registry],
  });
  readonly #attemptLatency = new Histogram({
    name: 'switchyard_upstream_attempt_duration_seconds',
    help: 'Each upstream attempt until its reply headers or failure, by channel and outcome (ok or the error code).',
    labelNames: ['channel', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #channelFirstToken = new Histogram({
    name: 'switchyard_channel_time_to_first_token_seconds',
    help: 'Time until the first byte reached the client, by the channel that served it.',
    labelNames: ['channel'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #refusedAuth = new Counter({
    name: 'switchyard_refused_auth_total',
    help: 'Generation requests refused for their key (missing, unknown, disabled, expired, address not allowed), by protocol and error code; they are not in the usage log.',
    labelNames: ['protocol', 'code'] as const,
    registers: [this.registry],
  });
  readonly #upstreamErrors = new Counter({
    name: 'switchyard_upstream_errors_total',
    help: 'Failed upstream attempts by channel and error code.',
    labelNames: ['channel', 'code'] as const,
    registers: [this.registry],
  });

  /** The text a scrape returns: this process's registry, or with WORKERS>1 the whole group's. */
  readonly scrape: () => Promise<string>;

  constructor(dependencies: { streams: StreamGauge; health: ChannelHealth; snapshot: SnapshotHolder }) {
    const info = buildInfo();
    new Gauge({
      name: 'switchyard_build_info',
      help: 'Always 1; the labels say which build runs.',
      labelNames: ['version', 'commit', 'node'] as const,
      registers: [this.registry],
      aggregator: 'first',
    }).set({ version: info.version, commit: info.commit, node: info.node }, 1);
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
      // Workers share circuits through Redis; the worst state any worker sees is the one to show.
      aggregator: 'max',
      collect() {
        this.reset();
        for (const channel of dependencies.snapshot.current.channels.values()) {
          this.set({ channel: channel.name }, CIRCUIT_STATES[dependencies.health.describe(channel).state]);
        }
      },
    });
    this.scrape = cluster.isWorker ? joinClusterMetrics(this.registry) : () => this.registry.metrics();
  }

  /**
   * Label sets repeat (a few surfaces × models × channels × statuses), so each child series is
   * looked up once and cached: prom-client hashes a label object on every call, which cost
   * ~20 µs a request with eight series touched.
   */
  readonly #children = new Map<string, { inc(value?: number): void } | { observe(value: number): void }>();

  #child<T>(cacheKey: string, make: () => T): T {
    let child = this.#children.get(cacheKey) as T | undefined;
    if (child === undefined) {
      child = make();
      this.#children.set(cacheKey, child as never);
    }
    return child;
  }

  observe(entry: UsageLogEntry): void {
    const protocol = entry.clientProtocol ?? 'unknown';
    // A refused request's model name is whatever the client typed: labelling series with it
    // would let anyone grow the registry (and this cache) without bound.
    const model = entry.channelId === null ? '' : (entry.model ?? '');
    const surface = entry.surface ?? 'root';
    const channel = entry.channelName ?? '';
    const status = String(entry.status);
    this.#child(`r|${surface}|${protocol}|${model}|${channel}|${status}`, () => this.#requests.labels({ surface, protocol, model, channel, status })).inc();
    const stream = String(entry.stream);
    this.#child(`l|${protocol}|${stream}`, () => this.#latency.labels({ protocol, stream })).observe(entry.latencyMs / 1000);
    if (entry.ttftMs !== null) this.#child(`f|${protocol}`, () => this.#firstToken.labels({ protocol })).observe(entry.ttftMs / 1000);
    this.#countTokens(model, 'input', entry.inputTokens);
    this.#countTokens(model, 'output', entry.outputTokens);
    this.#countTokens(model, 'cache_read', entry.cacheReadTokens);
    this.#countTokens(model, 'cache_write', entry.cacheWriteTokens);
    this.#countTokens(model, 'reasoning', entry.reasoningTokens);
    if (entry.costMicros > 0) {
      const group = entry.group ?? '';
      this.#child(`c|${group}|${model}`, () => this.#cost.labels({ group, model })).inc(entry.costMicros / 1_000_000);
    }
    if (entry.ttftMs !== null && channel !== '') {
      this.#child(`cf|${channel}`, () => this.#channelFirstToken.labels({ channel })).observe(entry.ttftMs / 1000);
    }
    for (const attempt of entry.attempts) {
      const outcome = attempt.errorCode ?? 'ok';
      this.#child(`a|${attempt.channelName}|${outcome}`, () => this.#attemptLatency.labels({ channel: attempt.channelName, outcome })).observe(
        attempt.latencyMs / 1000,
      );
      if (attempt.errorCode === null) continue;
      const { channelName, errorCode } = attempt;
      this.#child(`e|${channelName}|${errorCode}`, () => this.#upstreamErrors.labels({ channel: channelName, code: errorCode })).inc();
    }
  }

  /** A generation request refused for its key (kept out of the usage log, see RefusedAuthMonitor). */
  countRefusedAuth(protocol: string, code: string): void {
    this.#child(`ra|${protocol}|${code}`, () => this.#refusedAuth.labels({ protocol, code })).inc();
  }

  #countTokens(model: string, kind: string, tokens: number): void {
    if (tokens > 0) this.#child(`t|${model}|${kind}`, () => this.#tokens.labels({ model, kind })).inc(tokens);
  }
}

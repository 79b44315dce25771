import type { Channel } from '../domain/channel.ts';
import { CircuitBreaker, DEFAULT_CIRCUIT_OPTIONS, type CircuitOptions, type CircuitState } from './circuit-breaker.ts';

export interface LastError {
  at: number;
  status: number | null;
  code: string;
  message: string;
}

export interface ChannelHealthView {
  state: CircuitState;
  reason: string | null;
  openedAt: number | null;
  retryAt: number | null;
  successRate: number | null;
  latencyP50: number | null;
  latencyP95: number | null;
  requests: number;
  lastError: LastError | null;
  /** When a call last succeeded (live traffic, probe or manual test); null if never. */
  lastSuccessAt: number | null;
  keys: Array<{ index: number; state: CircuitState; reason: string | null }>;
}

/** What an attempt got: which upstream secret to use (index into `channel.apiKeys`). */
export interface Lease {
  keyIndex: number;
  apiKey: string;
}

const LATENCY_SAMPLES = 256;

/** A circuit that opened or closed here, for other instances to mirror. */
export interface CircuitTransition {
  channelId: string;
  /** The upstream key's index, or null for the channel's own circuit. */
  keyIndex: number | null;
  state: 'open' | 'closed';
  retryAt: number;
  openedAt: number | null;
  reason: string | null;
}

class ChannelRecord {
  readonly circuit: CircuitBreaker;
  readonly keyCircuits: CircuitBreaker[] = [];
  readonly latencies = new Float64Array(LATENCY_SAMPLES);
  latencyCount = 0;
  requests = 0;
  nextKey = 0;
  lastError: LastError | null = null;
  lastSuccessAt: number | null = null;

  constructor(readonly options: CircuitOptions) {
    this.circuit = new CircuitBreaker(options);
  }

  keyCircuit(index: number): CircuitBreaker {
    while (this.keyCircuits.length <= index) this.keyCircuits.push(new CircuitBreaker(this.options));
    return this.keyCircuits[index] as CircuitBreaker;
  }
}

/**
 * Health of every channel and of each of its upstream keys, kept in memory per process:
 * circuit state, recent success rate, latency percentiles and the last error, which the admin
 * API and the console show. The relay asks it for a lease before each attempt and reports the
 * outcome after.
 *
 * With several instances, circuits are shared without a round trip per request: every
 * decision is local, and each time a circuit opens or closes here `onTransition` is told (the
 * gateway publishes it); transitions decided elsewhere arrive through `applyRemote`.
 */
export class ChannelHealth {
  readonly #records = new Map<string, ChannelRecord>();
  onTransition: ((transition: CircuitTransition) => void) | undefined;

  constructor(
    private readonly now: () => number,
    private readonly options: CircuitOptions = DEFAULT_CIRCUIT_OPTIONS,
  ) {}

  /**
   * A lease on the channel and one of its keys (round-robin over the keys whose own circuit
   * admits traffic), or undefined when the channel is out right now.
   */
  acquire(channel: Channel): Lease | undefined {
    return this.#watch(channel, () => this.#acquire(channel));
  }

  #acquire(channel: Channel): Lease | undefined {
    const record = this.#record(channel.id);
    const now = this.now();
    if (!record.circuit.tryAcquire(now)) return undefined;
    const count = channel.apiKeys.length;
    for (let offset = 0; offset < count; offset += 1) {
      const index = (record.nextKey + offset) % count;
      if (count === 1 || record.keyCircuit(index).tryAcquire(now)) {
        record.nextKey = (index + 1) % count;
        return { keyIndex: index, apiKey: channel.apiKeys[index] ?? '' };
      }
    }
    // Every key is out: give back the channel probe we took.
    record.circuit.recordFailure(now, 'every upstream key of this channel is out of service');
    return undefined;
  }

  recordSuccess(channel: Channel, lease: Lease, latencyMs: number): void {
    this.#watch(channel, () => this.#recordSuccess(channel, lease, latencyMs));
  }

  #recordSuccess(channel: Channel, lease: Lease, latencyMs: number): void {
    const record = this.#record(channel.id);
    const now = this.now();
    record.requests += 1;
    record.latencies[record.latencyCount % LATENCY_SAMPLES] = latencyMs;
    record.latencyCount += 1;
    record.lastSuccessAt = now;
    record.circuit.recordSuccess(now);
    if (channel.apiKeys.length > 1) record.keyCircuit(lease.keyIndex).recordSuccess(now);
  }

  /** A transient failure: counts towards the error rate of the channel and of the key. */
  recordFailure(channel: Channel, lease: Lease, error: LastError): void {
    this.#watch(channel, () => this.#recordFailure(channel, lease, error));
  }

  #recordFailure(channel: Channel, lease: Lease, error: LastError): void {
    const record = this.#record(channel.id);
    record.requests += 1;
    record.lastError = error;
    const reason = describeError(error);
    record.circuit.recordFailure(error.at, reason);
    if (channel.apiKeys.length > 1) record.keyCircuit(lease.keyIndex).recordFailure(error.at, reason);
  }

  /** The upstream refused the credentials or has no credit: take out that key, or the whole channel. */
  recordBroken(channel: Channel, lease: Lease, error: LastError): void {
    this.#watch(channel, () => this.#recordBroken(channel, lease, error));
  }

  #recordBroken(channel: Channel, lease: Lease, error: LastError): void {
    const record = this.#record(channel.id);
    record.requests += 1;
    record.lastError = error;
    const reason = `upstream refused the channel: ${describeError(error)}`;
    if (channel.apiKeys.length > 1) record.keyCircuit(lease.keyIndex).trip(error.at, reason);
    else record.circuit.trip(error.at, reason);
  }

  /** Neither success nor failure of the channel (the client's own request was at fault). */
  release(channel: Channel, lease: Lease): void {
    this.#watch(channel, () => this.#release(channel, lease));
  }

  #release(channel: Channel, lease: Lease): void {
    const record = this.#record(channel.id);
    record.requests += 1;
    // A half-open probe that ends this way proves the channel answers.
    record.circuit.recordSuccess(this.now());
    if (channel.apiKeys.length > 1) record.keyCircuit(lease.keyIndex).recordSuccess(this.now());
  }

  /** The upstream asked for a pause (`retry-after` on a 429): skip it until then. */
  pause(channel: Channel, until: number, reason: string): void {
    this.#watch(channel, () => this.#record(channel.id).circuit.pauseUntil(this.now(), until, reason));
  }

  /** A circuit another instance opened or closed. */
  applyRemote(transition: CircuitTransition): void {
    const record = this.#record(transition.channelId);
    const circuit = transition.keyIndex === null ? record.circuit : record.keyCircuit(transition.keyIndex);
    circuit.mirror(transition.state, transition.retryAt, transition.openedAt ?? undefined, transition.reason ?? undefined);
  }

  /** Runs a change and reports each circuit of the channel that opened, reopened or closed. */
  #watch<T>(channel: Channel, change: () => T): T {
    if (!this.onTransition) return change();
    const record = this.#record(channel.id);
    const circuits = [record.circuit, ...record.keyCircuits];
    const before = circuits.map((circuit) => `${circuit.state}:${circuit.retryAt}`);
    const result = change();
    const all: Array<[CircuitBreaker, number | null]> = [[record.circuit, null], ...record.keyCircuits.map((circuit, index): [CircuitBreaker, number] => [circuit, index])];
    all.forEach(([circuit, keyIndex], position) => {
      if (circuit.state === 'half-open') return; // a local probe; its outcome is what counts
      const was = before[position];
      const wasClosed = was === undefined || was.startsWith('closed:');
      const changed = circuit.state === 'closed' ? !wasClosed : was !== `open:${circuit.retryAt}`;
      if (!changed) return;
      this.onTransition?.({
        channelId: channel.id,
        keyIndex,
        state: circuit.state,
        retryAt: circuit.retryAt,
        openedAt: circuit.openedAt ?? null,
        reason: circuit.reason ?? null,
      });
    });
    return result;
  }

  describe(channel: Channel): ChannelHealthView {
    const record = this.#record(channel.id);
    const now = this.now();
    const samples = Array.from(record.latencies.subarray(0, Math.min(record.latencyCount, LATENCY_SAMPLES))).sort((a, b) => a - b);
    const successRate = record.circuit.successRate(now);
    return {
      state: record.circuit.state,
      reason: record.circuit.reason ?? null,
      openedAt: record.circuit.openedAt ?? null,
      retryAt: record.circuit.state === 'closed' ? null : record.circuit.retryAt,
      successRate: successRate ?? null,
      latencyP50: percentile(samples, 0.5),
      latencyP95: percentile(samples, 0.95),
      requests: record.requests,
      lastError: record.lastError,
      lastSuccessAt: record.lastSuccessAt,
      keys: channel.apiKeys.map((_, index) => {
        const circuit = channel.apiKeys.length > 1 ? record.keyCircuit(index) : record.circuit;
        return { index, state: circuit.state, reason: circuit.reason ?? null };
      }),
    };
  }

  /** Forget channels that no longer exist. */
  retain(channelIds: ReadonlySet<string>): void {
    for (const id of this.#records.keys()) if (!channelIds.has(id)) this.#records.delete(id);
  }

  #record(channelId: string): ChannelRecord {
    let record = this.#records.get(channelId);
    if (!record) {
      record = new ChannelRecord(this.options);
      this.#records.set(channelId, record);
    }
    return record;
  }
}

function describeError(error: LastError): string {
  return error.status === null ? `${error.code}: ${error.message}` : `${error.status} ${error.code}: ${error.message}`;
}

function percentile(sorted: number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? null;
}

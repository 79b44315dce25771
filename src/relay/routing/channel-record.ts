import type { Channel } from '../../domain/channel.ts';
import { CircuitBreaker, type CircuitOptions, type CircuitState } from './circuit-breaker.ts';

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
  /** The sliding window `successRate` covers (the circuit's): older calls no longer count. */
  successWindowMs: number;
  latencyP50: number | null;
  latencyP95: number | null;
  requests: number;
  lastError: LastError | null;
  /** When a call last succeeded (live traffic, probe or manual test); null if never. */
  lastSuccessAt: number | null;
  keys: Array<{ index: number; state: CircuitState; reason: string | null }>;
  /** Models whose own circuit is not closed on this channel (failures about one model stay with it). */
  models: Array<{ model: string; state: CircuitState; reason: string | null; retryAt: number | null }>;
}

const LATENCY_SAMPLES = 256;

/** One channel's circuits (its own, each upstream key's, each model's), latency samples and last outcomes. */
export class ChannelRecord {
  readonly circuit: CircuitBreaker;
  readonly keyCircuits: CircuitBreaker[] = [];
  readonly modelCircuits = new Map<string, CircuitBreaker>();
  readonly latencies = new Float64Array(LATENCY_SAMPLES);
  latencyCount = 0;
  requests = 0;
  nextKey = 0;
  lastError: LastError | null = null;
  lastSuccessAt: number | null = null;

  constructor(readonly options: CircuitOptions) {
    this.circuit = new CircuitBreaker(options);
  }

  /** Keeps the newest LATENCY_SAMPLES latencies, in a ring. */
  addLatency(latencyMs: number): void {
    this.latencies[this.latencyCount % LATENCY_SAMPLES] = latencyMs;
    this.latencyCount += 1;
  }

  keyCircuit(index: number): CircuitBreaker {
    while (this.keyCircuits.length <= index) this.keyCircuits.push(new CircuitBreaker(this.options));
    return this.keyCircuits[index] as CircuitBreaker;
  }

  modelCircuit(model: string): CircuitBreaker {
    let circuit = this.modelCircuits.get(model);
    if (!circuit) {
      circuit = new CircuitBreaker(this.options);
      this.modelCircuits.set(model, circuit);
    }
    return circuit;
  }
}

/** What the admin API and the console show of one channel's health. */
export function describeChannelRecord(record: ChannelRecord, channel: Channel, now: number): ChannelHealthView {
  const samples = Array.from(record.latencies.subarray(0, Math.min(record.latencyCount, LATENCY_SAMPLES))).sort((a, b) => a - b);
  const successRate = record.circuit.successRate(now);
  return {
    state: record.circuit.state,
    reason: record.circuit.reason ?? null,
    openedAt: record.circuit.openedAt ?? null,
    retryAt: record.circuit.state === 'closed' ? null : record.circuit.retryAt,
    successRate: successRate ?? null,
    successWindowMs: record.options.windowMs,
    latencyP50: percentile(samples, 0.5),
    latencyP95: percentile(samples, 0.95),
    requests: record.requests,
    lastError: record.lastError,
    lastSuccessAt: record.lastSuccessAt,
    keys: channel.apiKeys.map((_, index) => {
      const circuit = channel.apiKeys.length > 1 ? record.keyCircuit(index) : record.circuit;
      return { index, state: circuit.state, reason: circuit.reason ?? null };
    }),
    models: [...record.modelCircuits]
      .filter(([, circuit]) => circuit.state !== 'closed')
      .map(([model, circuit]) => ({ model, state: circuit.state, reason: circuit.reason ?? null, retryAt: circuit.retryAt })),
  };
}

function percentile(sorted: number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? null;
}

/** The channel's circuit, then each key's (with its index), then each model's (with its name). */
export function forEachCircuit(record: ChannelRecord, visit: (circuit: CircuitBreaker, keyIndex: number | null, model: string | null) => void): void {
  visit(record.circuit, null, null);
  record.keyCircuits.forEach((circuit, index) => visit(circuit, index, null));
  for (const [model, circuit] of record.modelCircuits) visit(circuit, null, model);
}

// Loops of its own rather than forEachCircuit: it runs twice per request and stops at the first open circuit.
export function allClosed(record: ChannelRecord): boolean {
  if (record.circuit.state !== 'closed') return false;
  for (const circuit of record.keyCircuits) if (circuit.state !== 'closed') return false;
  for (const circuit of record.modelCircuits.values()) if (circuit.state !== 'closed') return false;
  return true;
}

import type { Channel } from '../../domain/channel.ts';
import type { CircuitFeed, CircuitTransition } from '../../domain/circuit-transition.ts';
import { DEFAULT_CIRCUIT_OPTIONS, type CircuitBreaker, type CircuitOptions } from './circuit-breaker.ts';
import { allClosed, ChannelRecord, describeChannelRecord, forEachCircuit, type ChannelHealthView, type LastError } from './channel-record.ts';

export type { ChannelHealthView, LastError } from './channel-record.ts';
export type { CircuitTransition } from '../../domain/circuit-transition.ts';

/** What a lease is for: the model (its own circuit on the channel) and which upstream key to use. */
export interface LeaseRequest {
  model?: string;
  /**
   * The request must use this key (a conversation the upstream keeps under it, e.g. a stateful
   * Responses chain): no lease when that key is out.
   */
  onlyKeyIndex?: number;
  /**
   * Use this key when its circuit admits traffic (conversation affinity: its prompt cache is
   * there), otherwise rotate as usual. Ignored with `onlyKeyIndex`.
   */
  preferKeyIndex?: number;
}

/** What an attempt got: which upstream secret to use (index into `channel.apiKeys`). */
export interface Lease {
  keyIndex: number;
  apiKey: string;
  /** The model the attempt is for, when it has its own circuit on the channel. */
  model?: string;
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
export class ChannelHealth implements CircuitFeed {
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
  acquire(channel: Channel, request: LeaseRequest = {}): Lease | undefined {
    return this.#watch(channel, () => this.#acquire(channel, request));
  }

  #acquire(channel: Channel, request: LeaseRequest): Lease | undefined {
    const { model, onlyKeyIndex } = request;
    const record = this.#record(channel.id);
    const now = this.now();
    const count = channel.apiKeys.length;
    // The model's (and a pinned key's) circuit is asked first without taking anything, so a
    // refused model or key never holds the channel's half-open probe.
    const modelCircuit = model === undefined ? undefined : record.modelCircuits.get(model);
    if (modelCircuit && !modelCircuit.canAcquire(now)) return undefined;
    if (onlyKeyIndex !== undefined && (onlyKeyIndex >= count || (count > 1 && !record.keyCircuit(onlyKeyIndex).canAcquire(now)))) return undefined;
    if (!record.circuit.tryAcquire(now)) return undefined;
    const preferred = onlyKeyIndex === undefined ? request.preferKeyIndex : undefined;
    // A preferred key is taken without moving the rotation, so other requests keep spreading evenly.
    if (preferred !== undefined && preferred < count && (count === 1 || record.keyCircuit(preferred).tryAcquire(now))) {
      modelCircuit?.tryAcquire(now);
      return { keyIndex: preferred, apiKey: channel.apiKeys[preferred] ?? '', ...(model === undefined ? {} : { model }) };
    }
    const candidates = onlyKeyIndex === undefined ? count : 1;
    for (let offset = 0; offset < candidates; offset += 1) {
      const index = onlyKeyIndex ?? (record.nextKey + offset) % count;
      if (count === 1 || record.keyCircuit(index).tryAcquire(now)) {
        if (onlyKeyIndex === undefined) record.nextKey = (index + 1) % count;
        modelCircuit?.tryAcquire(now);
        return { keyIndex: index, apiKey: channel.apiKeys[index] ?? '', ...(model === undefined ? {} : { model }) };
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
    record.addLatency(latencyMs);
    record.lastSuccessAt = now;
    record.circuit.recordSuccess(now);
    if (channel.apiKeys.length > 1) record.keyCircuit(lease.keyIndex).recordSuccess(now);
    if (lease.model !== undefined) record.modelCircuits.get(lease.model)?.recordSuccess(now);
  }

  /**
   * A transient failure. With scope `channel` (the host could not be reached) it counts towards
   * the error rate of the channel and of the key; with scope `model` (the host answered, this
   * model failed or hung) only towards the model's own circuit on this channel.
   */
  recordFailure(channel: Channel, lease: Lease, error: LastError, scope: 'channel' | 'model' = 'channel'): void {
    this.#watch(channel, () => this.#recordFailure(channel, lease, error, scope));
  }

  #recordFailure(channel: Channel, lease: Lease, error: LastError, scope: 'channel' | 'model'): void {
    const record = this.#record(channel.id);
    record.requests += 1;
    record.lastError = error;
    const reason = describeError(error);
    if (scope === 'model' && lease.model !== undefined) {
      record.modelCircuit(lease.model).recordFailure(error.at, `${lease.model}: ${reason}`);
      // The host answered: a pending channel probe is settled, not failed.
      if (record.circuit.state === 'half-open') record.circuit.recordSuccess(error.at);
      return;
    }
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
    if (lease.model !== undefined) record.modelCircuits.get(lease.model)?.recordSuccess(this.now());
  }

  /**
   * The upstream asked for a pause (`retry-after` on a 429): skip it until then — only for
   * that model when one is given (providers rate-limit per model).
   */
  pause(channel: Channel, until: number, reason: string, model?: string): void {
    this.#watch(channel, () => {
      const record = this.#record(channel.id);
      (model === undefined ? record.circuit : record.modelCircuit(model)).pauseUntil(this.now(), until, reason);
    });
  }

  /** When the channel will next admit a request for `model` (epoch ms), or now when it admits one. */
  retryAt(channel: Channel, model?: string): number {
    const record = this.#record(channel.id);
    const now = this.now();
    const channelAt = record.circuit.state === 'closed' ? now : record.circuit.retryAt;
    const modelCircuit = model === undefined ? undefined : record.modelCircuits.get(model);
    const modelAt = !modelCircuit || modelCircuit.state === 'closed' ? now : modelCircuit.retryAt;
    return Math.max(channelAt, modelAt, now);
  }

  /** A circuit another instance opened or closed. */
  applyRemote(transition: CircuitTransition): void {
    const record = this.#record(transition.channelId);
    const circuit =
      typeof transition.model === 'string'
        ? record.modelCircuit(transition.model)
        : transition.keyIndex === null
          ? record.circuit
          : record.keyCircuit(transition.keyIndex);
    circuit.mirror(transition.state, transition.retryAt, transition.openedAt ?? undefined, transition.reason ?? undefined);
  }

  /** Runs a change and reports each circuit of the channel that opened, reopened or closed. */
  #watch<T>(channel: Channel, change: () => T): T {
    if (!this.onTransition) return change();
    const record = this.#record(channel.id);
    // Every circuit closed, the usual case: a change can only have opened some, so compare
    // states afterwards without the lists, map and strings of the general path below (two
    // calls per request, acquire and outcome: ~10 us at c=1 in Server-Timing's route phase).
    if (allClosed(record)) {
      const result = change();
      if (!allClosed(record)) this.#reportOpened(channel, record);
      return result;
    }
    const list = (): Array<[CircuitBreaker, number | null, string | null]> => {
      const circuits: Array<[CircuitBreaker, number | null, string | null]> = [];
      forEachCircuit(record, (circuit, keyIndex, model) => circuits.push([circuit, keyIndex, model]));
      return circuits;
    };
    const before = new Map(list().map(([circuit]) => [circuit, `${circuit.state}:${circuit.retryAt}`]));
    const result = change();
    list().forEach(([circuit, keyIndex, model]) => {
      if (circuit.state === 'half-open') return; // a local probe; its outcome is what counts
      const was = before.get(circuit);
      const wasClosed = was === undefined || was.startsWith('closed:');
      const changed = circuit.state === 'closed' ? !wasClosed : was !== `open:${circuit.retryAt}`;
      if (changed) this.#report(channel, circuit, circuit.state, keyIndex, model);
    });
    return result;
  }

  /** `state` is the circuit's, narrowed by the caller: a half-open circuit is a local probe, never reported. */
  #report(channel: Channel, circuit: CircuitBreaker, state: 'closed' | 'open', keyIndex: number | null, model: string | null): void {
    this.onTransition?.({
      channelId: channel.id,
      keyIndex,
      ...(model === null ? {} : { model }),
      state,
      retryAt: circuit.retryAt,
      openedAt: circuit.openedAt ?? null,
      reason: circuit.reason ?? null,
    });
  }

  /** After a change from all closed: each circuit now neither closed nor half-open (a local probe) opened. */
  #reportOpened(channel: Channel, record: ChannelRecord): void {
    forEachCircuit(record, (circuit, keyIndex, model) => {
      if (circuit.state === 'open') this.#report(channel, circuit, circuit.state, keyIndex, model);
    });
  }

  describe(channel: Channel): ChannelHealthView {
    return describeChannelRecord(this.#record(channel.id), channel, this.now());
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

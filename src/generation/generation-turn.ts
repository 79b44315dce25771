import type { ModelPrice } from '../domain/model-price.ts';
import { authenticateCaller } from '../access/authenticate-caller.ts';
import type { Caller } from '../access/authenticate-key.ts';
import type { Admission, AdmissionDeps } from '../billing/admit-generation.ts';
import { estimateRequest, type RequestEstimate } from '../billing/estimate-reservation.ts';
import { recordGenerationUsage, type GenerationOutcome, type GenerationRecord } from '../ledger/record-generation-usage.ts';
import { ledgerRowsOf } from '../ledger/record-ledger.ts';
import type { UsageWriter } from '../billing/usage-writer.ts';
import { PhaseTiming, TIMING_REQUEST_HEADER } from '../core/phase-timing.ts';
import type { Channel } from '../domain/channel.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import { DecodeOnce } from '../protocols/decode-once.ts';
import type { ClientRequestInput, ProtocolCodec, RequestPeek } from '../protocols/protocol-codec.ts';
import type { ClientWriter } from '../relay/client-writer.ts';
import type { StatefulTurn } from '../responses/open-stateful-turn.ts';
import type { GenerationRequest } from './generation-request.ts';
import type { AffinityTurnStep } from './open-affinity-turn.ts';

/** What a turn reads: the snapshot and clock it is authenticated against, the writer of its usage row. */
export type TurnDeps = Pick<AdmissionDeps, 'snapshot' | 'runtime'> & {
  usageWriter: Pick<UsageWriter, 'record'>;
  keepLedger?: boolean | undefined;
};

/**
 * One generation request as the pipeline's phases (run-generation.ts) fill it in: who asks
 * (authenticated), what the client codec peeked, the request decoded at most once, the model,
 * the stateful and affinity turns, the admission, the channels in attempt order and the reply's
 * writer. `record` writes the one usage row from whatever is known by then.
 */
export class GenerationTurn {
  readonly startedAt: number;
  /** Only callers who ask (X-Switchyard-Timing) get a Server-Timing header, and pay for the marks. */
  readonly timing: PhaseTiming | undefined;
  readonly caller: Caller;
  readonly codec: ProtocolCodec;
  readonly peek: RequestPeek;
  /** The client's request decoded at most once, shared by the estimate and every translated attempt. */
  decodes: DecodeOnce;
  body: Record<string, unknown> = RELEASED_BODY;
  model: string | null;
  channels: Channel[] = [];
  /** The model's sell price (undefined: unpriced, served only without strict pricing). */
  price: ModelPrice | undefined;
  stateful: StatefulTurn | undefined;
  affinity: AffinityTurnStep | undefined;
  admission: Admission | undefined;
  writer: ClientWriter | undefined;
  /** The body no longer matches its text (declared tools left out): the passthrough lane re-serialises it. */
  bodyChanged = false;
  /** The client asked for the cost in the reply (OpenRouter's `usage: {"include": true}`). */
  reportCost = false;
  /** Warnings the pipeline has for the reply before the relay (declared tools left out), formatted. */
  featureWarnings: string[] = [];
  /** The estimate, once taken (null: not yet; undefined: the request cannot be decoded). */
  #estimate: RequestEstimate | undefined | null = null;

  /**
   * Authenticates (a request refused for its key is refused by the framework's key check before
   * the body is read: generation-routes.ts; an unknown key is only counted, a known one refused
   * for its state or address gets a usage row under that key) and peeks.
   */
  constructor(
    private readonly deps: TurnDeps,
    readonly request: GenerationRequest,
  ) {
    this.startedAt = deps.runtime.now();
    this.timing = request.credentials.headers[TIMING_REQUEST_HEADER] === undefined ? undefined : new PhaseTiming();
    this.caller = request.caller ?? authenticateCaller(deps.snapshot.current, deps.runtime.now(), request.credentials, request.route.credentials);
    this.codec = getCodec(request.route.protocol);
    this.peek = this.codec.peek(this.clientInput(request.pathStream));
    this.decodes = new DecodeOnce(this.codec, this.clientInput(this.peek.stream), deps.runtime);
    this.model = request.pathModel ?? null;
  }

  /** The client's request as its codec reads it (`stream` as peeked, or from the path). */
  clientInput(stream: boolean | undefined): ClientRequestInput {
    return {
      body: this.request.body,
      ...(this.request.pathModel === undefined ? {} : { pathModel: this.request.pathModel }),
      ...(stream === undefined ? {} : { pathStream: stream }),
    };
  }

  /** The request's estimate (bounded input, output cap, alternatives), decoding it if no one has yet. */
  estimate(): RequestEstimate | undefined {
    if (this.#estimate !== null) return this.#estimate;
    try {
      this.#estimate = estimateRequest(this.decodes.decode().request, this.stateful?.heldContextTokens);
    } catch {
      // The relay reports an undecodable body in the client's terms; here it only means "no estimate".
      this.#estimate = undefined;
    }
    return this.#estimate;
  }

  /** Writes the request's usage row: it names as much as was known by then. */
  record(outcome: GenerationOutcome, warnings: string[]): void {
    const { deps, request } = this;
    const record: GenerationRecord = {
      requestId: request.requestId,
      clientProtocol: request.route.protocol,
      surface: request.route.surface,
      transport: request.transport,
      caller: this.caller,
      model: this.model,
      stream: this.peek.stream,
      startedAt: this.startedAt,
      endedAt: deps.runtime.now(),
      clientIp: request.credentials.clientIp,
      outcome,
      warnings,
      payment: this.admission?.payment,
    };
    // The estimate only if it was taken (never decoded just for the ledger).
    const estimatedInputTokens = this.#estimate === null ? undefined : this.#estimate?.inputTokens;
    recordGenerationUsage(deps.usageWriter, record, ledgerRowsOf(deps, record, { priceVersion: this.admission?.priceVersion ?? null, estimatedInputTokens }));
  }
}

/** What a request's body reads as once released (nothing reads it then). */
export const RELEASED_BODY: Record<string, unknown> = Object.freeze({});

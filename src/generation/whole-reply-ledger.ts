import type { Caller } from '../access/authenticate-key.ts';
import type { CallerCredentials } from '../access/authenticate-caller.ts';
import type { Admission } from '../billing/admit-generation.ts';
import type { UsageTransport } from '../domain/usage-log-entry.ts';
import { recordGenerationUsage, type GenerationOutcome, type GenerationRecord } from '../ledger/record-generation-usage.ts';
import { ledgerRowsOf } from '../ledger/record-ledger.ts';
import { GatewayError } from '../core/gateway-error.ts';
import type { GenerationDeps } from './run-generation.ts';

/**
 * The usage row of a whole-reply request (embeddings, images): the pipeline fills in the caller,
 * model and admission as it learns them; `record` writes the one row, `refuse` settles the hold
 * to nothing and records a refusal unless the relay's row was written already.
 */
export class WholeReplyLedger {
  caller: Caller | undefined;
  model: string | null;
  admission: Admission | undefined;
  /** How the client asked (a compaction turn over a Responses WebSocket); HTTP when absent. */
  transport: UsageTransport | undefined;
  private recorded = false;
  private readonly startedAt: number;

  constructor(
    private readonly deps: GenerationDeps,
    private readonly call: { requestId: string; prefix: string | null; credentials: CallerCredentials },
    private readonly clientProtocol: string,
    model: string | null,
  ) {
    this.startedAt = deps.runtime.now();
    this.model = model;
  }

  record(outcome: GenerationOutcome, warnings: string[]): void {
    this.recorded = true;
    const record: GenerationRecord = {
      requestId: this.call.requestId,
      clientProtocol: this.clientProtocol,
      surface: this.call.prefix,
      transport: this.transport,
      caller: this.caller,
      model: this.model,
      stream: false,
      startedAt: this.startedAt,
      endedAt: this.deps.runtime.now(),
      clientIp: this.call.credentials.clientIp,
      outcome,
      warnings,
      payment: this.admission?.payment,
    };
    const ledger = ledgerRowsOf(this.deps, record, { priceVersion: this.admission?.priceVersion ?? null, estimatedInputTokens: undefined });
    recordGenerationUsage(this.deps.usageWriter, record, ledger);
  }

  /** The error to throw for `thrown` (an unexpected one logged under the request id), recorded once. */
  async refuse(thrown: unknown, what: string): Promise<GatewayError> {
    let error: GatewayError;
    if (thrown instanceof GatewayError) error = thrown;
    else {
      this.deps.logger.error({ err: thrown, requestId: this.call.requestId }, `unexpected failure while relaying ${what}`);
      error = new GatewayError('internal_error', 'The gateway failed unexpectedly; the failure is logged under this request id.', { cause: thrown });
    }
    // A relayed failure is already recorded with its attempts; refusals before the relay are recorded here.
    if (!this.recorded) {
      await this.admission?.finish(undefined);
      this.record({ kind: 'refused', error }, this.admission?.warnings ?? []);
    }
    return error;
  }
}

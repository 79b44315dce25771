import type { GatewayError } from '../core/gateway-error.ts';
import type { Usage } from '../core/usage.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import type { UpstreamProtocolId } from '../protocols/protocol-codec.ts';

/** What one request's relay ended with: the answer's channel, model, usage and warnings, and every attempt. */
export interface RelayResult {
  status: number;
  error: GatewayError | undefined;
  channel: Channel | undefined;
  upstreamModel: string | undefined;
  upstreamProtocol: UpstreamProtocolId | undefined;
  usage: Usage | undefined;
  deliveredChars: number;
  warnings: string[];
  attempts: UsageAttempt[];
}

/** Every result is one literal of the same shape (spreading the varying partial shapes made this a megamorphic object copy on every request). */
export function finishResult(
  partial: Partial<RelayResult> & Pick<RelayResult, 'status' | 'error'>,
  warnings: Set<string>,
  attempts: UsageAttempt[],
): RelayResult {
  return {
    status: partial.status,
    error: partial.error,
    channel: partial.channel,
    upstreamModel: partial.upstreamModel,
    upstreamProtocol: partial.upstreamProtocol,
    usage: partial.usage,
    deliveredChars: partial.deliveredChars ?? 0,
    warnings: [...warnings],
    attempts,
  };
}

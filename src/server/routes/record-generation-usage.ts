import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../access/authenticate-key.ts';
import type { GatewayError } from '../../core/gateway-error.ts';
import type { Usage } from '../../core/usage.ts';
import type { RelayResult } from '../../relay/relay-chat.ts';
import type { AppDeps } from '../app-deps.ts';
import { recordUsage } from '../record-usage.ts';
import type { GenerationRoute } from './handle-generation.ts';

/** Usage was not reported by the upstream; the row's tokens are the gateway's estimate. */
export const ESTIMATED_USAGE_WARNING = 'estimated:usage';

export type GenerationOutcome =
  | { kind: 'relayed'; result: RelayResult; firstByteAt: number | undefined; usage: Usage | undefined; costMicros: number }
  | { kind: 'refused'; error: GatewayError };

export interface GenerationRecord {
  request: FastifyRequest;
  route: GenerationRoute;
  caller: Caller | undefined;
  model: string | null;
  stream: boolean;
  startedAt: number;
  clientIp: string;
  outcome: GenerationOutcome;
  warnings: string[];
}

/** One usage row per generation request, relayed or refused before routing (401s included). */
export function recordGenerationUsage(deps: AppDeps, record: GenerationRecord): void {
  const { outcome, caller } = record;
  const common = {
    requestId: record.request.id,
    time: record.startedAt,
    keyId: caller?.key.id ?? null,
    keyName: caller?.key.name ?? null,
    group: caller?.group.name ?? null,
    model: record.model,
    clientProtocol: record.route.protocol,
    surface: record.route.surface,
    latencyMs: deps.runtime.now() - record.startedAt,
    stream: record.stream,
    clientIp: record.clientIp || null,
  };
  switch (outcome.kind) {
    case 'relayed': {
      const { result } = outcome;
      recordUsage(deps.usageWriter, {
        ...common,
        upstreamModel: result.upstreamModel ?? null,
        channelId: result.channel?.id ?? null,
        channelName: result.channel?.name ?? null,
        upstreamProtocol: result.upstreamProtocol ?? null,
        status: result.status,
        errorCode: result.error?.code ?? null,
        errorMessage: result.error?.message ?? null,
        usage: outcome.usage,
        costMicros: outcome.costMicros,
        ttftMs: outcome.firstByteAt === undefined ? null : outcome.firstByteAt - record.startedAt,
        warnings: unique([...result.warnings, ...record.warnings]),
        attempts: result.attempts,
      });
      return;
    }
    case 'refused':
      recordUsage(deps.usageWriter, {
        ...common,
        upstreamModel: null,
        channelId: null,
        channelName: null,
        upstreamProtocol: null,
        status: outcome.error.status,
        errorCode: outcome.error.code,
        errorMessage: outcome.error.message,
        usage: undefined,
        costMicros: 0,
        ttftMs: null,
        warnings: unique(record.warnings),
        attempts: [],
      });
      return;
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

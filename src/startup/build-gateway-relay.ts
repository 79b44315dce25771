import { createReasoningCache } from '../relay/reasoning/reasoning-cache.ts';
import { createEnvelopeSealer } from '../relay/reasoning/reasoning-envelope.ts';
import { probeChannel } from '../relay/probe-channel.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import { DEFAULT_REPLY_LIMITS } from '../relay/reply-limits.ts';
import { DEFAULT_DEADLINE_MAX_BODY_CHARS } from '../config/config-schema.ts';
import { FirstByteDeadlines, type FirstByteDeadlineOptions } from '../relay/routing/first-byte-deadline.ts';
import { startHealthChecker } from '../relay/routing/health-checker.ts';
import { UpstreamClient } from '../relay/channels/upstream-client.ts';
import type { GatewayServices } from './build-gateway-services.ts';
import { totalTimeoutMs } from './gateway-options.ts';
import type { GatewayState } from './open-gateway-state.ts';

/** The relay and what it owns: the upstream HTTP client and the prober of open circuits. */
export interface GatewayRelay {
  relay: RelayDeps;
  upstream: UpstreamClient;
  healthChecker: { stop(): void };
}

/** The relay's dependencies, and the health checker that probes open circuits through it (on the leader). */
export function buildGatewayRelay(state: GatewayState, services: GatewayServices): GatewayRelay {
  const { options, runtime, logger, snapshot } = state;
  const upstream = new UpstreamClient(options.upstream, options.blockPrivateUpstreams ?? false);
  const relay: RelayDeps = {
    upstream,
    runtime,
    logger,
    health: services.health,
    streams: services.streams,
    retryStatuses: new Set(options.retryStatuses),
    maxAttempts: options.maxAttempts,
    totalTimeoutMs: totalTimeoutMs(options),
    maxRetryWaitMs: 3_000,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    replyLimits: options.replyLimits ?? DEFAULT_REPLY_LIMITS,
    reasoning: { sealer: createEnvelopeSealer(state.secretKey), cache: createReasoningCache({ kv: state.kv, logger }) },
    ...(options.firstByteDeadline === false ? {} : { firstByte: firstByteDeadlines(options.firstByteDeadline) }),
  };
  const healthChecker = startHealthChecker({
    intervalMs: options.healthCheckIntervalMs ?? 30_000,
    probe: (channel, model) => probeChannel(relay, channel, model),
    channels: () => snapshot.current.channels.values(),
    health: services.health,
    logger,
    now: runtime.now,
    isLeader: state.leader,
  });
  return { relay, upstream, healthChecker };
}

function firstByteDeadlines(options: Partial<FirstByteDeadlineOptions> & { hedge?: boolean; maxBodyChars?: number } = {}): NonNullable<RelayDeps['firstByte']> {
  const { hedge = true, maxBodyChars = DEFAULT_DEADLINE_MAX_BODY_CHARS, ...deadline } = options;
  return { deadlines: new FirstByteDeadlines(deadline), hedge, maxBodyChars };
}

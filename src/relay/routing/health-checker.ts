import type { Logger } from 'pino';
import type { Channel } from '../../domain/channel.ts';
import type { ChannelHealth } from './channel-health.ts';

export interface HealthCheckerOptions {
  intervalMs: number;
  /** Probes one channel (a tiny real request, for `model` when given) and feeds the outcome to its health. */
  probe: (channel: Channel, model?: string) => Promise<{ ok: boolean; status?: number | null; error?: { code: string; message: string } | null }>;
  channels: () => Iterable<Channel>;
  health: ChannelHealth;
  logger: Logger;
  now: () => number;
  /** With several instances only the leader probes (default: always). */
  isLeader?: () => boolean;
}

/**
 * Brings channels back without anyone pressing "test": every interval, each enabled channel
 * whose circuit is open and whose cool-down has passed gets one probe, and so does each model
 * whose own circuit on a channel is open. A success closes the
 * circuit; a failure doubles its cool-down. Healthy channels are never probed — real traffic
 * already tells. With several instances only the leader probes; the circuits it closes reach
 * the others through the shared circuit state.
 */
export function startHealthChecker(options: HealthCheckerOptions): { stop(): void; runOnce(): Promise<void> } {
  let running = false;
  const runOnce = async () => {
    if (running || options.isLeader?.() === false) return;
    running = true;
    try {
      const now = options.now();
      const due = [...options.channels()].filter((channel) => {
        if (!channel.enabled) return false;
        const view = options.health.describe(channel);
        return view.state !== 'closed' && (view.retryAt ?? 0) <= now;
      });
      for (const channel of due) {
        // Taking a lease moves the circuit to half-open, so the probe's outcome closes it or
        // reopens it with a longer cool-down.
        if (!options.health.acquire(channel)) continue;
        const result = await options.probe(channel);
        if (result.ok) options.logger.info({ event: 'probe_ok', channel: channel.name }, `health check probe of ${channel.name} succeeded`);
        else {
          options.logger.warn(
            { event: 'probe_failed', channel: channel.name, status: result.status ?? null, error: result.error?.code, reason: result.error?.message },
            `health check probe of ${channel.name} failed: ${result.error?.code ?? result.status ?? 'no answer'}`,
          );
        }
      }
      // Models whose own circuit on a channel is open (the channel itself serves) get the same.
      for (const channel of options.channels()) {
        if (!channel.enabled) continue;
        for (const entry of options.health.describe(channel).models) {
          if (entry.state === 'closed' || (entry.retryAt ?? 0) > now || !channel.models.includes(entry.model)) continue;
          if (!options.health.acquire(channel, { model: entry.model })) continue;
          const result = await options.probe(channel, entry.model);
          if (result.ok)
            options.logger.info(
              { event: 'probe_ok', channel: channel.name, model: entry.model },
              `health check probe of ${channel.name} (${entry.model}) succeeded`,
            );
          else {
            options.logger.warn(
              {
                event: 'probe_failed',
                channel: channel.name,
                model: entry.model,
                status: result.status ?? null,
                error: result.error?.code,
                reason: result.error?.message,
              },
              `health check probe of ${channel.name} (${entry.model}) failed: ${result.error?.code ?? result.status ?? 'no answer'}`,
            );
          }
        }
      }
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}

import type { Logger } from 'pino';
import type { GatewayError } from '../../core/gateway-error.ts';

/** Where a refused request came in; never its key. */
export interface RefusedAuthContext {
  protocol: string;
  clientIp: string;
  path: string;
}

/** At most one log line per this many milliseconds, however many requests are refused. */
export const REFUSED_AUTH_LOG_INTERVAL_MS = 10_000;

/**
 * Requests refused for their key (missing, unknown, disabled, expired, wrong address): those
 * with a missing or unknown key are anyone's to send, so they never reach the usage log (a
 * flood would fill it and the write batches; a known key's refusal does get its row, see
 * `recordKeyRefusal`): each is counted in the metrics, and the log gets one sampled line per interval
 * saying how many were refused since the last one.
 */
export class RefusedAuthMonitor {
  #lastLineAt = Number.NEGATIVE_INFINITY;
  #sinceLastLine = 0;

  constructor(
    private readonly metrics: { countRefusedAuth(protocol: string, code: string): void },
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly now: () => number,
    private readonly intervalMs = REFUSED_AUTH_LOG_INTERVAL_MS,
  ) {}

  note(error: GatewayError, context: RefusedAuthContext): void {
    this.metrics.countRefusedAuth(context.protocol, error.code);
    this.#sinceLastLine += 1;
    const now = this.now();
    if (now - this.#lastLineAt < this.intervalMs) return;
    this.logger.warn(
      { code: error.code, clientIp: context.clientIp, path: context.path, protocol: context.protocol, refused: this.#sinceLastLine },
      `generation requests refused for their key (${this.#sinceLastLine} since the last such line; sampled, one line per ${this.intervalMs / 1000} s)`,
    );
    this.#lastLineAt = now;
    this.#sinceLastLine = 0;
  }
}

import type { Logger } from 'pino';
import { UsageWriter } from '../billing/usage-writer.ts';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import { logGenerationAccess } from './access-log.ts';
import type { GatewayMetrics } from './gateway-metrics.ts';

/**
 * The usage writer that also counts each row into the Prometheus metrics and writes the
 * request's access line: every generation request, relayed or refused, records exactly one row.
 */
export class MeteredUsageWriter extends UsageWriter {
  metrics: GatewayMetrics | undefined;
  accessLogger: Logger | undefined;

  override record(entry: UsageLogEntry): void {
    this.metrics?.observe(entry);
    if (this.accessLogger) logGenerationAccess(this.accessLogger, entry);
    super.record(entry);
  }
}

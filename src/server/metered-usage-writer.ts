import type { Logger } from 'pino';
import { UsageWriter } from '../billing/usage-writer.ts';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import { logGenerationAccess } from './access-log.ts';
import type { GatewayMetrics } from './gateway-metrics.ts';

/**
 * The usage writer that also counts each row into the Prometheus metrics (from the batch, off
 * the request path: see UsageWriter.observe) and writes the request's access line when the row
 * is recorded: every generation request, relayed or refused, records exactly one row.
 */
export class MeteredUsageWriter extends UsageWriter {
  metrics: GatewayMetrics | undefined;
  accessLogger: Logger | undefined;

  override record(entry: UsageLogEntry): void {
    if (this.accessLogger) logGenerationAccess(this.accessLogger, entry);
    super.record(entry);
  }

  protected override observe(entry: UsageLogEntry): void {
    this.metrics?.observe(entry);
  }
}

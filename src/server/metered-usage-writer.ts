import { UsageWriter } from '../billing/usage-writer.ts';
import type { UsageLogEntry } from '../domain/usage-log-entry.ts';
import type { GatewayMetrics } from './gateway-metrics.ts';

/** The usage writer that also counts each row into the Prometheus metrics. */
export class MeteredUsageWriter extends UsageWriter {
  metrics: GatewayMetrics | undefined;

  override record(entry: UsageLogEntry): void {
    this.metrics?.observe(entry);
    super.record(entry);
  }
}

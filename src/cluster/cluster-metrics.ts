import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'switchyard:metrics-request';
const REPLY = 'switchyard:metrics-reply';

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}

interface MetricsReply {
  type: typeof REPLY;
  id: number;
  text?: string;
  error?: string;
}

/**
 * In the cluster primary: answers a worker's request for the whole group's metrics. A scrape
 * lands on one worker (they share the port), so that worker asks the primary, which gathers
 * every worker's registry through prom-client's AggregatorRegistry (counters summed; gauges
 * by the aggregator each metric names).
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(message, REQUEST)) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: REPLY, id: message.id, text } satisfies MetricsReply),
      (error: Error) => worker.send({ type: REPLY, id: message.id, error: error.message } satisfies MetricsReply),
    );
  });
}

/**
 * In a cluster worker: reports `registry` when the primary gathers, and returns a function that
 * fetches the whole group's metrics through the primary.
 */
export function joinClusterMetrics(registry: Registry): () => Promise<string> {
  new AggregatorRegistry(); // installs the worker's listener for the primary's gather requests
  AggregatorRegistry.setRegistries([registry]);
  let nextId = 0;
  const pending = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  process.on('message', (message: unknown) => {
    if (!isMessage<MetricsReply>(message, REPLY)) return;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message.text ?? '');
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the cluster primary did not answer with the metrics within 10 s'));
      }, 10_000);
      pending.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      process.send?.({ type: REQUEST, id } satisfies MetricsRequest);
    });
}

function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

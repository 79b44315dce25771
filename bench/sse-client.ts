import { setMaxListeners } from 'node:events';
import { Agent, request as undiciRequest } from 'undici';
import { quantile } from './latency-probe.ts';
import type { BenchRequest } from './targets.ts';
import { DELTA_MARKER } from './upstream-payloads.ts';

export interface StreamPlan {
  request: BenchRequest;
  streams: number;
  /** Open-loop: stream i starts at i × rampMs / streams, whether or not earlier ones finished. */
  rampMs: number;
  /** 1 = sequential (each stream starts when the previous one ended); ignores rampMs. */
  sequential?: boolean;
  expectedDeltas: number;
  /** Pause between deltas at the upstream, to tell a buffering gateway from a streaming one. */
  upstreamGapMs: number;
  timeoutMs: number;
}

export interface StreamSummary {
  streams: number;
  /** Streams that got every delta, status 200, no error, and were not buffered. */
  clean: number;
  errors: number;
  droppedDeltas: number;
  /** Streams whose deltas arrived bunched together (a gateway that buffers the reply). */
  buffered: number;
  ttfeP50Us: number;
  ttfeP99Us: number;
  gapP50Us: number;
  gapP99Us: number;
  gapMaxUs: number;
  deltasDelivered: number;
  wallMs: number;
  firstError: string | undefined;
}

export interface OpenStreams {
  /** Streams whose first byte arrived. */
  started(): number;
  finished: Promise<StreamSummary>;
  abort(): void;
}

/**
 * An open-loop SSE client: records time to first byte, the gap between consecutive deltas (a
 * delta carries one `~`; several in one read means they were coalesced on the way) and how
 * many deltas arrived. A gateway that buffers the stream returns 200 and every byte, and still
 * fails here.
 */
export function openStreams(plan: StreamPlan): OpenStreams {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: null, pipelining: 1, bodyTimeout: plan.timeoutMs, headersTimeout: plan.timeoutMs });
  const abort = new AbortController();
  // Every stream listens on the one signal.
  setMaxListeners(0, abort.signal);
  const ttfes: number[] = [];
  const gaps: number[] = [];
  let started = 0;
  let clean = 0;
  let errors = 0;
  let dropped = 0;
  let buffered = 0;
  let delivered = 0;
  let firstError: string | undefined;
  const began = performance.now();

  const one = async (): Promise<void> => {
    const t0 = performance.now();
    let deltas = 0;
    let firstDeltaAt = 0;
    let lastDeltaAt = 0;
    let failed = false;
    try {
      const response = await undiciRequest(`${plan.request.origin}${plan.request.path}`, {
        method: 'POST',
        headers: plan.request.headers,
        body: plan.request.body,
        dispatcher: agent,
        signal: abort.signal,
      });
      let first = true;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        const now = performance.now();
        if (first) {
          first = false;
          started += 1;
          ttfes.push((now - t0) * 1000);
        }
        let count = 0;
        for (let at = chunk.indexOf(DELTA_MARKER); at !== -1; at = chunk.indexOf(DELTA_MARKER, at + 1)) count += 1;
        if (count > 0) {
          if (deltas > 0) gaps.push((now - lastDeltaAt) * 1000);
          for (let extra = deltas > 0 ? 1 : 0; extra < count; extra++) gaps.push(0);
          if (deltas === 0) firstDeltaAt = now;
          lastDeltaAt = now;
          deltas += count;
        }
      }
      if (response.statusCode !== 200) {
        failed = true;
        firstError ??= `HTTP ${response.statusCode}`;
      }
    } catch (error) {
      failed = true;
      if (!abort.signal.aborted) firstError ??= (error as Error).message;
    }
    delivered += deltas;
    if (failed) errors += 1;
    dropped += Math.max(0, plan.expectedDeltas - deltas);
    const expectedSpread = (plan.expectedDeltas - 1) * plan.upstreamGapMs;
    const isBuffered = expectedSpread >= 100 && deltas > 1 && lastDeltaAt - firstDeltaAt < expectedSpread * 0.5;
    if (isBuffered) buffered += 1;
    if (!failed && !isBuffered && deltas === plan.expectedDeltas) clean += 1;
  };

  const finished = (async () => {
    if (plan.sequential) {
      for (let index = 0; index < plan.streams && !abort.signal.aborted; index++) await one();
    } else {
      const all: Promise<void>[] = [];
      for (let index = 0; index < plan.streams; index++) {
        const at = (index * plan.rampMs) / plan.streams;
        const wait = at - (performance.now() - began);
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        if (abort.signal.aborted) break;
        all.push(one());
      }
      await Promise.all(all);
    }
    await agent.destroy().catch(() => undefined);
    ttfes.sort((a, b) => a - b);
    gaps.sort((a, b) => a - b);
    return {
      streams: plan.streams,
      clean,
      errors,
      droppedDeltas: dropped,
      buffered,
      ttfeP50Us: quantile(ttfes, 0.5),
      ttfeP99Us: quantile(ttfes, 0.99),
      gapP50Us: quantile(gaps, 0.5),
      gapP99Us: quantile(gaps, 0.99),
      gapMaxUs: gaps.length ? (gaps[gaps.length - 1] as number) : Number.NaN,
      deltasDelivered: delivered,
      wallMs: performance.now() - began,
      firstError,
    };
  })();

  return { started: () => started, finished, abort: () => abort.abort() };
}

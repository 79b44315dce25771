import type { ChannelHealthView } from './channel-health.ts';

/**
 * What an operator reads on a channel: one of a few words and why.
 * - `disabled`: an operator switched it off.
 * - `circuit open`: the breaker took it out of rotation (until the retry time, then a probe).
 * - `failing`: most recent requests, probes or manual tests failed, though the breaker has not
 *   opened yet (too few calls, or a lone failed test): a dead channel is never shown healthy.
 * - `degraded`: it serves, but some calls fail, or some of its upstream keys or models are out.
 * - `healthy`: recent calls succeeded.
 * - `untested`: nothing has gone through it yet (no traffic, probe or test).
 */
export type HealthStatus = 'healthy' | 'degraded' | 'failing' | 'disabled' | 'circuit open' | 'untested';

export interface HealthStatusView {
  status: HealthStatus;
  /** Why, in a sentence; null when healthy with nothing to add. */
  statusReason: string | null;
}

/** Below this success rate a channel is failing; below DEGRADED_BELOW it is degraded. */
const FAILING_BELOW = 0.5;
const DEGRADED_BELOW = 0.95;

/** The circuit a request for `model` meets on this channel: the channel's own, else that model's. */
export function circuitStateFor(view: ChannelHealthView, model: string): ChannelHealthView['state'] {
  if (view.state !== 'closed') return view.state;
  return view.models.find((entry) => entry.model === model)?.state ?? 'closed';
}

/** `servedModels`: the channel's models; when every one has its own circuit open, the channel is out. */
export function healthStatus(enabled: boolean, view: ChannelHealthView, now: number, servedModels: readonly string[] = []): HealthStatusView {
  if (!enabled) return { status: 'disabled', statusReason: 'disabled by an operator; no requests are routed to it' };
  if (view.state !== 'closed') {
    const until = view.retryAt === null ? '' : `; next probe ${describeWhen(view.retryAt, now)}`;
    return { status: 'circuit open', statusReason: `${view.reason ?? 'too many failures'}${until}` };
  }
  // A failure about one model opens that model's own circuit; the channel serves its other models,
  // unless every model it serves is out, which takes it out of rotation as surely as its own circuit.
  const modelsOut = view.models.filter((entry) => entry.state !== 'closed');
  const outNames = new Set(modelsOut.map((entry) => entry.model));
  if (servedModels.length > 0 && servedModels.every((model) => outNames.has(model))) {
    const first = modelsOut[0];
    const retryAt = Math.min(...modelsOut.map((entry) => entry.retryAt ?? Number.POSITIVE_INFINITY));
    const until = Number.isFinite(retryAt) ? `; next probe ${describeWhen(retryAt, now)}` : '';
    return { status: 'circuit open', statusReason: `every model is out (${first?.model}: ${first?.reason ?? 'too many failures'})${until}` };
  }
  const last = view.lastError === null ? '' : `; last error: ${describeLastError(view)}`;
  if (view.successRate !== null) {
    const percent = Math.round(view.successRate * 100);
    if (view.successRate < FAILING_BELOW) return { status: 'failing', statusReason: `${percent}% of recent calls succeeded${last}` };
    if (view.successRate < DEGRADED_BELOW) return { status: 'degraded', statusReason: `${percent}% of recent calls succeeded${last}` };
  } else if (view.lastError !== null && (view.lastSuccessAt === null || view.lastError.at > view.lastSuccessAt)) {
    // Nothing in the breaker's window: the last outcome known is a failure.
    return { status: 'failing', statusReason: `the last call failed ${describeWhen(view.lastError.at, now)}: ${describeLastError(view)}` };
  }
  const keysOut = view.keys.filter((key) => key.state !== 'closed');
  if (view.keys.length > 1 && keysOut.length > 0) {
    return {
      status: 'degraded',
      statusReason: `${keysOut.length} of ${view.keys.length} upstream keys out: ${keysOut[0]?.reason ?? 'failures'}`,
    };
  }
  if (modelsOut.length > 0) {
    const first = modelsOut[0];
    return {
      status: 'degraded',
      statusReason: `${modelsOut.length} model${modelsOut.length === 1 ? '' : 's'} out (${first?.model}: ${first?.reason ?? 'failures'})`,
    };
  }
  if (view.successRate === null && view.lastSuccessAt === null) {
    return { status: 'untested', statusReason: 'no request, probe or test has gone through it yet' };
  }
  return { status: 'healthy', statusReason: null };
}

function describeLastError(view: ChannelHealthView): string {
  const error = view.lastError;
  if (error === null) return '';
  return `${error.status === null ? '' : `${error.status} `}${error.code}: ${error.message}`.slice(0, 300);
}

function describeWhen(time: number, now: number): string {
  const seconds = Math.round((time - now) / 1000);
  if (seconds === 0) return 'now';
  return seconds > 0 ? `in ${seconds} s` : `${-seconds} s ago`;
}

import type { Dialect } from './dialect.ts';
import type { SimulatorFault } from './simulator-script.ts';
import type { StreamTail } from './stream-writer.ts';
import { truncateFrame } from './stream-writer.ts';
import type { TurnPlan } from './turn-plan.ts';

export interface FaultedStream {
  contentType: string;
  frames: readonly string[];
  binary?: boolean;
  cut: number;
  tail: StreamTail;
}

/**
 * Renders a streamed answer and decides where a mid-stream fault strikes. Faults that act
 * before the headers (status, hang, reset without afterChunks) never get here.
 */
export function planFaultedStream(dialect: Dialect, plan: TurnPlan, fault: SimulatorFault | undefined): FaultedStream {
  const omitTerminal = fault?.type === 'malformed' && fault.kind !== 'truncated-json';
  const { contentType, frames, binary } = dialect.renderStream(plan, { omitTerminal });
  const whole = { contentType, frames, cut: frames.length, ...(binary ? { binary } : {}) };
  if (fault === undefined) return { ...whole, tail: { kind: 'end' } };
  switch (fault.type) {
    case 'status':
    case 'hang':
      return { ...whole, tail: { kind: 'end' } };
    case 'reset':
      return { ...whole, cut: fault.afterChunks ?? 0, tail: { kind: 'reset' } };
    case 'stall':
      return { ...whole, cut: fault.afterChunks, tail: { kind: 'stall' } };
    case 'error-mid-stream': {
      const cut = Math.min(fault.afterChunks, frames.length);
      return { ...whole, cut, tail: { kind: 'end', extra: dialect.renderStreamError(plan, cut) } };
    }
    case 'malformed': {
      if (fault.kind !== 'truncated-json') return { ...whole, cut: fault.afterChunks ?? frames.length, tail: { kind: 'end' } };
      const cut = Math.min(fault.afterChunks ?? Math.floor(frames.length / 2), Math.max(0, frames.length - 1));
      return { ...whole, cut, tail: { kind: 'end', extra: truncateFrame(frames[cut] ?? '') } };
    }
    default: {
      const unreachable: never = fault;
      return unreachable;
    }
  }
}

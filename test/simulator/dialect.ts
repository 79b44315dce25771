import type { TurnPlan } from './turn-plan.ts';

export interface StreamRendering {
  contentType: string;
  frames: string[];
  /** Frames are binary (AWS event-stream), carried as latin1 strings. */
  binary?: boolean;
}

/** How one provider writes an answer on the wire. */
export interface Dialect {
  renderBody(plan: TurnPlan): unknown;
  /** `omitTerminal` leaves out what tells the client the stream is complete ([DONE], message_stop, …). */
  renderStream(plan: TurnPlan, options: { omitTerminal: boolean }): StreamRendering;
  /** The provider's own in-stream error event, written after `framesWritten` frames. */
  renderStreamError(plan: TurnPlan, framesWritten: number): string;
}

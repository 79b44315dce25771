/**
 * Why generation ended. Encoders map from `unified` only; `raw` is the upstream's own word,
 * kept for logs and for same-protocol fidelity, never copied into a foreign protocol.
 */
export type UnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface FinishReason {
  unified: UnifiedFinishReason;
  raw?: string;
  /** The stop sequence that ended generation, when the upstream says which. */
  stopSequence?: string;
}

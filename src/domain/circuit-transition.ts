/** A circuit that opened or closed on one instance, for the other instances to mirror and operators to hear of. */
export interface CircuitTransition {
  channelId: string;
  /** The upstream key's index, or null for the channel's own circuit. */
  keyIndex: number | null;
  /** The model's circuit on this channel, or null/absent for the channel's or a key's. */
  model?: string | null;
  state: 'open' | 'closed';
  retryAt: number;
  openedAt: number | null;
  reason: string | null;
}

/**
 * The two hooks of the relay's channel health that the layers beside it use: the cluster
 * shares transitions between instances, notifications tell operators. Declared here so those
 * layers depend on this shape, not on the relay.
 */
export interface CircuitFeed {
  /** Told each time a circuit opens or closes on this instance. */
  onTransition: ((transition: CircuitTransition) => void) | undefined;
  /** A transition decided on another instance. */
  applyRemote(transition: CircuitTransition): void;
}

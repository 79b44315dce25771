import { clientSetup as fullClientSetup } from '../domain/client-setup.ts';
import type { ClientKind } from '../domain/client-kinds.ts';
import type { ProtocolId } from '../protocols/protocol-codec.ts';

export { CLIENT_KINDS, isClientKind, type ClientKind } from '../domain/client-kinds.ts';

/** What `/api/diagnose` tells a key holder about one client kind (its `setup` field). */
export interface ClientSetup {
  protocol: ProtocolId;
  /** The address to enter in the client. */
  baseUrl: string;
  /** Where the key goes. */
  credential: string;
  /** The path prefix surface the client reaches, or null for the root surfaces. */
  surface: string | null;
  /** How to configure it, one sentence. */
  advice: string;
}

/**
 * The diagnose answer's view of the set-up the console also shows: both come from
 * `src/domain/client-setup.ts`, so the gateway and the console cannot teach different addresses.
 */
export function clientSetup(kind: ClientKind, origin: string, altPrefix: string, model: string): ClientSetup {
  const setup = fullClientSetup(kind, { root: origin, altPrefix, model });
  return { protocol: setup.protocol, baseUrl: setup.address, credential: setup.credential, surface: setup.surface, advice: setup.advice };
}

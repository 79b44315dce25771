import type { ProtocolId } from '../protocols/protocol-codec.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The client protocol of a route: errors on it are rendered in this protocol's shape. */
    protocol?: ProtocolId;
  }
}

export {};

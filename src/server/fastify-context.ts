import type { Caller } from '../access/authenticate-key.ts';
import type { ProtocolId } from '../protocols/protocol-codec.ts';
import type { AdminActor } from './admin/authorize-admin.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as received, for the passthrough lane. */
    rawBody?: string;
    /**
     * The key's holder once authenticated: on generation routes from the headers before the
     * body is read; on other key routes (model lists, stored responses) when they run.
     */
    caller?: Caller;
    /** Who is calling the admin API (a person's session, a minted token or the break-glass token), once authenticated. */
    adminActor?: AdminActor;
    /** The generation pipeline writes this request's access line (the response hook does not). */
    loggedByPipeline: boolean;
  }

  interface FastifyContextConfig {
    /** The client protocol of a route: errors on it are rendered in this protocol's shape. */
    protocol?: ProtocolId;
    /** A page a consumer reads (the account portal): error messages do not quote the request id (the `x-request-id` header has it). */
    consumerFacing?: boolean;
  }
}

export {};

import { GatewayError } from '../core/gateway-error.ts';

/**
 * The generation requests relaying right now (their one AbortController each), so that a drain
 * which runs out of time (DRAIN_TIMEOUT_MS) ends them the way any failed stream ends: the
 * upstream call is aborted, the stream closes with an error event in the client's own protocol
 * (not a bare cut of the connection), and what it delivered is billed and logged before the
 * process exits.
 */
export class OpenRequests {
  readonly #open = new Set<AbortController>();

  add(controller: AbortController): void {
    this.#open.add(controller);
  }

  delete(controller: AbortController): void {
    this.#open.delete(controller);
  }

  get size(): number {
    return this.#open.size;
  }

  /** Ends every open request with `gateway_shutting_down`; returns how many were ended. */
  cutAll(): number {
    const error = new GatewayError(
      'gateway_shutting_down',
      'This gateway instance is shutting down and ended the reply before it finished; what was delivered is billed. Retry the request: another instance serves it.',
    );
    const count = this.#open.size;
    for (const controller of this.#open) controller.abort(error);
    this.#open.clear();
    return count;
  }
}

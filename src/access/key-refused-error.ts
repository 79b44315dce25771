import { GatewayError } from '../core/gateway-error.ts';
import type { Caller } from './authenticate-key.ts';

/**
 * A refusal of a key the gateway knows (found by its hash) but will not serve now: disabled,
 * expired, its account disabled, or used from an address outside its fence. It carries the
 * caller so the refusal can be written to the usage log under that key — "my key stopped
 * working" is then answered on the Logs page. Unknown and missing keys stay plain
 * `GatewayError`s: anyone can send those, so they are only counted.
 */
export class KeyRefusedError extends GatewayError {
  readonly caller: Caller;

  constructor(refusal: GatewayError, caller: Caller) {
    super(refusal.code, refusal.message, { status: refusal.status });
    this.name = 'KeyRefusedError';
    this.caller = caller;
  }
}

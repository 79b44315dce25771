import { inputItems, replayedOutput } from './replay-items.ts';

/**
 * The last response of one WebSocket, kept in memory so the next `response.create` can continue
 * it with `previous_response_id` even under `store: false` (OpenAI's WebSocket mode does the
 * same: the socket holds the chain, nothing is written anywhere). Only the newest response is
 * kept, and only while its items fit in `maxBytes`; a socket therefore holds at most one
 * conversation's worth of items, whatever the client does.
 */
export class SocketResponseChain {
  #last: { id: string; items: unknown[] } | undefined;

  constructor(private readonly maxBytes: number) {}

  /** The id this socket can continue locally, if any. */
  get lastId(): string | undefined {
    return this.#last?.id;
  }

  /**
   * Keeps a finished response: the whole input it was given (already expanded) and its output.
   * A response too large to keep is forgotten, and continuing it falls back to the gateway's
   * stored turns (which answer "not found" for a `store: false` one).
   */
  remember(id: string, input: unknown[], response: Record<string, unknown> | null): void {
    const items = [...input, ...replayedOutput(response)];
    this.#last = JSON.stringify(items).length <= this.maxBytes ? { id, items } : undefined;
  }

  forget(): void {
    this.#last = undefined;
  }

  /**
   * The body with the socket's chain replayed into `input` when it continues the socket's last
   * response (`previous_response_id` removed, so any upstream can serve it); undefined when it
   * continues something else (a stored turn, or nothing).
   */
  expand(body: Record<string, unknown>): Record<string, unknown> | undefined {
    const last = this.#last;
    if (last === undefined || body.previous_response_id !== last.id) return undefined;
    const { previous_response_id: _continued, ...rest } = body;
    return { ...rest, input: [...last.items, ...inputItems(body.input)] };
  }
}

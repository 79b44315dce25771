import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import type { ResponsesServerEvent } from 'openai/resources/responses/responses';

type Json = Record<string, any>;

/** One turn's events as the official SDK's Responses WebSocket client received them. */
export interface SocketTurn {
  events: ResponsesServerEvent[];
  /** The `response.completed` event's response, if the turn completed. */
  response: Json | undefined;
  /** The `error` event, if the turn was refused. */
  error: Json | undefined;
}

/**
 * The openai SDK's Responses WebSocket (`ResponsesWS`) with a turn helper: send one
 * `response.create`, collect events until `response.completed`, `response.failed`,
 * `response.incomplete` or `error`.
 */
export class SdkResponsesSocket {
  readonly ws: ResponsesWS;
  #listeners = new Set<(event: ResponsesServerEvent) => void>();
  closed: { code: number; reason: string } | undefined;
  errors: Error[] = [];

  constructor(baseURL: string, apiKey: string) {
    this.ws = new ResponsesWS(new OpenAI({ baseURL, apiKey, maxRetries: 0 }));
    this.ws.on('event', (event) => {
      for (const listener of this.#listeners) listener(event);
    });
    this.ws.on('error', (error) => {
      this.errors.push(error);
      const event = (error as { error?: ResponsesServerEvent }).error;
      if (event) for (const listener of this.#listeners) listener(event);
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason };
    });
  }

  turn(body: Json, options: { onEvent?: (event: ResponsesServerEvent) => void; timeoutMs?: number } = {}): Promise<SocketTurn> {
    return new Promise((resolve, reject) => {
      const events: ResponsesServerEvent[] = [];
      const timer = setTimeout(() => {
        this.#listeners.delete(listener);
        reject(new Error(`no end of turn within the limit; got ${events.map((event) => event.type).join(', ')}`));
      }, options.timeoutMs ?? 10_000);
      const listener = (event: ResponsesServerEvent) => {
        events.push(event);
        options.onEvent?.(event);
        const type = event.type;
        if (type === 'response.completed' || type === 'response.failed' || type === 'response.incomplete' || type === 'error') {
          clearTimeout(timer);
          this.#listeners.delete(listener);
          resolve({
            events,
            response: type === 'error' ? undefined : ((event as Json).response as Json),
            error: type === 'error' ? (event as Json) : undefined,
          });
        }
      };
      this.#listeners.add(listener);
      this.ws.send({ type: 'response.create', ...body } as never);
    });
  }

  close(): void {
    this.ws.close({ code: 1000, reason: 'done' });
  }
}

export function outputText(response: Json | undefined): string {
  return (response?.output ?? [])
    .filter((item: Json) => item.type === 'message')
    .flatMap((item: Json) => item.content ?? [])
    .map((part: Json) => part.text ?? '')
    .join('');
}

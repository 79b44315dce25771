import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createNotifier, type Notifier } from '../../src/notify/notifier.ts';
import { startOutboxDispatcher, type OutboxDispatcher } from '../../src/notify/outbox-dispatcher.ts';
import { createNotificationSender, type Mailer, type SendNotification } from '../../src/notify/send-notification.ts';
import { createStore } from '../../src/store/create-store.ts';
import type { Store } from '../../src/store/store.ts';
import { TEST_SECRET } from '../store/store-harness.ts';

export interface ReceivedRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP receiver: records every request; `answer` decides each reply (default 200 `{}`). */
export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  answer: (request: ReceivedRequest) => { status: number; body: string };
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], answer: () => ({ status: 200, body: '{}' }), close: async () => {} };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://receiver');
      const entry = { path: url.pathname, query: url.searchParams, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.received.push(entry);
      const { status, body } = receiver.answer(entry);
      response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.UTC(2026, 10, 26, 9, 0, 0)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms), set: (time: number) => void (now = time) };
}

export interface NotifyRig {
  store: Store;
  path: string;
  notifier: Notifier;
  dispatcher: OutboxDispatcher;
  send: SendNotification;
  clock: ReturnType<typeof manualClock>;
  close(): Promise<void>;
}

/** A store in a fresh SQLite file with the notifier and a timer-less dispatcher on one manual clock. */
export async function startNotifyRig(
  options: { mailer?: Mailer; path?: string; clock?: ReturnType<typeof manualClock>; isLeader?: () => boolean } = {},
): Promise<NotifyRig> {
  const path = options.path ?? join(mkdtempSync(join(tmpdir(), 'switchyard-notify-')), 'store.db');
  const clock = options.clock ?? manualClock();
  const store = await createStore({ databaseUrl: `sqlite:${path}`, secretKey: TEST_SECRET, now: clock.now });
  const logger = pino({ level: 'silent' });
  const send = createNotificationSender({ now: clock.now, mailer: options.mailer, admins: store.admins });
  const dispatcher = startOutboxDispatcher({ store, send, now: clock.now, logger, isLeader: options.isLeader ?? (() => true), intervalMs: 0 });
  const notifier = createNotifier({ store, now: clock.now, logger });
  return {
    store,
    path,
    notifier,
    dispatcher,
    send,
    clock,
    async close() {
      await dispatcher.stop();
      await store.close();
    },
  };
}

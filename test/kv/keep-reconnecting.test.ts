import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { closeRedis } from '../../src/kv/close-redis.ts';
import { closeOnPurpose, keepReconnecting } from '../../src/kv/keep-reconnecting.ts';
import { openRedis } from '../../src/kv/open-redis.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { redisTestUrl } from '../scale/redis-test-support.ts';

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

/** Splits what a client sent into commands (RESP arrays of bulk strings); returns the unparsed rest. */
function parseCommands(buffer: string, onCommand: (args: string[]) => void): string {
  let rest = buffer;
  for (;;) {
    const match = /^\*(\d+)\r\n/.exec(rest);
    if (!match) return rest;
    let offset = match[0].length;
    const args: string[] = [];
    for (let index = 0; index < Number(match[1]); index += 1) {
      const header = /^\$(\d+)\r\n/.exec(rest.slice(offset));
      if (!header || rest.length < offset + header[0].length + Number(header[1]) + 2) return rest;
      offset += header[0].length;
      args.push(rest.slice(offset, offset + Number(header[1])));
      offset += Number(header[1]) + 2;
    }
    rest = rest.slice(offset);
    onCommand(args);
  }
}

/**
 * A sentinel that names the test Redis as the primary. `failOverDuringNextLookup` makes the next
 * lookup of the primary slow and announces a failover (+switch-master) while it is pending: what
 * real sentinels do when the replica is promoted while a client is reconnecting.
 */
async function fakeSentinel() {
  const target = new URL(redisTestUrl());
  const subscribers = new Set<Socket>();
  let failOverDuringNextLookup = false;
  const answer = (socket: Socket, args: string[]) => {
    const [command = '', sub = ''] = args.map((arg) => arg.toLowerCase());
    if (command === 'sentinel' && sub === 'get-master-addr-by-name') {
      const reply = `*2\r\n${bulk(target.hostname)}${bulk(target.port || '6379')}`;
      if (!failOverDuringNextLookup) return void socket.write(reply);
      failOverDuringNextLookup = false;
      for (const subscriber of subscribers) subscriber.write(`*3\r\n${bulk('message')}${bulk('+switch-master')}${bulk('test a b c d')}`);
      setTimeout(() => socket.writable && socket.write(reply), 300);
      return;
    }
    if (command === 'sentinel') return void socket.write('*0\r\n');
    if (command === 'subscribe') {
      subscribers.add(socket);
      return void socket.write(`*3\r\n${bulk('subscribe')}${bulk(args[1] ?? '')}:1\r\n`);
    }
    socket.write('+OK\r\n');
  };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let buffer = '';
    socket.on('data', (data) => {
      buffer = parseCommands(buffer + data.toString('utf8'), (args) => answer(socket, args));
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      subscribers.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    failOverDuringNextLookup: () => void (failOverDuringNextLookup = true),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test('a Sentinel connection that ioredis ends during a failover (a +switch-master while it asks a sentinel) connects again', async () => {
  const sentinel = await fakeSentinel();
  const redis = openRedis({ mode: 'sentinel', sentinels: [{ host: '127.0.0.1', port: sentinel.port }], name: 'test', tls: false }) as Redis;
  redis.on('error', () => {});
  const killer = new Redis(redisTestUrl(), { maxRetriesPerRequest: 0 });
  try {
    await waitFor(() => redis.status === 'ready', 'the connection is ready', 10_000);
    let ended = false;
    redis.on('end', () => {
      ended = true;
    });
    sentinel.failOverDuringNextLookup();
    // The primary's connection is lost (as when it is killed): ioredis reconnects, asking the sentinel.
    await killer.client('KILL', 'ID', String(await redis.client('ID')));
    await waitFor(() => ended, 'ioredis ends the connection (its failover detector interrupted the reconnection)', 10_000);
    await waitFor(() => redis.status === 'ready', 'the connection is ready again', 10_000);
    assert.equal(await redis.ping(), 'PONG');
  } finally {
    await closeRedis(redis);
    killer.disconnect();
    await sentinel.close();
  }
});

test('a connection closed on purpose is not restarted', async () => {
  let connects = 0;
  const connection = Object.assign(new EventEmitter(), {
    status: 'end',
    connect: async () => {
      connects += 1;
    },
  });
  keepReconnecting(connection as unknown as Redis, 5);
  connection.emit('end');
  await waitFor(() => connects === 1, 'an unwanted end is followed by a new connection');
  closeOnPurpose(connection);
  connection.emit('end');
  await delay(30);
  assert.equal(connects, 1, 'a wanted end is final');
});

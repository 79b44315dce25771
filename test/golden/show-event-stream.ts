// Prints a recorded ConverseStream reply (`upstream-response.eventstream`, AWS event-stream
// frames, binary) as one line per frame, for reading the golden files the diff cannot show:
// `node --import tsx test/golden/show-event-stream.ts test/golden/<pair>/<case>/upstream-response.eventstream`
import { readFileSync } from 'node:fs';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const path = process.argv[2];
if (path === undefined) {
  console.error('usage: show-event-stream.ts <upstream-response.eventstream>');
  process.exit(2);
}
let bytes = new Uint8Array(readFileSync(path));
while (bytes.length > 0) {
  const total = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  const message = codec.decode(bytes.subarray(0, total));
  const headers = Object.fromEntries(Object.entries(message.headers).map(([name, header]) => [name, header.value]));
  const kind =
    headers[':message-type'] === 'event' ? headers[':event-type'] : `${headers[':message-type']}:${headers[':exception-type'] ?? headers[':error-code']}`;
  console.log(`${String(kind)} ${toUtf8(message.body)}`);
  bytes = bytes.subarray(total);
}

// Runs the provider simulator standalone: `node --import tsx test/simulator/main.ts --port 9999`.
import { parseArgs } from 'node:util';
import { startProviderSimulator } from './provider-simulator.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'expected-key': { type: 'string' },
    'delay-ms': { type: 'string' },
    'chunk-delay-ms': { type: 'string' },
    text: { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be an integer between 0 and 65535, got ${values.port}`);
  process.exit(2);
}

// Requests are recorded for tests; a long benchmark run must not grow memory without bound.
const simulator = await startProviderSimulator({
  port,
  host: values.host,
  expectedKey: values['expected-key'],
  maxRecorded: 1_000,
});
simulator.setDefault({
  ...(values.text === undefined ? {} : { text: values.text }),
  ...(values['delay-ms'] === undefined ? {} : { delayMs: Number(values['delay-ms']) }),
  ...(values['chunk-delay-ms'] === undefined ? {} : { chunkDelayMs: Number(values['chunk-delay-ms']) }),
});
console.log(simulator.url);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void simulator.close().then(() => process.exit(0));
  });
}

// `node dist/main.js`: the gateway's process (src/startup/run-switchyard.ts). V8's young generation
// is held at its initial size before anything else loads (hold-young-generation.ts says why); the
// rest is imported dynamically because static imports are all read, compiled and evaluated before
// this module's body runs, and start-up's first scavenges come then.
import { holdYoungGeneration } from './startup/hold-young-generation.ts';

holdYoungGeneration();
const { runSwitchyard } = await import('./startup/run-switchyard.ts');
await runSwitchyard();

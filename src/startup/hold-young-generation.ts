import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at its initial size (1 MB semi-spaces) while the gateway starts,
 * and lets it grow again once it serves. `main.ts` holds it before it loads the rest of the
 * gateway: with static imports, every module would be read, compiled and linked (the first
 * scavenges, and the growth, come then) before main's own body ran.
 *
 * Why: nearly everything start-up allocates (modules' closures, schemas, tables, the snapshot)
 * lives as long as the process. V8 grows the young generation whenever a scavenge's survivors
 * exceed its size, so start-up alone drove it to its 32 MB maximum, committed and resident, and
 * only V8's memory reducer gave it back, some seconds or minutes after the process went idle
 * (idle RSS 129–147 MB against a 100 MB target; BENCHMARKS.md, "Idle RSS"). Held small, those
 * objects are promoted to the old generation, where they belonged, after two scavenges.
 * Requests' objects are short-lived; under load the young generation grows to its maximum as
 * before (survivors exceed its size after a few scavenges), so request CPU is unchanged.
 *
 * `--semi-space-growth-factor` is read by V8 each time it grows the young generation, so
 * changing it at run time takes effect at the next growth. An operator who sets it (in
 * NODE_OPTIONS or on the command line) keeps their value throughout.
 */
const V8_DEFAULT_GROWTH_FACTOR = 2;
const operatorSetsGrowth = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((flag) => flag.includes('semi-space-growth-factor'));

/** Before the gateway's modules load: the young generation stays at its initial size. */
export function holdYoungGeneration(): void {
  if (!operatorSetsGrowth) setFlagsFromString('--semi-space-growth-factor=1');
}

/** Start-up is over: the young generation grows with load again (V8's default factor). */
export function releaseYoungGeneration(): void {
  if (!operatorSetsGrowth) setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH_FACTOR}`);
}

import type { BenchResults } from './bench-results.ts';
import { median } from './latency-probe.ts';
import { maxRpsUnder, type LoadSample } from './scenarios.ts';
import { renderDetails } from './report-details.ts';
import { soakIsFlat } from './soak-flatness.ts';

const TRANSLATED = ['sy-oa-an', 'sy-an-oa', 'sy-gm-oa'];

export const us = (value: number): string =>
  !Number.isFinite(value) ? '—' : Math.abs(value) >= 1000 ? `${(value / 1000).toFixed(2)} ms` : `${Math.round(value)} µs`;
export const signedUs = (value: number): string => (!Number.isFinite(value) ? '—' : `${value >= 0 ? '+' : '−'}${us(Math.abs(value))}`);
export const num = (value: number, digits = 0): string => (!Number.isFinite(value) ? '—' : value.toFixed(digits));
const verdict = (ok: boolean | undefined): string => (ok === undefined ? 'not measured' : ok ? '**met**' : '**not met**');

/** Median over rounds of (target − direct), paired by round so drift between rounds cancels. */
export function addedOverDirect(results: BenchResults, id: string, pick: (sample: any) => number, series: keyof BenchResults): number {
  const own = (results[series] as Record<string, unknown[]>)[id] ?? [];
  const direct = (results[series] as Record<string, unknown[]>).direct ?? [];
  return median(own.map((sample, round) => pick(sample) - (direct[round] === undefined ? Number.NaN : pick(direct[round]))));
}

export function maxRps(results: BenchResults, id: string, boundMs: number): number {
  return median((results.ladder[id] ?? []).map((round) => maxRpsUnder(new Map(Object.entries(round).map(([c, s]) => [Number(c), s as LoadSample])), boundMs)));
}

export function cpuPerRequest(results: BenchResults, id: string, c = results.config.cpuConcurrency): number {
  return median((results.ladder[id] ?? []).map((round) => round[c]?.cpuUsPerRequest ?? Number.NaN));
}

export function cpuPerChunk(results: BenchResults, id: string): number {
  return median((results.chunkCpu[id] ?? []).map((sample) => sample.cpuUsPerChunk));
}

function streamsSustained(results: BenchResults, id: string): number {
  let best = 0;
  for (const [streams, summary] of Object.entries(results.streamLadder[id] ?? {})) {
    if (summary.clean === summary.streams && summary.gapP99Us < 200_000) best = Math.max(best, Number(streams));
  }
  return best;
}

/**
 * MiB per 1,000 open streams: the slope between the two largest stream counts when there are
 * two (the RSS before the first step includes heap from earlier load that GC may give back
 * mid-step), else RSS with streams minus RSS just before.
 */
export function rssPerThousand(results: BenchResults, id: string): number {
  const samples = (results.memory[id] ?? []).filter((sample) => sample.opened > 0).sort((a, b) => b.opened - a.opened);
  const [largest, next] = samples;
  if (!largest) return Number.NaN;
  if (next && largest.opened > next.opened) return ((largest.rssMiB - next.rssMiB) / (largest.opened - next.opened)) * 1000;
  return largest.perThousandMiB;
}

export function renderReport(results: BenchResults): string {
  const has = (id: string) => (results.latencyAtOne[id] ?? []).length > 0;
  const peer = has('portkey') ? 'portkey' : undefined;
  const lines: string[] = [];
  const m = results.machine;
  lines.push(`# Switchyard benchmark — ${results.startedAt.slice(0, 10)}${results.config.smoke ? ' (SMOKE: harness check only, figures meaningless)' : ''}`);
  lines.push('');
  lines.push(
    `Machine: ${m.nproc} CPUs (${m.cpuModel}), Node ${m.node}, Linux ${m.kernel}, open files ${m.nofile}. ` +
      `Niceness ${m.nice ?? 'not recorded'}. Pinning: ${m.pinned ? `gateways on CPU 1 (\`taskset -c 1\`), upstream + load generator on CPU 0` : 'none'}. ` +
      `Command: \`${results.command}\`; ${results.config.rounds} interleaved round(s), medians; took ${Math.round(results.durationS)} s. ` +
      `Load average at start ${results.loadavg.start.split(' ').slice(0, 3).join(' ')}, at end ${results.loadavg.end.split(' ').slice(0, 3).join(' ')} (anything above ~2 means other work shared the box).`,
  );
  lines.push('');

  const addedP50 = (id: string) => addedOverDirect(results, id, (s) => s.p50Us, 'latencyAtOne');
  const addedP99 = (id: string) => addedOverDirect(results, id, (s) => s.p99Us, 'latencyAtOne');
  const directLat = results.latencyAtOne.direct ?? [];
  const BOUND = 20;
  const proxyRps = maxRps(results, 'proxy', BOUND);
  const syRps = maxRps(results, 'switchyard', BOUND);
  const translatedRps = TRANSLATED.filter(has).map((id) => ({ id, rps: maxRps(results, id, BOUND) }));
  const worstTranslated = translatedRps.sort((a, b) => a.rps - b.rps)[0];
  const ttfe = (id: string) => addedOverDirect(results, id, (s) => s.ttfeP50Us, 'ttfe');
  const gap = (id: string) => addedOverDirect(results, id, (s) => s.gapP99Us, 'gaps');
  const chunkTranslated = TRANSLATED.filter(has)
    .map((id) => ({ id, cpu: cpuPerChunk(results, id) }))
    .sort((a, b) => b.cpu - a.cpu)[0];
  const syChunk = cpuPerChunk(results, 'switchyard');
  const idleSy = results.idleRssMiB.switchyard ?? Number.NaN;
  const cpuAt = (id: string, c: number) => cpuPerRequest(results, id, c);
  const cpuSteps = [...new Set([results.config.cpuConcurrency, 64])].filter((c) => results.config.ladder.includes(c));
  const cpuRatios = cpuSteps.map((c) => cpuAt('switchyard', c) / cpuAt('proxy', c));
  const MB = 1.048576; // MiB → MB

  lines.push('## Summary');
  lines.push('');
  lines.push('Targets of issue 18; ratios are within this run (gateways pinned to one core, every feature on).');
  lines.push('');
  lines.push('| figure | Switchyard | minimal proxy | direct | peer (Portkey) | target | verdict |');
  lines.push('|---|---|---|---|---|---|---|');
  lines.push(
    `| CPU µs per request, passthrough, ${cpuSteps.map((c) => `c=${c}`).join(' / ')} (ratio to the proxy) | ${cpuSteps.map((c, i) => `${us(cpuAt('switchyard', c))} (${num(cpuRatios[i] as number, 2)}×)`).join(' / ')} | ${cpuSteps.map((c) => us(cpuAt('proxy', c))).join(' / ')} | — | ${peer ? cpuSteps.map((c) => us(cpuAt(peer, c))).join(' / ') : '—'} | ≤ 1.5 × the proxy | ${verdict(has('switchyard') && cpuRatios.every(Number.isFinite) ? cpuRatios.every((r) => r <= 1.5) : undefined)} |`,
  );
  lines.push(
    `| max RPS at p99 < ${BOUND} ms, one pinned core (ratio to the proxy), passthrough; translated worst | ${num(syRps)} (${num(syRps / proxyRps, 2)}); ${worstTranslated ? `${num(worstTranslated.rps)} (${num(worstTranslated.rps / proxyRps, 2)}, ${worstTranslated.id})` : '—'} | ${num(proxyRps)} (1.00) | ${num(maxRps(results, 'direct', BOUND))} | ${peer ? `${num(maxRps(results, peer, BOUND))} (${num(maxRps(results, peer, BOUND) / proxyRps, 2)})` : '—'} | ≥ 0.7 / ≥ 0.55 | ${verdict(has('switchyard') ? syRps / proxyRps >= 0.7 && (!worstTranslated || worstTranslated.rps / proxyRps >= 0.55) : undefined)} |`,
  );
  lines.push(
    `| throughput at tail bounds (p99 < 1, 5, 10, 20, 50 ms) | ${[1, 5, 10, 20, 50].map((b) => num(maxRps(results, 'switchyard', b))).join(' / ')} | ${[1, 5, 10, 20, 50].map((b) => num(maxRps(results, 'proxy', b))).join(' / ')} | ${[1, 5, 10, 20, 50].map((b) => num(maxRps(results, 'direct', b))).join(' / ')} | ${peer ? [1, 5, 10, 20, 50].map((b) => num(maxRps(results, peer, b))).join(' / ') : '—'} | reported (every system: "Throughput frontier" below) | reported |`,
  );
  lines.push(
    `| added latency at c=1, non-streamed, over direct (p50 / p99) | ${signedUs(addedP50('switchyard'))} / ${signedUs(addedP99('switchyard'))} | ${signedUs(addedP50('proxy'))} / ${signedUs(addedP99('proxy'))} | ${us(median(directLat.map((s) => s.p50Us)))} / ${us(median(directLat.map((s) => s.p99Us)))} (absolute) | ${peer ? `${signedUs(addedP50(peer))} / ${signedUs(addedP99(peer))}` : '—'} | ≤ 0.3 ms / ≤ 1 ms | ${verdict(has('switchyard') ? addedP50('switchyard') <= 300 && addedP99('switchyard') <= 1000 : undefined)} |`,
  );
  lines.push(
    `| added time to first streamed event at c=1 (p50) | ${signedUs(ttfe('switchyard'))} | ${signedUs(ttfe('proxy'))} | ${us(median((results.ttfe.direct ?? []).map((s) => s.ttfeP50Us)))} (absolute) | ${peer ? signedUs(ttfe(peer)) : '—'} | ≤ 0.5 ms | ${verdict(has('switchyard') ? ttfe('switchyard') <= 500 : undefined)} |`,
  );
  lines.push(
    `| RSS per 1,000 open streams (profile C; slope between the two largest N) | ${num(rssPerThousand(results, 'switchyard') * MB, 1)} MB | ${num(rssPerThousand(results, 'proxy') * MB, 1)} MB | — | ${peer ? `${num(rssPerThousand(results, peer) * MB, 1)} MB` : '—'} | ≤ 40 MB | ${verdict(Number.isFinite(rssPerThousand(results, 'switchyard')) ? rssPerThousand(results, 'switchyard') * MB <= 40 : undefined)} |`,
  );
  const soakResult = results.soak;
  const flat = soakResult ? soakIsFlat(soakResult) : undefined;
  const backNearIdle = soakResult ? soakResult.rssAfterIdleMiB <= idleSy * 1.25 : undefined;
  lines.push(
    `| idle RSS (cold); 10-min soak at 50 % of max load: RSS trend after warm-up (median of the last third of the slices over the first third; sawtooth swing), RSS ${results.config.soakIdleS} s after | ${num(idleSy * MB)} MB; ${soakResult && flat ? `${soakResult.minutes} min at ${soakResult.rate} RPS: trend ${flat.trend >= 0 ? '+' : ''}${num(flat.trend * 100, 1)} % (swing ${num(flat.swing * 100)} %, largest slice over the first ${flat.spread >= 0 ? '+' : ''}${num(flat.spread * 100, 1)} %), ${num(soakResult.rssAfterIdleMiB)} MiB after, ${soakResult.errors} errors` : 'soak not run'} | ${num((results.idleRssMiB['minimal-proxy'] ?? Number.NaN) * MB)} MB | — | ${peer ? `${num((results.idleRssMiB.portkey ?? Number.NaN) * MB)} MB` : '—'} | ≤ 90 MB; no growth beyond 10 % and back near idle (≤ 1.25 × idle) | idle ${verdict(Number.isFinite(idleSy) ? idleSy * MB <= 90 : undefined)}; soak ${verdict(flat && backNearIdle !== undefined ? flat.flat && backNearIdle : undefined)} |`,
  );
  const box = results.wholeBox;
  const boxClean = box?.summary ? box.summary.clean === box.streams && box.summary.droppedDeltas === 0 : undefined;
  lines.push(
    `| ${box?.streams ?? 10000} concurrent streams on the whole box (WORKERS=2 + Redis, unpinned) | ${box && !box.skipped ? `${box.summary?.clean ?? 0} clean of ${box.streams}, ${box.summary?.droppedDeltas ?? 0} deltas dropped, ${box.summary?.errors ?? 0} errors; RSS ${num(box.rssIdleMiB)} → ${num(box.rssPeakMiB)} MiB (2 workers + primary); TTFE p99 ${us(box.summary?.ttfeP99Us ?? Number.NaN)}` : results.workers} | — | — | — | zero dropped frames | ${verdict(boxClean)} |`,
  );
  const peerRps = peer ? maxRps(results, peer, BOUND) : Number.NaN;
  const p99Lower = peer ? results.config.ladder.map((c) => ladderP99(results, 'switchyard', c) < ladderP99(results, peer, c)) : [];
  const peerP99 = peer ? median((results.latencyAtOne[peer] ?? []).map((s) => s.p99Us)) : Number.NaN;
  const syP99 = median((results.latencyAtOne.switchyard ?? []).map((s) => s.p99Us));
  lines.push(
    `| versus the peer in the same run (RPS ratio at p99 < ${BOUND} ms; p99 lower at each concurrency c=1, ${results.config.ladder.join(', ')}) | ${num(syRps / peerRps, 2)}×; lower at ${(syP99 < peerP99 ? 1 : 0) + p99Lower.filter(Boolean).length} of ${p99Lower.length + 1} | — | — | 1× | ≥ 3 × its RPS, lower p99 at every concurrency | ${verdict(peer && has('switchyard') ? syRps / peerRps >= 3 && syP99 < peerP99 && p99Lower.every(Boolean) : undefined)} |`,
  );
  lines.push('');
  lines.push('Figures kept from the first target set (issue 9):');
  lines.push('');
  lines.push('| figure | Switchyard | minimal proxy | direct | peer (Portkey) | target | verdict |');
  lines.push('|---|---|---|---|---|---|---|');
  lines.push(
    `| added inter-chunk gap p99 (profile A) | ${signedUs(gap('switchyard'))} | ${signedUs(gap('proxy'))} | ${us(median((results.gaps.direct ?? []).map((s) => s.gapP99Us)))} (absolute) | ${peer ? signedUs(gap(peer)) : '—'} | ≤ 0.2 ms | ${verdict(has('switchyard') ? gap('switchyard') <= 200 : undefined)} |`,
  );
  lines.push(
    `| CPU µs per streamed chunk, passthrough / translated (profile B) | ${us(syChunk)} / ${chunkTranslated ? `${us(chunkTranslated.cpu)} (${num(chunkTranslated.cpu / syChunk, 2)}×, ${chunkTranslated.id})` : '—'} | ${us(cpuPerChunk(results, 'proxy'))} | — | ${peer ? us(cpuPerChunk(results, peer)) : '—'} | ≤ 20 µs / ≤ 1.3× | ${verdict(has('switchyard') ? syChunk <= 20 && (!chunkTranslated || chunkTranslated.cpu / syChunk <= 1.3) : undefined)} |`,
  );
  lines.push(
    `| concurrent streams with zero dropped frames (profile A, ladder ${results.config.streamLadder.join('/')}) | ${num(streamsSustained(results, 'switchyard'))} | ${num(streamsSustained(results, 'proxy'))} | ${num(streamsSustained(results, 'direct'))} | ${peer ? num(streamsSustained(results, peer)) : '—'} | ≥ 2,000 on one core | ${verdict(has('switchyard') ? streamsSustained(results, 'switchyard') >= 2000 : undefined)} |`,
  );
  lines.push('');
  lines.push(...renderNoise(results));
  lines.push('');
  if (results.serverTiming) {
    const show = (phases: Record<string, number>) =>
      Object.entries(phases)
        .map(([phase, ms]) => `${phase} ${us(ms * 1000)}`)
        .join(', ');
    lines.push(
      `Where Switchyard's time goes (\`Server-Timing\`, asked for with \`X-Switchyard-Timing\`, median of sequential requests at c=1): non-streamed: ${show(results.serverTiming.plain)}; stream (profile B): ${show(results.serverTiming.stream)}. \`upstream\` and \`first-chunk\` are mostly the upstream's; \`total\` minus them is the gateway's own time between reading the request and writing the reply headers (body parsing and Fastify's routing come before it).`,
    );
  }
  if (results.overheadHeader) lines.push(`A reply to a caller who did not ask carried \`Server-Timing: ${results.overheadHeader}\`.`);
  lines.push('');
  lines.push(...renderDetails(results));
  return lines.join('\n');
}

function ladderP99(results: BenchResults, id: string, c: number): number {
  return median((results.ladder[id] ?? []).map((round) => round[c]?.p99Ms ?? Number.NaN));
}

/** How noisy the box was: load average per phase, c=1 rounds taken again, other work on the gateway core. */
function renderNoise(results: BenchResults): string[] {
  const lines: string[] = ['### Noise', ''];
  const phases = results.phases ?? [];
  if (phases.length)
    lines.push(`Load average (1 min) when each phase began: ${phases.map((p) => `${p.phase.replace(/ \d[\d, ]*$/, '')} ${p.load1.toFixed(2)}`).join('; ')}.`);
  const proxyAdded = (results.latencyAtOne.proxy ?? []).map((s, round) => s.p50Us - (results.latencyAtOne.direct?.[round]?.p50Us ?? Number.NaN));
  lines.push(`Minimal proxy's own added p50 at c=1 per round (quiet box: ~160 µs): ${proxyAdded.map((v) => us(v)).join(', ') || '—'}.`);
  const repeats = results.latencyRepeats ?? [];
  if (repeats.length)
    lines.push(
      `c=1 rounds taken again because the proxy's added p50 was over 3 × its quiet value: ${repeats.map((r) => `round ${r.round} ${us(r.proxyAddedP50Us)}${r.kept ? ' (kept)' : ''}`).join(', ')}.`,
    );
  const others = Object.values(results.ladder.switchyard ?? []).flatMap((round) => Object.values(round).map((s) => s.othersOnGatewayCore));
  if (others.length)
    lines.push(
      `Other processes took a median ${num(median(others) * 100)} % (max ${num(Math.max(...others) * 100)} %) of the gateway's core during Switchyard's ladder steps.`,
    );
  lines.push('');
  return lines;
}

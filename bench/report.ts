import type { BenchResults } from './bench-results.ts';
import { median } from './latency-probe.ts';
import { maxRpsUnder, type LoadSample } from './scenarios.ts';
import { renderDetails } from './report-details.ts';

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

export function cpuPerRequest(results: BenchResults, id: string): number {
  const c = results.config.cpuConcurrency;
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
  lines.push(`Machine: ${m.nproc} CPUs (${m.cpuModel}), Node ${m.node}, Linux ${m.kernel}, open files ${m.nofile}. ` +
    `Niceness ${m.nice ?? 'not recorded'}. Pinning: ${m.pinned ? `gateways on CPU 1 (\`taskset -c 1\`), upstream + load generator on CPU 0` : 'none'}. ` +
    `Command: \`${results.command}\`; ${results.config.rounds} interleaved round(s), medians; took ${Math.round(results.durationS)} s. ` +
    `Load average at start ${results.loadavg.start.split(' ').slice(0, 3).join(' ')}, at end ${results.loadavg.end.split(' ').slice(0, 3).join(' ')} (anything above ~2 means other work shared the box).`);
  lines.push('');

  const addedP50 = (id: string) => addedOverDirect(results, id, (s) => s.p50Us, 'latencyAtOne');
  const addedP99 = (id: string) => addedOverDirect(results, id, (s) => s.p99Us, 'latencyAtOne');
  const directLat = results.latencyAtOne.direct ?? [];
  const proxyRps = maxRps(results, 'proxy', 10);
  const syRps = maxRps(results, 'switchyard', 10);
  const translatedRps = TRANSLATED.filter(has).map((id) => ({ id, rps: maxRps(results, id, 10) }));
  const worstTranslated = translatedRps.sort((a, b) => a.rps - b.rps)[0];
  const ttfe = (id: string) => addedOverDirect(results, id, (s) => s.ttfeP50Us, 'ttfe');
  const gap = (id: string) => addedOverDirect(results, id, (s) => s.gapP99Us, 'gaps');
  const chunkTranslated = TRANSLATED.filter(has).map((id) => ({ id, cpu: cpuPerChunk(results, id) })).sort((a, b) => b.cpu - a.cpu)[0];
  const syChunk = cpuPerChunk(results, 'switchyard');
  const idleSy = results.idleRssMiB.switchyard ?? Number.NaN;

  lines.push('## Summary');
  lines.push('');
  lines.push('| figure | Switchyard | minimal proxy | direct | peer (Portkey) | target | verdict |');
  lines.push('|---|---|---|---|---|---|---|');
  lines.push(`| added latency at c=1, non-streamed, over direct (p50 / p99) | ${signedUs(addedP50('switchyard'))} / ${signedUs(addedP99('switchyard'))} | ${signedUs(addedP50('proxy'))} / ${signedUs(addedP99('proxy'))} | ${us(median(directLat.map((s) => s.p50Us)))} / ${us(median(directLat.map((s) => s.p99Us)))} (absolute) | ${peer ? `${signedUs(addedP50(peer))} / ${signedUs(addedP99(peer))}` : '—'} | ≤ 0.3 ms / ≤ 2 ms | ${verdict(has('switchyard') ? addedP50('switchyard') <= 300 && addedP99('switchyard') <= 2000 : undefined)} |`);
  lines.push(`| max RPS at p99 < 10 ms, one pinned core (ratio to minimal proxy) | ${num(syRps)} (${num(syRps / proxyRps, 2)}); translated worst ${worstTranslated ? `${num(worstTranslated.rps)} (${num(worstTranslated.rps / proxyRps, 2)}, ${worstTranslated.id})` : '—'} | ${num(proxyRps)} (1.00) | ${num(maxRps(results, 'direct', 10))} | ${peer ? `${num(maxRps(results, peer, 10))} (${num(maxRps(results, peer, 10) / proxyRps, 2)})` : '—'} | ≥ 0.7 passthrough, ≥ 0.55 translated | ${verdict(has('switchyard') ? syRps / proxyRps >= 0.7 && (!worstTranslated || worstTranslated.rps / proxyRps >= 0.55) : undefined)} |`);
  lines.push(`| CPU µs per request at c=${results.config.cpuConcurrency} | ${us(cpuPerRequest(results, 'switchyard'))} | ${us(cpuPerRequest(results, 'proxy'))} | — | ${peer ? us(cpuPerRequest(results, peer)) : '—'} | ≤ 200 µs | ${verdict(has('switchyard') ? cpuPerRequest(results, 'switchyard') <= 200 : undefined)} |`);
  lines.push(`| added time to first streamed event at c=1 (p50) | ${signedUs(ttfe('switchyard'))} | ${signedUs(ttfe('proxy'))} | ${us(median((results.ttfe.direct ?? []).map((s) => s.ttfeP50Us)))} (absolute) | ${peer ? signedUs(ttfe(peer)) : '—'} | ≤ 0.5 ms | ${verdict(has('switchyard') ? ttfe('switchyard') <= 500 : undefined)} |`);
  lines.push(`| added inter-chunk gap p99 (profile A) | ${signedUs(gap('switchyard'))} | ${signedUs(gap('proxy'))} | ${us(median((results.gaps.direct ?? []).map((s) => s.gapP99Us)))} (absolute) | ${peer ? signedUs(gap(peer)) : '—'} | ≤ 0.2 ms | ${verdict(has('switchyard') ? gap('switchyard') <= 200 : undefined)} |`);
  lines.push(`| CPU µs per streamed chunk, passthrough / translated (profile B) | ${us(syChunk)} / ${chunkTranslated ? `${us(chunkTranslated.cpu)} (${num(chunkTranslated.cpu / syChunk, 2)}×, ${chunkTranslated.id})` : '—'} | ${us(cpuPerChunk(results, 'proxy'))} | — | ${peer ? us(cpuPerChunk(results, peer)) : '—'} | ≤ 20 µs / ≤ 1.3× | ${verdict(has('switchyard') ? syChunk <= 20 && (!chunkTranslated || chunkTranslated.cpu / syChunk <= 1.3) : undefined)} |`);
  lines.push(`| concurrent streams with zero dropped frames (profile A, ladder ${results.config.streamLadder.join('/')}) | ${num(streamsSustained(results, 'switchyard'))} | ${num(streamsSustained(results, 'proxy'))} | ${num(streamsSustained(results, 'direct'))} | ${peer ? num(streamsSustained(results, peer)) : '—'} | ≥ 2,000 on one core | ${verdict(has('switchyard') ? streamsSustained(results, 'switchyard') >= 2000 : undefined)} |`);
  lines.push(`| RSS per 1,000 open streams (profile C; slope between the two largest N) | ${num(rssPerThousand(results, 'switchyard'), 1)} MiB | ${num(rssPerThousand(results, 'proxy'), 1)} MiB | — | ${peer ? `${num(rssPerThousand(results, peer), 1)} MiB` : '—'} | ≤ 40 MB | ${verdict(Number.isFinite(rssPerThousand(results, 'switchyard')) ? rssPerThousand(results, 'switchyard') <= 40 : undefined)} |`);
  lines.push(`| idle RSS (cold); RSS after the run | ${num(idleSy)} MiB; ${num(results.rssAfterLoadMiB.switchyard ?? Number.NaN)} MiB | ${num(results.idleRssMiB['minimal-proxy'] ?? Number.NaN)} MiB; ${num(results.rssAfterLoadMiB['minimal-proxy'] ?? Number.NaN)} MiB | — | ${peer ? `${num(results.idleRssMiB.portkey ?? Number.NaN)} MiB; ${num(results.rssAfterLoadMiB.portkey ?? Number.NaN)} MiB` : '—'} | ≤ 80 MB; no growth over a 10-min soak | idle ${verdict(Number.isFinite(idleSy) ? idleSy <= 80 : undefined)}; soak not run |`);
  lines.push(`| 10,000 concurrent streams on the whole box (2 workers) | ${results.workers} | — | — | — | zero drops | not measured |`);
  const peerRps = peer ? maxRps(results, peer, 10) : Number.NaN;
  const peerP99 = peer ? median((results.latencyAtOne[peer] ?? []).map((s) => s.p99Us)) : Number.NaN;
  const syP99 = median((results.latencyAtOne.switchyard ?? []).map((s) => s.p99Us));
  lines.push(`| versus the peer in the same run (RPS ratio; p99 at c=1) | ${num(syRps / peerRps, 2)}×; ${us(syP99)} | — | — | 1×; ${us(peerP99)} | ≥ 2× its RPS, lower p99 | ${verdict(peer && has('switchyard') ? syRps / peerRps >= 2 && syP99 < peerP99 : undefined)} |`);
  lines.push('');
  if (results.overheadHeader) lines.push(`The gateway reports its own time per request: \`${results.overheadHeader}\`.`);
  else lines.push('The gateway sends no `Server-Timing` / overhead header yet, so its internal time cannot be checked against the wire delta.');
  lines.push('');
  lines.push(...renderDetails(results));
  return lines.join('\n');
}

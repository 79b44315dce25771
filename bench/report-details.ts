import type { BenchResults } from './bench-results.ts';
import { median } from './latency-probe.ts';
import { addedOverDirect, cpuPerChunk, maxRps, num, rssPerThousand, signedUs, us } from './report.ts';

/** The per-scenario tables under the summary. */
export function renderDetails(results: BenchResults): string[] {
  const lines: string[] = [];
  const label = (id: string) => results.labels[id] ?? id;
  const ids = Object.keys(results.latencyAtOne);
  const med = <T>(samples: T[] | undefined, pick: (sample: T) => number) => median((samples ?? []).map(pick));

  lines.push(`## Upstream`);
  lines.push('');
  const ceiling = results.upstreamCeiling;
  lines.push(
    ceiling
      ? `Bench upstream (bench/bench-upstream.ts) alone on one core, c=64: **${num(ceiling.rps)} RPS**, p99 ${ceiling.p99Ms} ms — the ceiling every other figure sits under. In the runs below it shares CPU 0 with the load generator.`
      : 'Upstream ceiling not measured.',
  );
  lines.push('');

  lines.push('## Non-streamed, concurrency 1 (1.4 KB reply, 0.2 KB request, 0 ms upstream)');
  lines.push('');
  lines.push('| target | p50 | p99 | added p50 | added p99 | requests per round | errors |');
  lines.push('|---|---|---|---|---|---|---|');
  for (const id of ids) {
    const samples = results.latencyAtOne[id];
    lines.push(
      `| ${label(id)} | ${us(med(samples, (s) => s.p50Us))} | ${us(med(samples, (s) => s.p99Us))} | ${id === 'direct' ? '—' : signedUs(addedOverDirect(results, id, (s) => s.p50Us, 'latencyAtOne'))} | ${id === 'direct' ? '—' : signedUs(addedOverDirect(results, id, (s) => s.p99Us, 'latencyAtOne'))} | ${num(med(samples, (s) => s.requests))} | ${(samples ?? []).reduce((sum, s) => sum + s.errors, 0)} |`,
    );
  }
  lines.push('');

  lines.push(`## Concurrency ladder (closed loop, autocannon -p 1, ${results.config.ladderStepS} s per step; RPS / p99 ms / CPU µs per request, medians)`);
  lines.push('');
  const ladder = results.config.ladder;
  lines.push(`| target | ${ladder.map((c) => `c=${c}`).join(' | ')} |`);
  lines.push(`|---|${ladder.map(() => '---').join('|')}|`);
  for (const id of Object.keys(results.ladder)) {
    const rounds = results.ladder[id] ?? [];
    const cells = ladder.map((c) => {
      const rps = median(rounds.map((r) => r[c]?.rps ?? Number.NaN));
      const p99 = median(rounds.map((r) => r[c]?.p99Ms ?? Number.NaN));
      const cpu = median(rounds.map((r) => r[c]?.cpuUsPerRequest ?? Number.NaN));
      const errors = rounds.reduce((sum, r) => sum + (r[c]?.errors ?? 0) + (r[c]?.non2xx ?? 0), 0);
      return `${num(rps)} / ${num(p99)} / ${num(cpu)}${errors ? ` (${errors} err)` : ''}`;
    });
    lines.push(`| ${label(id)} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push('Throughput frontier (max RPS with p99 under the bound and no errors, median of rounds):');
  lines.push('');
  lines.push(
    '| target | p99 < 1 ms | < 5 ms | < 10 ms | < 20 ms | < 50 ms | unbounded | CPU use at max (cores) | other processes on the gateway core (median) |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|');
  for (const id of Object.keys(results.ladder)) {
    const rounds = results.ladder[id] ?? [];
    const util = median(rounds.map((r) => Math.max(...Object.values(r).map((s) => s.coreUtilisation))));
    const others = median(rounds.flatMap((r) => Object.values(r).map((s) => s.othersOnGatewayCore)));
    lines.push(
      `| ${label(id)} | ${[1, 5, 10, 20, 50, Infinity].map((b) => num(maxRps(results, id, b))).join(' | ')} | ${num(util, 2)} | ${num(others * 100)}% |`,
    );
  }
  lines.push('');

  for (const [name, byTarget] of Object.entries(results.workloads)) {
    const first = Object.values(byTarget)[0]?.[0];
    const connections = first ? '' : '';
    lines.push(`### ${name}${connections}`);
    lines.push('');
    lines.push('| target | c=1 p50 | c=1 p99 | added p50 | loaded RPS | loaded p99 | CPU µs/request |');
    lines.push('|---|---|---|---|---|---|---|');
    const direct = byTarget.direct ?? [];
    for (const [id, samples] of Object.entries(byTarget)) {
      const added = median(samples.map((s, round) => s.atOne.p50Us - (direct[round]?.atOne.p50Us ?? Number.NaN)));
      const errors = samples.reduce((sum, s) => sum + s.atOne.errors + s.loaded.errors + s.loaded.non2xx, 0);
      lines.push(
        `| ${label(id)} | ${us(med(samples, (s) => s.atOne.p50Us))} | ${us(med(samples, (s) => s.atOne.p99Us))} | ${id === 'direct' ? '—' : signedUs(added)} | ${num(med(samples, (s) => s.loaded.rps))}${errors ? ` (${errors} err)` : ''} | ${num(med(samples, (s) => s.loaded.p99Ms))} ms | ${num(med(samples, (s) => s.loaded.cpuUsPerRequest))} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    `Loaded = c=${results.config.workloadConcurrency} (c=${results.config.workloadConcurrency * 8} for the 20 ms upstream), ${results.config.workloadStepS} s.`,
  );
  lines.push('');

  if (Object.keys(results.fixedRate).length) {
    lines.push('## Fixed offered rate (autocannon -R, 64 connections; achieved RPS / p50 / p99 / CPU µs per request)');
    lines.push('');
    const rates = [...new Set(Object.values(results.fixedRate).flatMap((byRate) => Object.keys(byRate)))].map(Number).sort((a, b) => a - b);
    lines.push(`| target | ${rates.map((r) => `${r} RPS offered`).join(' | ')} |`);
    lines.push(`|---|${rates.map(() => '---').join('|')}|`);
    for (const [id, byRate] of Object.entries(results.fixedRate)) {
      lines.push(
        `| ${label(id)} | ${rates
          .map((r) => {
            const s = byRate[r] ?? [];
            return `${num(med(s, (x) => x.rps))} / ${num(med(s, (x) => x.p50Ms))} / ${num(med(s, (x) => x.p99Ms))} ms / ${num(med(s, (x) => x.cpuUsPerRequest))}`;
          })
          .join(' | ')} |`,
      );
    }
    lines.push('');
  }

  lines.push('## Streams');
  lines.push('');
  lines.push(
    `| target | TTFE p50 (c=1, F) | added TTFE p50 | TTFE p99 | gap p50 (A) | gap p99 (A) | added gap p99 | gap max | clean / streams (A) | CPU µs per chunk (B) |`,
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const id of Object.keys(results.ttfe)) {
    const t = results.ttfe[id];
    const g = results.gaps[id];
    lines.push(
      `| ${label(id)} | ${us(med(t, (s) => s.ttfeP50Us))} | ${id === 'direct' ? '—' : signedUs(addedOverDirect(results, id, (s) => s.ttfeP50Us, 'ttfe'))} | ${us(med(t, (s) => s.ttfeP99Us))} | ${us(med(g, (s) => s.gapP50Us))} | ${us(med(g, (s) => s.gapP99Us))} | ${id === 'direct' ? '—' : signedUs(addedOverDirect(results, id, (s) => s.gapP99Us, 'gaps'))} | ${us(med(g, (s) => s.gapMaxUs))} | ${(g ?? []).reduce((a, s) => a + s.clean, 0)} / ${(g ?? []).reduce((a, s) => a + s.streams, 0)} | ${id === 'direct' ? '—' : us(cpuPerChunk(results, id))} |`,
    );
  }
  lines.push('');
  lines.push(
    `B = 200 deltas back to back; A = 64 deltas × 20 ms (${results.config.gapStreams} streams at once). CPU per chunk = gateway CPU over ${results.config.chunkCpuStreams} profile-B streams opened over ${results.config.chunkCpuRampMs} ms / deltas delivered (includes the per-request cost spread over 200 deltas).`,
  );
  lines.push('');

  lines.push('### Concurrent profile-A streams (one round; a step passes with every delta delivered, no errors, no buffering, gap p99 < 200 ms)');
  lines.push('');
  lines.push('| target | streams | clean | dropped deltas | errors | buffered | TTFE p99 | gap p99 | gap max | first error |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const [id, steps] of Object.entries(results.streamLadder)) {
    for (const [streams, s] of Object.entries(steps)) {
      lines.push(
        `| ${label(id)} | ${streams} | ${s.clean} | ${s.droppedDeltas} | ${s.errors} | ${s.buffered} | ${us(s.ttfeP99Us)} | ${us(s.gapP99Us)} | ${us(s.gapMaxUs)} | ${s.firstError ?? ''} |`,
      );
    }
  }
  lines.push('');

  lines.push('### Memory with open profile-C streams (2 deltas/s)');
  lines.push('');
  lines.push('| target | streams asked / open | RSS before | RSS with streams | MiB per 1,000 | gateway CPU while holding |');
  lines.push('|---|---|---|---|---|---|');
  for (const [id, samples] of Object.entries(results.memory)) {
    for (const s of samples)
      lines.push(
        `| ${label(id)} | ${s.streams} / ${s.opened} | ${num(s.idleRssMiB)} MiB | ${num(s.rssMiB)} MiB | ${num(s.perThousandMiB, 1)} | ${num(s.coreUtilisation * 100)}% of a core |`,
      );
  }
  lines.push('');
  lines.push(
    `MiB per 1,000 from the slope between the two largest N: ${Object.keys(results.memory)
      .map((id) => `${label(id)} ${num(rssPerThousand(results, id), 1)}`)
      .join(', ')}.`,
  );
  lines.push('');
  lines.push(
    `Idle RSS (cold, before the first generation request): ${Object.entries(results.idleRssMiB)
      .map(([n, v]) => `${n} ${num(v)} MiB`)
      .join(', ')}. After the run (5 s idle): ${Object.entries(results.rssAfterLoadMiB)
      .map(([n, v]) => `${n} ${num(v)} MiB`)
      .join(', ')}.`,
  );
  lines.push('');

  lines.push('## Per-chunk translation cost, in process (bench/translate-chunk.ts)');
  lines.push('');
  lines.push('| lane | upstream → client | µs per chunk |');
  lines.push('|---|---|---|');
  for (const row of results.translate) lines.push(`| ${row.lane} | ${row.upstream} → ${row.client} | ${(row.nsPerChunk / 1000).toFixed(2)} |`);
  lines.push('');
  lines.push('## Whole box (WORKERS=2 + Redis, not pinned)');
  lines.push('');
  const box = results.wholeBox;
  if (box && !box.skipped && box.summary) {
    const s = box.summary;
    lines.push(
      `Redis ${box.redis}; ${box.streams} profile-C streams (120 deltas, 2/s) opened over ${results.config.wholeBoxRampMs} ms: ${s.clean} clean, ${s.droppedDeltas} deltas dropped, ${s.errors} errors (${s.firstError ?? 'none'}), ${s.buffered} buffered; ${box.openAtPeak} open at the peak; TTFE p50 ${us(s.ttfeP50Us)}, p99 ${us(s.ttfeP99Us)}; gap p99 ${us(s.gapP99Us)}, max ${us(s.gapMaxUs)}; RSS of the gateway tree ${num(box.rssIdleMiB)} MiB idle, ${num(box.rssPeakMiB)} MiB at the peak.${box.startedEvery2s ? ` Streams started, every 2 s of the ramp: ${box.startedEvery2s.join(', ')}. Listen-queue overflows (kernel, whole machine): ${box.listenOverflows}.` : ''}${box.harnessLoopDelayMs ? ` The load generator's own event-loop delay: p99 ${num(box.harnessLoopDelayMs.p99)} ms, max ${num(box.harnessLoopDelayMs.max)} ms.` : ''}`,
    );
  } else {
    lines.push(`WORKERS=2: ${results.workers}.`);
  }
  lines.push('');
  const soak = results.soak;
  if (soak) {
    lines.push(`## Soak (${soak.minutes} min at ${soak.rate} RPS, 64 connections, Switchyard passthrough)`);
    lines.push('');
    lines.push(
      `RSS before ${num(soak.rssBeforeMiB)} MiB; after each ${results.config.soakSliceS} s slice (first ${soak.warmupSlices} = warm-up): ${soak.rssMiB.map((v) => num(v)).join(', ')} MiB; ${results.config.soakIdleS} s after: ${num(soak.rssAfterIdleMiB)} MiB${soak.rssIdleSamplesMiB?.length ? ` (every 5 s of that idle period: ${soak.rssIdleSamplesMiB.map((v) => num(v)).join(', ')} MiB)` : ''}. p99 per slice (ms): ${soak.p99Ms.join(', ')}. CPU µs per request, median: ${num(median(soak.cpuUsPerRequest))}. Errors: ${soak.errors}.`,
    );
    lines.push('');
  }
  if (results.notes.length) {
    lines.push('## Notes');
    lines.push('');
    for (const note of results.notes) lines.push(`- ${note}`);
    lines.push('');
  }
  return lines;
}

import { Fragment } from 'preact';
import { count, DASH, dateTime, ms, usd, visibleName } from '../lib/format.ts';
import type { LogEntry } from '../lib/types.ts';
import { logCost } from './logs-page.tsx';

/** Everything one log row holds, with its warnings and the retry chain spelled out. */
export function LogDetail({ entry }: { entry: LogEntry }) {
  const facts: Array<[string, string]> = [
    ['Time', dateTime(entry.time)],
    ['Status', `${entry.status}${entry.errorCode ? ` · ${entry.errorCode}` : ''}`],
    ['Key', `${entry.keyName ?? DASH}${entry.keyId ? ` (${entry.keyId})` : ''}`],
    ['Group', entry.group ?? DASH],
    ['Model asked / sent upstream', `${visibleName(entry.model)} → ${visibleName(entry.upstreamModel)}`],
    ['Channel', entry.channelName ?? DASH],
    ['Protocols (client → upstream)', `${entry.clientProtocol ?? DASH} → ${entry.upstreamProtocol ?? DASH}${entry.surface ? ` via /${entry.surface}` : ''}`],
    ['Streamed', entry.stream ? 'yes' : 'no'],
    ['Tokens in / out', `${count(entry.inputTokens)} / ${count(entry.outputTokens)}`],
    ['Cache read / write, reasoning', `${count(entry.cacheReadTokens)} / ${count(entry.cacheWriteTokens)}, ${count(entry.reasoningTokens)}`],
    ['Cost', usd(logCost(entry))],
    ['Latency / time to first token', `${ms(entry.latencyMs)} / ${ms(entry.ttftMs)}`],
    ['Client IP', entry.clientIp ?? DASH],
  ];
  return (
    <div>
      {entry.errorMessage && (
        <p class="notice error" role="note">
          {entry.errorMessage}
        </p>
      )}
      <dl class="facts">
        {facts.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
      <h3>Warnings</h3>
      {entry.warnings.length === 0 ? (
        <p class="muted">None: nothing in the request was dropped or changed.</p>
      ) : (
        <ul data-warnings>
          {entry.warnings.map((warning, index) => (
            <li key={index}>
              <code>{warning}</code>
            </li>
          ))}
        </ul>
      )}
      <h3>Attempts</h3>
      {entry.attempts.length === 0 ? (
        <p class="muted">No upstream was called (the gateway answered by itself).</p>
      ) : (
        <ol class="attempts" data-attempts>
          {entry.attempts.map((attempt, index) => (
            <li key={index}>
              <strong>{attempt.channelName}</strong> — {attempt.status === null ? 'no answer' : `status ${attempt.status}`}
              {attempt.errorCode ? ` · ${attempt.errorCode}` : ''} · {ms(attempt.latencyMs)}
              {index < entry.attempts.length - 1 ? ' → retried on the next channel' : ''}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

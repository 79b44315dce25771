import { Fragment } from 'preact';
import { count, DASH, dateTime, ms, usd, visibleName } from '../lib/format.ts';
import type { LogEntry } from '../lib/types.ts';
import { logCost } from './logs-page.tsx';
import { t } from '../i18n/i18n.ts';

/** Everything one log row holds, with its warnings and the retry chain spelled out. */
export function LogDetail({ entry }: { entry: LogEntry }) {
  const facts: Array<[string, string]> = [
    [t('logDetail.time'), dateTime(entry.time)],
    [t('logDetail.status'), `${entry.status}${entry.errorCode ? ` · ${entry.errorCode}` : ''}`],
    [t('logDetail.key'), `${entry.keyName ?? DASH}${entry.keyId ? ` (${entry.keyId})` : ''}`],
    [t('logDetail.group'), entry.group ?? DASH],
    [t('logDetail.model'), `${visibleName(entry.model)} → ${visibleName(entry.upstreamModel)}`],
    [t('logDetail.channel'), entry.channelName ?? DASH],
    [t('logDetail.protocols'), `${entry.clientProtocol ?? DASH} → ${entry.upstreamProtocol ?? DASH}${entry.surface ? t('logDetail.via', { surface: entry.surface }) : ''}`],
    [t('logDetail.streamed'), entry.stream ? t('logDetail.yes') : t('logDetail.no')],
    [t('logDetail.tokens'), `${count(entry.inputTokens)} / ${count(entry.outputTokens)}`],
    [t('logDetail.cache'), `${count(entry.cacheReadTokens)} / ${count(entry.cacheWriteTokens)}, ${count(entry.reasoningTokens)}`],
    [t('logDetail.cost'), usd(logCost(entry))],
    [t('logDetail.latency'), `${ms(entry.latencyMs)} / ${ms(entry.ttftMs)}`],
    [t('logDetail.ip'), entry.clientIp ?? DASH],
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
      <h3>{t('logDetail.warnings')}</h3>
      {entry.warnings.length === 0 ? (
        <p class="muted">{t('logDetail.noWarnings')}</p>
      ) : (
        <ul data-warnings>
          {entry.warnings.map((warning, index) => (
            <li key={index}>
              <code>{warning}</code>
            </li>
          ))}
        </ul>
      )}
      <h3>{t('logDetail.attempts')}</h3>
      {entry.attempts.length === 0 ? (
        <p class="muted">{t('logDetail.noAttempts')}</p>
      ) : (
        <ol class="attempts" data-attempts>
          {entry.attempts.map((attempt, index) => (
            <li key={index}>
              <strong>{attempt.channelName}</strong> — {attempt.status === null ? t('logDetail.noAnswer') : t('logDetail.statusN', { status: attempt.status })}
              {attempt.errorCode ? ` · ${attempt.errorCode}` : ''} · {ms(attempt.latencyMs)}
              {index < entry.attempts.length - 1 ? t('logDetail.retried') : ''}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

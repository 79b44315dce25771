import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { UnpricedWarning } from '../components/unpriced-warning.tsx';
import { Drawer } from '../components/drawer.tsx';
import { PageHead } from '../components/page-head.tsx';
import { loadAdminData, type AdminData } from '../lib/admin-data.ts';
import { ApiError, call } from '../lib/api.ts';
import { channelStateName, channelStatus, lastErrorText, successHeader, successText, type ChannelTestOutcome } from '../lib/channel-status.ts';
import { errorMessage } from '../lib/error-message.ts';
import { DASH, list, ms } from '../lib/format.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { Channel } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';
import { ChannelForm } from './channel-form.tsx';
import { t } from '../i18n/i18n.ts';

type Editing = { mode: 'create' } | { mode: 'edit'; channel: Channel } | null;

export function ChannelsPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const data = useResource(() => loadAdminData(token), [token]);
  const [editing, setEditing] = useState<Editing>(null);
  const [message, setMessage] = useState<string | null>(null);

  return (
    <section>
      <PageHead title={t('channels.title')} onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setEditing({ mode: 'create' })}>
          {t('channels.add')}
        </button>
      </PageHead>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what={t('channels.what')}>
        {(admin) => (
          <>
            <UnpricedWarning admin={admin} />
            <ChannelTable admin={admin} token={token} onEdit={(channel) => setEditing({ mode: 'edit', channel })} onChanged={data.reload} onMessage={setMessage} />
            {editing && (
              <Drawer title={editing.mode === 'create' ? t('channels.addTitle') : t('channels.editTitle', { name: editing.channel.name })} onClose={() => setEditing(null)}>
                <ChannelForm
                  token={token}
                  groups={admin.groups}
                  {...(editing.mode === 'edit' ? { channel: editing.channel } : {})}
                  onCancel={() => setEditing(null)}
                  onSaved={() => {
                    setMessage(editing.mode === 'create' ? t('channels.created') : t('channels.saved'));
                    setEditing(null);
                    data.reload();
                  }}
                />
              </Drawer>
            )}
          </>
        )}
      </AsyncView>
    </section>
  );
}

function ChannelTable(props: { admin: AdminData; token: string; onEdit: (channel: Channel) => void; onChanged: () => void; onMessage: (text: string) => void }) {
  if (props.admin.channels.length === 0) return <p class="notice">{t('channels.none')}</p>;
  return (
    <div class="table-wrap">
      <table class="stacked">
        <thead>
          <tr>
            <th scope="col">{t('channels.channel')}</th>
            <th scope="col">{t('channels.models')}</th>
            <th scope="col">{t('channels.groups')}</th>
            <th scope="col" class="num">{t('channels.priority')}</th>
            <th scope="col">{t('channels.state')}</th>
            <th scope="col" class="num" title={t('channels.successTitle')}>
              {successHeader(props.admin.channels)}
            </th>
            <th scope="col" class="num">p50 / p95</th>
            <th scope="col">{t('channels.lastError')}</th>
            <th scope="col">{t('channels.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {props.admin.channels.map((channel) => (
            <ChannelRow key={channel.id} channel={channel} {...props} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

type TestResult = ChannelTestOutcome;

function ChannelRow(props: { channel: Channel; token: string; onEdit: (channel: Channel) => void; onChanged: () => void; onMessage: (text: string) => void }) {
  const { channel, token } = props;
  const [test, setTest] = useState<TestResult | 'running' | null>(null);
  const status = channelStatus(channel, test === 'running' ? null : test);
  const success = successText(channel);
  const health = channel.health;
  const path = `/api/admin/channels/${encodeURIComponent(channel.id)}`;

  const runTest = async () => {
    setTest('running');
    try {
      const result = await call<Record<string, unknown>>(`${path}/test`, { method: 'POST', body: {}, bearer: token });
      setTest(describeTest(result));
      // The test went through the channel: reload, so its state, success and last error count it.
      props.onChanged();
    } catch (error) {
      setTest({
        ok: false,
        text:
          error instanceof ApiError && (error.status === 404 || error.status === 405)
            ? t('channels.testMissing')
            : t('channels.testFailedWith', { message: errorMessage(error) }),
      });
    }
  };
  const toggle = async () => {
    try {
      await call(path, { method: 'PATCH', body: { enabled: !channel.enabled }, bearer: token });
      props.onMessage(t(channel.enabled ? 'channels.disabled' : 'channels.enabled', { name: channel.name }));
      props.onChanged();
    } catch (error) {
      props.onMessage(t('channels.couldNotChange', { name: channel.name, message: errorMessage(error) }));
    }
  };
  const remove = async () => {
    if (!confirm(t('channels.confirmDelete', { name: channel.name }))) return;
    try {
      await call(path, { method: 'DELETE', bearer: token });
      props.onMessage(t('channels.deleted', { name: channel.name }));
      props.onChanged();
    } catch (error) {
      props.onMessage(t('channels.couldNotDelete', { name: channel.name, message: errorMessage(error) }));
    }
  };

  return (
    <>
      <tr data-channel={channel.name}>
        <td>
          <strong>{channel.name}</strong>
          <div class="small-text muted">
            {channel.provider} · <span class="break">{channel.baseUrl}</span>
          </div>
        </td>
        <td class="small-text" data-label={t('channels.models')}>
          {list(channel.models)}
        </td>
        <td class="small-text" data-label={t('channels.groups')}>
          {list(channel.groups)}
        </td>
        <td class="num" data-label={t('channels.priority')}>
          {channel.priority} / {channel.weight}
        </td>
        <td data-label={t('channels.state')}>
          <span class={`badge ${status.tone}`} data-health={channel.name}>
            {channelStateName(status.label)}
          </span>
          {status.reason && <div class="small-text muted">{status.reason}</div>}
        </td>
        <td class="num" data-success={channel.name} data-label={successHeader([channel])}>
          {success.value}
          {success.note && <div class="small-text muted">{success.note}</div>}
        </td>
        <td class="num" data-label="p50 / p95">
          {ms(health?.latencyP50)} / {ms(health?.latencyP95)}
        </td>
        <td class="small-text" data-label={t('channels.lastError')}>
          {lastErrorText(channel) ?? DASH}
        </td>
        <td>
          <div class="actions">
            <button type="button" class="small" onClick={runTest} disabled={test === 'running'}>
              {test === 'running' ? t('channels.testing') : t('channels.test')}
            </button>
            <button type="button" class="small" onClick={toggle}>
              {channel.enabled ? t('channels.disable') : t('channels.enable')}
            </button>
            <button type="button" class="small" onClick={() => props.onEdit(channel)}>
              {t('channels.edit')}
            </button>
            <button type="button" class="small danger" onClick={remove}>
              {t('channels.delete')}
            </button>
          </div>
        </td>
      </tr>
      {test && test !== 'running' && (
        <tr class="test-row">
          <td colSpan={9}>
            <p class={`notice ${test.ok ? 'success' : 'error'}`} role="status" data-test-result={channel.name}>
              {test.text}
            </p>
          </td>
        </tr>
      )}
    </>
  );
}

/** Tolerant reading of the channel-test answer: status, latency, error. */
function describeTest(result: Record<string, unknown>): TestResult {
  const status = typeof result.status === 'number' ? result.status : undefined;
  const latency = [result.latencyMs, result.latency].find((value) => typeof value === 'number') as number | undefined;
  const rawError = result.error;
  const error = typeof rawError === 'string' ? rawError : rawError && typeof rawError === 'object' ? String((rawError as { message?: unknown }).message ?? JSON.stringify(rawError)) : null;
  const ok = typeof result.ok === 'boolean' ? result.ok : error === null && (status === undefined || status < 400);
  const parts = [ok ? t('channels.testPassed') : t('channels.testFailed')];
  if (status !== undefined) parts.push(t('channels.status', { status }));
  if (latency !== undefined) parts.push(ms(latency));
  if (typeof result.model === 'string') parts.push(t('channels.model', { model: result.model }));
  return { ok, text: `${parts.join(' · ')}${error ? ` — ${error}` : ''}` };
}

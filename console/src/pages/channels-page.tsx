import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { UnpricedWarning } from '../components/unpriced-warning.tsx';
import { Drawer } from '../components/drawer.tsx';
import { PageHead } from '../components/page-head.tsx';
import { loadAdminData, type AdminData } from '../lib/admin-data.ts';
import { ApiError, call } from '../lib/api.ts';
import { channelStatus, lastErrorText, successHeader, successText, type ChannelTestOutcome } from '../lib/channel-status.ts';
import { errorMessage } from '../lib/error-message.ts';
import { DASH, list, ms } from '../lib/format.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { Channel } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';
import { ChannelForm } from './channel-form.tsx';

type Editing = { mode: 'create' } | { mode: 'edit'; channel: Channel } | null;

export function ChannelsPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const data = useResource(() => loadAdminData(token), [token]);
  const [editing, setEditing] = useState<Editing>(null);
  const [message, setMessage] = useState<string | null>(null);

  return (
    <section>
      <PageHead title="Channels" onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setEditing({ mode: 'create' })}>
          Add channel
        </button>
      </PageHead>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what="channels">
        {(admin) => (
          <>
            <UnpricedWarning admin={admin} />
            <ChannelTable admin={admin} token={token} onEdit={(channel) => setEditing({ mode: 'edit', channel })} onChanged={data.reload} onMessage={setMessage} />
            {editing && (
              <Drawer title={editing.mode === 'create' ? 'Add a channel' : `Edit channel ${editing.channel.name}`} onClose={() => setEditing(null)}>
                <ChannelForm
                  token={token}
                  groups={admin.groups}
                  {...(editing.mode === 'edit' ? { channel: editing.channel } : {})}
                  onCancel={() => setEditing(null)}
                  onSaved={() => {
                    setMessage(editing.mode === 'create' ? 'Channel created.' : 'Channel saved.');
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
  if (props.admin.channels.length === 0) return <p class="notice">No channels yet. Add one to route requests to an upstream.</p>;
  return (
    <div class="table-wrap">
      <table class="stacked">
        <thead>
          <tr>
            <th scope="col">Channel</th>
            <th scope="col">Models</th>
            <th scope="col">Groups</th>
            <th scope="col" class="num">Priority / weight</th>
            <th scope="col">State</th>
            <th scope="col" class="num" title="Share of calls that succeeded within the gateway's rolling window">
              {successHeader(props.admin.channels)}
            </th>
            <th scope="col" class="num">p50 / p95</th>
            <th scope="col">Last error</th>
            <th scope="col">Actions</th>
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
            ? 'Channel test is not available on this gateway version (POST /api/admin/channels/:id/test answered 404).'
            : `Test failed: ${errorMessage(error)}`,
      });
    }
  };
  const toggle = async () => {
    try {
      await call(path, { method: 'PATCH', body: { enabled: !channel.enabled }, bearer: token });
      props.onMessage(`Channel ${channel.name} ${channel.enabled ? 'disabled' : 'enabled'}.`);
      props.onChanged();
    } catch (error) {
      props.onMessage(`Could not change ${channel.name}: ${errorMessage(error)}`);
    }
  };
  const remove = async () => {
    if (!confirm(`Delete channel "${channel.name}"? Requests stop going to it at once.`)) return;
    try {
      await call(path, { method: 'DELETE', bearer: token });
      props.onMessage(`Channel ${channel.name} deleted.`);
      props.onChanged();
    } catch (error) {
      props.onMessage(`Could not delete ${channel.name}: ${errorMessage(error)}`);
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
        <td class="small-text" data-label="Models">
          {list(channel.models)}
        </td>
        <td class="small-text" data-label="Groups">
          {list(channel.groups)}
        </td>
        <td class="num" data-label="Priority / weight">
          {channel.priority} / {channel.weight}
        </td>
        <td data-label="State">
          <span class={`badge ${status.tone}`} data-health={channel.name}>
            {status.label}
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
        <td class="small-text" data-label="Last error">
          {lastErrorText(channel) ?? DASH}
        </td>
        <td>
          <div class="actions">
            <button type="button" class="small" onClick={runTest} disabled={test === 'running'}>
              {test === 'running' ? 'Testing…' : 'Test'}
            </button>
            <button type="button" class="small" onClick={toggle}>
              {channel.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" class="small" onClick={() => props.onEdit(channel)}>
              Edit
            </button>
            <button type="button" class="small danger" onClick={remove}>
              Delete
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
  const parts = [ok ? 'Test passed' : 'Test failed'];
  if (status !== undefined) parts.push(`status ${status}`);
  if (latency !== undefined) parts.push(ms(latency));
  if (typeof result.model === 'string') parts.push(`model ${result.model}`);
  return { ok, text: `${parts.join(' · ')}${error ? ` — ${error}` : ''}` };
}

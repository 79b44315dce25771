import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { CHANNEL_TYPES, type AlertChannel, type AlertDelivery, type AlertEvent, type AlertRule } from '../lib/notify-types.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';

interface AlertsData {
  channels: AlertChannel[];
  rules: AlertRule[];
  dead: AlertDelivery[];
  events: AlertEvent[];
}

/** Alerts (issue 30): where messages go, which events send them, and the messages that could not be delivered. */
export function AlertsPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const get = <T,>(path: string) => call<{ data: T[] }>(`/api/admin${path}`, { bearer }).then((answer) => answer.data);
  const data = useResource(
    async (): Promise<AlertsData> => {
      const [channels, rules, dead, events] = await Promise.all([
        get<AlertChannel>('/notification-channels'),
        get<AlertRule>('/notification-rules'),
        get<AlertDelivery>('/notification-deliveries?status=dead'),
        get<AlertEvent>('/notification-events'),
      ]);
      return { channels, rules, dead, events };
    },
    [bearer],
  );
  return (
    <section>
      <PageHead title="Alerts" onRefresh={data.reload} />
      <AsyncView resource={data} what="the alerts">
        {(view) => <AlertsView view={view} bearer={bearer} reload={data.reload} />}
      </AsyncView>
    </section>
  );
}

function AlertsView({ view, bearer, reload }: { view: AlertsData; bearer: string; reload: () => void }) {
  const submit = useSubmit();
  const [tested, setTested] = useState<Record<string, string>>({});
  const [generatedSecret, setGeneratedSecret] = useState<string | null>(null);
  const admin = (method: string, path: string, body?: unknown) => call<any>(`/api/admin${path}`, { method, bearer, ...(body === undefined ? {} : { body }) });
  const test = (channel: AlertChannel) =>
    submit.run(async () => {
      const answer = await admin('POST', `/notification-channels/${channel.id}/test`);
      setTested((current) => ({ ...current, [channel.id]: answer.delivered ? 'Delivered' : `Not delivered: ${answer.error}` }));
    });
  const names = new Map(view.channels.map((channel) => [channel.id, channel.name]));
  return (
    <>
      {submit.error && (
        <p class="notice error" role="alert">
          {submit.error}
        </p>
      )}
      <h2>Channels</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Address</th>
              <th scope="col">Test</th>
            </tr>
          </thead>
          <tbody>
            {view.channels.map((channel) => (
              <tr key={channel.id} data-alert-channel={channel.name}>
                <td>{channel.name}</td>
                <td>{channel.type}</td>
                <td class="small-text">{channel.url ?? channel.to ?? '–'}</td>
                <td>
                  <button type="button" class="small" disabled={submit.busy} onClick={() => void test(channel)}>
                    Send test
                  </button>{' '}
                  <span class="small-text">{tested[channel.id]}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {generatedSecret && (
        <p class="notice" role="status">
          The webhook's signing secret, shown only now: <code data-generated-secret>{generatedSecret}</code>
        </p>
      )}
      <ChannelForm
        busy={submit.busy}
        onSave={(body) =>
          submit.run(async () => {
            const created = await admin('POST', '/notification-channels', body);
            setGeneratedSecret(typeof created.secret === 'string' ? created.secret : null);
            reload();
          })
        }
      />

      <h2>Rules</h2>
      <ul>
        {view.rules.map((rule) => (
          <li key={rule.id} data-alert-rule={rule.event}>
            <code>{rule.event}</code> {rule.threshold === null ? '(default threshold)' : `at ${rule.threshold}`} → {rule.channels.map((id) => names.get(id) ?? id).join(', ')} ({rule.audience}){' '}
            <button type="button" class="small" onClick={() => void submit.run(async () => void (await admin('DELETE', `/notification-rules/${rule.id}`), reload()))}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <RuleForm events={view.events} channels={view.channels} busy={submit.busy} onSave={(body) => submit.run(async () => void (await admin('POST', '/notification-rules', body), reload()))} />

      <h2>Dead letters</h2>
      {view.dead.length === 0 ? (
        <p class="muted">No undelivered messages.</p>
      ) : (
        <ul>
          {view.dead.map((delivery) => (
            <li key={delivery.id} data-dead-letter={delivery.id}>
              {dateTime(delivery.createdAt)} <code>{delivery.event}</code> to {names.get(delivery.channelId) ?? delivery.channelId}: {delivery.lastError} ({delivery.attempts} attempts){' '}
              <button type="button" class="small" onClick={() => void submit.run(async () => void (await admin('POST', `/notification-deliveries/${delivery.id}/retry`), reload()))}>
                Retry
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function ChannelForm(props: { busy: boolean; onSave: (body: Record<string, string>) => Promise<void> }) {
  const [fields, setFields] = useState<Record<string, string>>({ type: 'webhook', name: '', url: '', secret: '', to: '' });
  const set = (name: string) => (event: Event) => setFields({ ...fields, [name]: (event.target as HTMLInputElement).value });
  const body = () => Object.fromEntries(Object.entries(fields).filter(([, value]) => value.trim() !== ''));
  return (
    <form
      class="card inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void props.onSave(body());
      }}
    >
      <label>
        Type{' '}
        <select value={fields.type} onChange={set('type')}>
          {CHANNEL_TYPES.map((type) => (
            <option key={type}>{type}</option>
          ))}
        </select>
      </label>
      <label>
        Name <input value={fields.name} onInput={set('name')} required />
      </label>
      <label>
        Address <input value={fields.url} onInput={set('url')} placeholder="https://…" />
      </label>
      <label>
        Secret or bot token <input type="password" value={fields.secret} onInput={set('secret')} autocomplete="off" />
      </label>
      <label>
        To (e-mail or chat id) <input value={fields.to} onInput={set('to')} />
      </label>
      <button type="submit" class="primary" disabled={props.busy}>
        Add channel
      </button>
    </form>
  );
}

function RuleForm(props: { events: AlertEvent[]; channels: AlertChannel[]; busy: boolean; onSave: (body: unknown) => Promise<void> }) {
  const [event, setEvent] = useState(props.events[0]?.event ?? 'wallet.low');
  const [threshold, setThreshold] = useState('');
  const [picked, setChannel] = useState('');
  // The list may gain its first channel after this form appeared: default to it then.
  const channel = props.channels.some((entry) => entry.id === picked) ? picked : (props.channels[0]?.id ?? '');
  const [audience, setAudience] = useState('operator');
  const chosen = props.events.find((entry) => entry.event === event);
  return (
    <form
      class="card inline-form"
      onSubmit={(submitted) => {
        submitted.preventDefault();
        void props.onSave({ event, channels: [channel], audience, ...(threshold === '' ? {} : { threshold: Number(threshold) }) });
      }}
    >
      <label>
        Event{' '}
        <select value={event} onChange={(change) => setEvent((change.target as HTMLSelectElement).value)}>
          {props.events.map((entry) => (
            <option key={entry.event}>{entry.event}</option>
          ))}
        </select>
      </label>
      <label>
        Threshold{chosen?.unit ? ` (${chosen.unit}, default ${chosen.defaultThreshold})` : ''}{' '}
        <input value={threshold} inputMode="decimal" disabled={!chosen?.unit} onInput={(change) => setThreshold((change.target as HTMLInputElement).value)} />
      </label>
      <label>
        Channel{' '}
        <select value={channel} onChange={(change) => setChannel((change.target as HTMLSelectElement).value)}>
          {props.channels.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Audience{' '}
        <select value={audience} onChange={(change) => setAudience((change.target as HTMLSelectElement).value)}>
          <option value="operator">operators</option>
          <option value="account">the account holder (e-mail)</option>
        </select>
      </label>
      <button type="submit" class="primary" disabled={props.busy || channel === ''}>
        Add rule
      </button>
    </form>
  );
}

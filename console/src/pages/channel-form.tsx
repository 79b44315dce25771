import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { FormActions } from '../components/form-actions.tsx';
import { call } from '../lib/api.ts';
import { splitList } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Channel, Group } from '../lib/types.ts';
import { useSubmit } from '../lib/use-submit.ts';

const PROVIDERS = [
  ['openai', 'OpenAI or OpenAI-compatible', 'https://api.openai.com/v1'],
  ['anthropic', 'Anthropic', 'https://api.anthropic.com'],
  ['gemini', 'Gemini', 'https://generativelanguage.googleapis.com'],
] as const;

/** Create or edit a channel. The upstream secret is write-only: an edit leaves it as it is unless a new one is typed. */
export function ChannelForm(props: { token: string; groups: Group[]; channel?: Channel; onSaved: () => void; onCancel: () => void }) {
  const existing = props.channel;
  const [name, setName] = useState(existing?.name ?? '');
  const [provider, setProvider] = useState<string>(existing?.provider ?? 'openai');
  const [baseUrl, setBaseUrl] = useState(existing?.baseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState(existing?.models.join(', ') ?? '');
  const [groups, setGroups] = useState<string[]>(existing?.groups ?? ['default']);
  const [modelMap, setModelMap] = useState(
    Object.entries(existing?.modelMap ?? {})
      .map(([from, to]) => `${from}=${to}`)
      .join('\n'),
  );
  const [priority, setPriority] = useState(String(existing?.priority ?? 0));
  const [weight, setWeight] = useState(String(existing?.weight ?? 1));
  const [enabled, setEnabled] = useState(existing?.enabled ?? true);
  const [supportsResponses, setSupportsResponses] = useState(existing?.supportsResponses ?? false);
  const submission = useSubmit();

  const submit = async (event: Event) => {
    event.preventDefault();
    const map: Record<string, string> = {};
    for (const line of modelMap.split('\n')) {
      if (line.trim() === '') continue;
      const [from, to] = line.split('=').map((part) => part.trim());
      if (!from || !to) return submission.setError(`Model map line "${line}" must look like public-name=upstream-name.`);
      map[from] = to;
    }
    const body: Record<string, unknown> = {
      name: name.trim(),
      provider,
      baseUrl: baseUrl.trim(),
      models: splitList(models),
      groups,
      modelMap: map,
      priority: Number(priority),
      weight: Number(weight),
      enabled,
      supportsResponses,
    };
    if (apiKey.trim() !== '') body.apiKey = apiKey.trim();
    await submission.run(async () => {
      if (existing) await call(`/api/admin/channels/${encodeURIComponent(existing.id)}`, { method: 'PATCH', body, bearer: props.token });
      else await call('/api/admin/channels', { method: 'POST', body, bearer: props.token });
      props.onSaved();
    });
  };

  const placeholder = PROVIDERS.find(([value]) => value === provider)?.[2] ?? '';
  return (
    <form onSubmit={submit} class="form">
      <label>
        Name
        <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required />
      </label>
      <label>
        Provider
        <select name="provider" value={provider} onChange={(event) => setProvider(inputValue(event))}>
          {PROVIDERS.map(([kind, label]) => (
            <option value={kind} key={kind}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Base address
        <input name="baseUrl" type="url" value={baseUrl} placeholder={placeholder} onInput={(event) => setBaseUrl(inputValue(event))} required />
        <span class="hint">As the provider's SDK takes it: OpenAI-compatible hosts end in /v1, Anthropic and Gemini are the root.</span>
      </label>
      <label>
        Upstream API key
        <input
          name="apiKey"
          type="password"
          autoComplete="off"
          value={apiKey}
          onInput={(event) => setApiKey(inputValue(event))}
          required={!existing}
          placeholder={existing ? `${existing.apiKeyCount} key(s) stored; type to replace` : ''}
        />
      </label>
      <label>
        Models
        <textarea name="models" rows={2} value={models} onInput={(event) => setModels(inputValue(event))} required />
        <span class="hint">Public model names, separated by commas or new lines.</span>
      </label>
      <fieldset>
        <legend>Groups</legend>
        {props.groups.map((group) => (
          <label class="inline" key={group.name}>
            <input
              type="checkbox"
              name="groups"
              value={group.name}
              checked={groups.includes(group.name)}
              onChange={(event) =>
                setGroups((current) =>
                  (event.target as HTMLInputElement).checked ? [...current, group.name] : current.filter((name) => name !== group.name),
                )
              }
            />{' '}
            {group.name}
          </label>
        ))}
      </fieldset>
      <label>
        Model map (optional)
        <textarea name="modelMap" rows={2} value={modelMap} placeholder="public-name=upstream-name" onInput={(event) => setModelMap(inputValue(event))} />
      </label>
      <div class="row">
        <label>
          Priority
          <input name="priority" type="number" step="1" value={priority} onInput={(event) => setPriority(inputValue(event))} />
          <span class="hint">Higher tiers are tried first.</span>
        </label>
        <label>
          Weight
          <input name="weight" type="number" min="0" step="1" value={weight} onInput={(event) => setWeight(inputValue(event))} />
          <span class="hint">Share of traffic inside a tier.</span>
        </label>
      </div>
      <label class="inline">
        <input type="checkbox" name="enabled" checked={enabled} onChange={(event) => setEnabled((event.target as HTMLInputElement).checked)} /> Enabled
      </label>
      {provider === 'openai' && (
        <label class="inline">
          <input
            type="checkbox"
            name="supportsResponses"
            checked={supportsResponses}
            onChange={(event) => setSupportsResponses((event.target as HTMLInputElement).checked)}
          />{' '}
          Host also serves the Responses API (/responses)
        </label>
      )}
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={existing ? 'Save channel' : 'Create channel'} onCancel={props.onCancel} />
    </form>
  );
}

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
  ['azure', 'Azure OpenAI', 'https://NAME.openai.azure.com'],
  ['vertex', 'Google Vertex AI', 'derived from the region'],
  ['bedrock', 'AWS Bedrock', 'derived from the region'],
  ['cohere', 'Cohere (rerank)', 'https://api.cohere.com'],
  ['jina', 'Jina AI (rerank, embeddings)', 'https://api.jina.ai'],
] as const;

/** What each kind's secret is, said where the operator types it. */
const SECRET_HINTS: Record<string, string> = {
  azure: 'The resource key (sent as api-key).',
  vertex: 'Paste the whole service-account JSON key file.',
  bedrock: 'ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN], or a Bedrock API key.',
};

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
  const [region, setRegion] = useState(existing?.region ?? '');
  const [project, setProject] = useState(existing?.project ?? '');
  const [apiVersion, setApiVersion] = useState(existing?.apiVersion ?? '');
  const regional = provider === 'vertex' || provider === 'bedrock';
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
      ...(baseUrl.trim() !== '' || !regional ? { baseUrl: baseUrl.trim() } : {}),
      ...(regional ? { region: region.trim() } : {}),
      ...(provider === 'vertex' ? { project: project.trim() } : {}),
      ...(provider === 'azure' && apiVersion.trim() !== '' ? { apiVersion: apiVersion.trim() } : {}),
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
        <input name="baseUrl" type="url" value={baseUrl} placeholder={placeholder} onInput={(event) => setBaseUrl(inputValue(event))} required={!regional} />
        <span class="hint">
          {regional
            ? 'Optional: leave empty for the public regional endpoint; set it for a private or VPC endpoint.'
            : "As the provider's SDK takes it: OpenAI-compatible hosts end in /v1, Anthropic, Gemini and Azure are the root."}
        </span>
      </label>
      {regional && (
        <label>
          Region
          <input name="region" value={region} placeholder={provider === 'vertex' ? 'us-east5 or global' : 'us-east-1'} onInput={(event) => setRegion(inputValue(event))} required />
        </label>
      )}
      {provider === 'vertex' && (
        <label>
          Project
          <input name="project" value={project} placeholder="my-gcp-project" onInput={(event) => setProject(inputValue(event))} required />
        </label>
      )}
      {provider === 'azure' && (
        <label>
          API version
          <input name="apiVersion" value={apiVersion} placeholder="2024-10-21" onInput={(event) => setApiVersion(inputValue(event))} />
          <span class="hint">Leave empty for the current GA version. The model map names each model's deployment.</span>
        </label>
      )}
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
        {SECRET_HINTS[provider] && <span class="hint">{SECRET_HINTS[provider]}</span>}
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

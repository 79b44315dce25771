import { invalidRequest } from '../../core/gateway-error.ts';
import { stripGeminiModelPrefix } from './decode-gemini-request.ts';

/** What the gateway knows about a model; limits default to Gemini 2.5's when unknown. */
export interface GeminiModelInfo {
  id: string;
  displayName?: string;
  description?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
}

export interface GeminiModel {
  name: string;
  version: string;
  displayName: string;
  description: string;
  inputTokenLimit: number;
  outputTokenLimit: number;
  supportedGenerationMethods: string[];
}

export interface GeminiModelList {
  models: GeminiModel[];
  nextPageToken?: string;
}

/** Gemini's own defaults: 50 per page when unspecified, at most 1000. */
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;

/** One entry of `GET /v1beta/models`, also the body of `GET /v1beta/models/{model}`. */
export function encodeGeminiModel(model: string | GeminiModelInfo): GeminiModel {
  const info = typeof model === 'string' ? { id: model } : model;
  const id = stripGeminiModelPrefix(info.id);
  return {
    name: `models/${id}`,
    version: '001',
    displayName: info.displayName ?? id,
    description: info.description ?? `${id}, served by Switchyard.`,
    inputTokenLimit: info.inputTokenLimit ?? 1_048_576,
    outputTokenLimit: info.outputTokenLimit ?? 65_536,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  };
}

/**
 * One page of `GET /v1beta/models`. The page token is the offset of the next page as decimal
 * text: opaque to clients, and stable as long as the model list does not change under them.
 */
export function encodeGeminiModelList(models: Array<string | GeminiModelInfo>, options: { pageSize?: number; pageToken?: string } = {}): GeminiModelList {
  const requested = options.pageSize;
  const pageSize =
    requested === undefined || !Number.isFinite(requested) || requested <= 0 ? DEFAULT_PAGE_SIZE : Math.min(Math.floor(requested), MAX_PAGE_SIZE);
  let offset = 0;
  if (options.pageToken !== undefined && options.pageToken !== '') {
    if (!/^\d+$/.test(options.pageToken)) {
      throw invalidRequest('`pageToken` is not a token this server issued; start again without it.', 'pageToken');
    }
    offset = Number(options.pageToken);
  }
  const page = models.slice(offset, offset + pageSize).map(encodeGeminiModel);
  const next = offset + pageSize;
  return next < models.length ? { models: page, nextPageToken: String(next) } : { models: page };
}

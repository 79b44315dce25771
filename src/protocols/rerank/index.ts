import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { isRecord } from '../shared/is-record.ts';

/** `POST /v1/rerank` in the Cohere/Jina shape (LiteLLM's and new-api's), as the gateway reads it. */
export interface RerankRequest {
  model: string;
  query: string;
  documents: number;
  /** The query and every document's text: the token estimate and the hold's text input. */
  text: string;
  /** Cohere's search units: one per query over up to 100 documents. */
  searchUnits: number;
  body: Record<string, unknown>;
}

const FIELDS = new Set(['model', 'query', 'documents', 'top_n', 'return_documents', 'max_chunks_per_doc', 'max_tokens_per_doc', 'rank_fields']);
const MAX_DOCUMENTS = 1_000;
export const DOCUMENTS_PER_SEARCH_UNIT = 100;

/** Reads and checks a rerank request: `model`, a non-empty `query`, 1–1,000 `documents` (strings or `{ text }`). */
export function decodeRerankRequest(body: unknown): RerankRequest {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  for (const field of Object.keys(body)) if (!FIELDS.has(field)) throw invalidRequest(`Unrecognized request argument supplied: ${field}`, field);
  const { model, query, documents } = body;
  if (typeof model !== 'string' || model === '')
    throw invalidRequest('The request body needs a "model" field naming a rerank model your key can use.', 'model');
  if (typeof query !== 'string' || query === '') throw invalidRequest('"query" is required: the text to rank the documents against.', 'query');
  if (!Array.isArray(documents) || documents.length === 0 || documents.length > MAX_DOCUMENTS)
    throw invalidRequest(`"documents" must be an array of 1 to ${MAX_DOCUMENTS} documents.`, 'documents');
  const texts = documents.map((document) => {
    if (typeof document === 'string') return document;
    if (isRecord(document) && typeof document.text === 'string') return document.text;
    throw invalidRequest('Each document must be a string or an object with a "text" string.', 'documents');
  });
  if (body.top_n !== undefined && !(typeof body.top_n === 'number' && Number.isInteger(body.top_n) && body.top_n >= 1))
    throw invalidRequest('"top_n" must be a whole number of at least 1.', 'top_n');
  return {
    model,
    query,
    documents: documents.length,
    text: [query, ...texts].join('\n'),
    searchUnits: Math.ceil(documents.length / DOCUMENTS_PER_SEARCH_UNIT),
    body,
  };
}

/** What a rerank reply counted: Cohere's billed search units, Jina's tokens; `results` must be there. */
export function readRerankUsage(reply: Record<string, unknown>): { searchUnits: number | undefined; tokens: number | undefined } {
  if (!Array.isArray(reply.results)) throw new GatewayError('upstream_invalid_response', 'The upstream rerank reply has no "results" array.');
  const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
  const meta = isRecord(reply.meta) && isRecord(reply.meta.billed_units) ? reply.meta.billed_units : undefined;
  const usage = isRecord(reply.usage) ? reply.usage : undefined;
  return { searchUnits: count(meta?.search_units), tokens: count(usage?.total_tokens) };
}

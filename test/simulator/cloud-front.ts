import type { MediaOperation } from './media-dialect.ts';
import { createPublicKey, createVerify, randomBytes, type KeyObject } from 'node:crypto';
import type { JsonReply } from './json-reply.ts';
import type { RouteMatch } from './route-request.ts';
import { checkConverseRequest } from './converse-request-rules.ts';
import { verifySigV4 } from './verify-sigv4.ts';

/**
 * The three clouds' own front doors, in front of the model dialects they share with the
 * direct APIs: Azure OpenAI (deployment paths, `api-key`, `api-version`), Vertex AI (project
 * and region paths, OAuth bearer tokens the simulator itself issues from a service account's
 * signed JWT, like Google's token endpoint) and Bedrock (Converse paths, SigV4 or API key).
 */
export interface CloudOptions {
  azure?: {
    apiKey: string;
    /** api-version values accepted on deployment paths; default a small realistic set. */
    apiVersions?: readonly string[];
    /** Entra ID apps allowed to get tokens (client credentials): client id → tenant and secret. */
    entraApps?: Record<string, { tenantId: string; clientSecret: string }>;
    /** Lifetime of issued Entra tokens, seconds (default 3599, as Entra ID issues). */
    tokenTtlSeconds?: number;
  };
  vertex?: {
    /** Service accounts allowed to mint tokens: client_email → PEM public key. */
    serviceAccounts: Record<string, string>;
    /** Lifetime of issued tokens, seconds (default 3600). */
    tokenTtlSeconds?: number;
  };
  bedrock?: {
    /** access key id → secret access key. */
    credentials?: Record<string, string>;
    /** Bedrock API keys accepted as bearer tokens. */
    apiKeys?: readonly string[];
  };
}

export interface CloudMatch {
  /** Set when the request is for a model dialect; undefined for the token endpoint. */
  route?: RouteMatch;
  /** The cloud refused the request (auth, version, body rules), or answered it (token endpoint). */
  reply?: JsonReply;
}

export const DEFAULT_AZURE_API_VERSIONS = ['2024-06-01', '2024-10-21', '2025-04-01-preview', '2025-03-01-preview'];

const AZURE_DEPLOYMENT =
  /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings|images\/generations|images\/edits|audio\/speech|audio\/transcriptions|audio\/translations)$/;
const VERTEX_MODEL =
  /^\/v1(?:beta1)?\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/(.+?)(?::|%3A)(generateContent|streamGenerateContent|rawPredict|streamRawPredict|predict)$/i;
const BEDROCK_MODEL = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/;
/** Bedrock's Claude model ids: `anthropic.claude…`, cross-region profiles `us.anthropic.claude…`. */
const BEDROCK_CLAUDE = /(^|[./:])anthropic\.claude/i;
export const VERTEX_TOKEN_PATH = '/oauth2/token';
const ENTRA_TOKEN = /^\/([^/]+)\/oauth2\/v2\.0\/token$/;
const AZURE_SCOPE = 'https://cognitiveservices.azure.com/.default';

interface IssuedToken {
  expiresAt: number;
  clientEmail: string;
}

export function createCloudFront(options: CloudOptions, now: () => number) {
  const tokens = new Map<string, IssuedToken>();
  const entraTokens = new Map<string, number>();
  const publicKeys = new Map<string, KeyObject>();
  for (const [email, pem] of Object.entries(options.vertex?.serviceAccounts ?? {})) publicKeys.set(email, createPublicKey(pem));

  const azureError = (status: number, code: string, message: string): CloudMatch => ({
    reply: { status, body: { error: { code, message } }, headers: {} },
  });
  const googleError = (status: number, statusName: string, message: string): CloudMatch => ({
    reply: { status, body: { error: { code: status, message, status: statusName } }, headers: {} },
  });
  const awsError = (status: number, errorType: string, message: string): CloudMatch => ({
    reply: { status, body: { message }, headers: { 'x-amzn-errortype': `${errorType}:http://internal.amazon.com/coral/com.amazon.coral.service/` } },
  });

  function issueToken(rawBody: string, selfUrl: string): CloudMatch {
    const form = new URLSearchParams(rawBody);
    const tokenError = (description: string, error = 'invalid_grant'): CloudMatch => ({
      reply: { status: 400, body: { error, error_description: description }, headers: {} },
    });
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return tokenError('Invalid grant_type.', 'unsupported_grant_type');
    const assertion = form.get('assertion') ?? '';
    const [header64, claims64, signature64] = assertion.split('.');
    if (!header64 || !claims64 || !signature64) return tokenError('Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.');
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(header64, 'base64url').toString('utf8')) as Record<string, unknown>;
      claims = JSON.parse(Buffer.from(claims64, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return tokenError('Invalid JWT: not valid JSON.');
    }
    if (header.alg !== 'RS256') return tokenError('Invalid JWT: alg must be RS256.');
    const email = typeof claims.iss === 'string' ? claims.iss : '';
    const key = publicKeys.get(email);
    if (key === undefined) return tokenError('Invalid grant: account not found');
    const valid = createVerify('RSA-SHA256').update(`${header64}.${claims64}`).verify(key, Buffer.from(signature64, 'base64url'));
    if (!valid) return tokenError('Invalid JWT Signature.');
    const seconds = Math.floor(now() / 1000);
    if (claims.aud !== selfUrl) return tokenError('Invalid JWT: Failed audience check.');
    if (
      typeof claims.iat !== 'number' ||
      typeof claims.exp !== 'number' ||
      claims.exp <= seconds ||
      claims.iat > seconds + 60 ||
      claims.exp - claims.iat > 3600
    ) {
      return tokenError(
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    }
    if (typeof claims.scope !== 'string' || !claims.scope.split(' ').includes('https://www.googleapis.com/auth/cloud-platform')) {
      return tokenError('Invalid OAuth scope or ID token audience provided.', 'invalid_scope');
    }
    const ttl = options.vertex?.tokenTtlSeconds ?? 3600;
    const token = `ya29.sim-${randomBytes(18).toString('base64url')}`;
    tokens.set(token, { expiresAt: now() + ttl * 1000, clientEmail: email });
    return { reply: { status: 200, body: { access_token: token, expires_in: ttl, token_type: 'Bearer' }, headers: {} } };
  }

  /** Entra ID's v2.0 token endpoint, client-credentials grant only, with its AADSTS refusals. */
  function issueEntraToken(tenantId: string, rawBody: string): CloudMatch {
    const form = new URLSearchParams(rawBody);
    const refuse = (status: number, error: string, description: string): CloudMatch => ({
      reply: { status, body: { error, error_description: description, error_codes: [Number(description.slice(5, description.indexOf(':')))] }, headers: {} },
    });
    if (form.get('grant_type') !== 'client_credentials')
      return refuse(400, 'unsupported_grant_type', 'AADSTS70003: The app requested an unsupported grant type.');
    const app = options.azure?.entraApps?.[form.get('client_id') ?? ''];
    if (app === undefined || app.tenantId !== tenantId) {
      return refuse(
        400,
        'unauthorized_client',
        `AADSTS700016: Application with identifier '${form.get('client_id') ?? ''}' was not found in the directory '${tenantId}'.`,
      );
    }
    if (form.get('client_secret') !== app.clientSecret) return refuse(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.');
    if (form.get('scope') !== AZURE_SCOPE) return refuse(400, 'invalid_scope', `AADSTS70011: The provided value for the input parameter 'scope' is not valid.`);
    const ttl = options.azure?.tokenTtlSeconds ?? 3599;
    const token = `eyJ0eXAiOiJKV1Qi.sim-entra-${randomBytes(18).toString('base64url')}`;
    entraTokens.set(token, now() + ttl * 1000);
    return { reply: { status: 200, body: { token_type: 'Bearer', expires_in: ttl, ext_expires_in: ttl, access_token: token }, headers: {} } };
  }

  return {
    /** Tokens issued so far (tests count mints). */
    issuedTokens: () => tokens.size + entraTokens.size,
    async match(request: {
      method: string;
      path: string;
      query: Record<string, string>;
      headers: Record<string, string>;
      rawBody: string;
      body: unknown;
      selfUrl: string;
    }): Promise<CloudMatch | undefined> {
      const { method, path, query, headers } = request;
      if (method !== 'POST') return undefined;

      if (options.vertex && path === VERTEX_TOKEN_PATH) return issueToken(request.rawBody, `${request.selfUrl}${VERTEX_TOKEN_PATH}`);
      const entra = options.azure?.entraApps ? ENTRA_TOKEN.exec(path) : null;
      if (entra !== null) return issueEntraToken(decodeURIComponent(entra[1]!), request.rawBody);

      const azure = options.azure ? AZURE_DEPLOYMENT.exec(path) : null;
      if (options.azure && (azure !== null || path === '/openai/v1/responses')) {
        // Azure checks the credential first, then the version; a bearer must be an Entra ID token it issued.
        const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
        if (headers['api-key'] === undefined && bearer !== undefined) {
          const expiresAt = entraTokens.get(bearer);
          if (expiresAt === undefined || expiresAt <= now()) {
            return azureError(
              401,
              '401',
              'Unauthorized. Access token is missing, invalid, audience is incorrect (https://cognitiveservices.azure.com), or have expired.',
            );
          }
        } else if (headers['api-key'] !== options.azure.apiKey) {
          return azureError(
            401,
            '401',
            'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
          );
        }
        if (azure !== null) {
          const version = query['api-version'];
          if (version === undefined) return azureError(404, '404', 'Resource not found');
          if (!(options.azure.apiVersions ?? DEFAULT_AZURE_API_VERSIONS).includes(version)) return azureError(400, 'BadRequest', 'API version not supported');
          const deployment = decodeURIComponent(azure[1]!);
          if (azure[2] === 'images/generations') return { route: { protocol: 'openai-chat', endpoint: 'images', pathModel: deployment, pathStream: false } };
          if (azure[2] !== 'chat/completions' && azure[2] !== 'embeddings')
            return { route: { protocol: 'openai-chat', endpoint: 'media', pathModel: deployment, pathStream: false, media: azure[2] as MediaOperation } };
          if (azure[2] === 'embeddings')
            return { route: { protocol: 'openai-chat', endpoint: 'embed', pathModel: deployment, pathStream: false, embedding: 'azure-openai' } };
          return { route: { protocol: 'openai-chat', endpoint: 'generate', pathModel: deployment, pathStream: false } };
        }
        return { route: { protocol: 'openai-responses', endpoint: 'generate', pathModel: undefined, pathStream: false } };
      }

      const vertex = options.vertex ? VERTEX_MODEL.exec(path) : null;
      if (vertex !== null) {
        const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
        const issued = bearer === undefined ? undefined : tokens.get(bearer);
        if (issued === undefined || issued.expiresAt <= now()) {
          return googleError(
            401,
            'UNAUTHENTICATED',
            'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
          );
        }
        const [, , , publisher, model, method_] = vertex as unknown as string[];
        if (method_ === 'predict') {
          if (publisher !== 'google') return googleError(404, 'NOT_FOUND', `Publisher model ${publisher}/${model} does not serve :predict.`);
          if (/^imagen/i.test(decodeURIComponent(model!))) {
            return { route: { protocol: 'gemini-generate-content', endpoint: 'imagen', pathModel: decodeURIComponent(model!), pathStream: false } };
          }
          return {
            route: {
              protocol: 'gemini-generate-content',
              endpoint: 'embed',
              pathModel: decodeURIComponent(model!),
              pathStream: false,
              embedding: 'vertex-predict',
            },
          };
        }
        if (publisher === 'anthropic') {
          const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
          const invalid = (message: string): CloudMatch => ({
            reply: { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } }, headers: {} },
          });
          if (body.anthropic_version !== 'vertex-2023-10-16') return invalid(`anthropic_version: Input should be 'vertex-2023-10-16'`);
          if ('model' in body) return invalid('model: Extra inputs are not permitted');
          if ((body.stream === true) !== (method_ === 'streamRawPredict')) {
            return invalid(`stream: ${method_} requires "stream": ${method_ === 'streamRawPredict'}`);
          }
          return { route: { protocol: 'anthropic-messages', endpoint: 'generate', pathModel: decodeURIComponent(model!), pathStream: false } };
        }
        return {
          route: {
            protocol: 'gemini-generate-content',
            endpoint: 'generate',
            pathModel: decodeURIComponent(model!),
            pathStream: method_ === 'streamGenerateContent',
          },
        };
      }

      const bedrock = options.bedrock ? BEDROCK_MODEL.exec(path) : null;
      if (options.bedrock && bedrock !== null) {
        const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
        if (bearer !== undefined) {
          if (!(options.bedrock.apiKeys ?? []).includes(bearer))
            return awsError(403, 'UnrecognizedClientException', 'Invalid API Key format: Must start with pre-defined prefix');
        } else {
          const refusal = await verifySigV4({
            method,
            path,
            query,
            headers,
            rawBody: request.rawBody,
            secrets: options.bedrock.credentials ?? {},
            service: 'bedrock',
            now: now(),
          });
          if (refusal) return awsError(refusal.status, refusal.errorType, refusal.message);
        }
        const bedrockModel = decodeURIComponent(bedrock[1]!);
        if ((bedrock[2] === 'invoke' || bedrock[2] === 'invoke-with-response-stream') && BEDROCK_CLAUDE.test(bedrockModel)) {
          // Claude's native body, as Bedrock checks it: its own anthropic_version, no model, no stream.
          const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
          if (body.anthropic_version !== 'bedrock-2023-05-31') {
            return awsError(
              400,
              'ValidationException',
              'Malformed input request: #/anthropic_version: bedrock-2023-05-31 is the only accepted value, please reformat your input and try again.',
            );
          }
          for (const key of ['model', 'stream']) {
            if (key in body)
              return awsError(
                400,
                'ValidationException',
                `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
              );
          }
          return {
            route: {
              protocol: 'anthropic-messages',
              endpoint: 'generate',
              pathModel: bedrockModel,
              pathStream: bedrock[2] === 'invoke-with-response-stream',
              bedrockInvoke: true,
            },
          };
        }
        if (bedrock[2] === 'invoke-with-response-stream')
          return awsError(400, 'ValidationException', 'The model does not support streaming in this simulator.');
        if (bedrock[2] === 'invoke') {
          // InvokeModel takes the model's native body; the embeddings dialect checks it per model.
          return {
            route: {
              protocol: 'bedrock-converse',
              endpoint: 'embed',
              pathModel: decodeURIComponent(bedrock[1]!),
              pathStream: false,
              embedding: 'bedrock-invoke',
            },
          };
        }
        // The body rules bedrock-runtime applies before any model sees the request (shared with the golden fake upstream).
        const finding = checkConverseRequest(request.body);
        if (finding !== undefined) return awsError(400, 'ValidationException', finding);
        return {
          route: {
            protocol: 'bedrock-converse',
            endpoint: 'generate',
            pathModel: decodeURIComponent(bedrock[1]!),
            pathStream: bedrock[2] === 'converse-stream',
          },
        };
      }
      return undefined;
    },
  };
}

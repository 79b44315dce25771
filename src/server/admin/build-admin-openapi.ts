import { z } from 'zod';
import { ADMIN_OPERATIONS, type AdminOperation } from './admin-api-description.ts';

type Json = Record<string, unknown>;

/**
 * The admin API as an OpenAPI 3.1 document, built from the operation table and the handlers'
 * own zod schemas (OpenAPI 3.1 takes JSON Schema 2020-12, which is what zod emits). Request
 * bodies and query parameters are exact; answers are described in words, their TypeScript
 * shapes living in admin-api-types.ts.
 */
export function buildAdminOpenApi(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const operation of ADMIN_OPERATIONS) {
    const path = operation.route.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [operation.method.toLowerCase()]: describeOperation(operation) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard admin API',
      version,
      description:
        'Operator API behind the console and the switchyard CLI. Every call needs `Authorization: Bearer <admin token>` (GATEWAY_ADMIN_TOKEN or a token minted with POST /api/admin/tokens) or a console session cookie with its `x-csrf-token`; a role without the route’s permission gets 403 `insufficient_role`. Money is in USD (micro-USD where a field says so); times are ISO 8601 strings or epoch milliseconds. A refused input is a 400 naming the field.',
    },
    servers: [{ url: '/' }],
    security: [{ adminToken: [] }],
    components: {
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'GATEWAY_ADMIN_TOKEN (printed at first start; the break-glass owner credential) or an admin token minted with POST /api/admin/tokens.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['message', 'type', 'code'],
              properties: { message: { type: 'string' }, type: { type: 'string' }, code: { type: 'string' }, param: { type: ['string', 'null'] } },
            },
          },
        },
      },
    },
    paths,
  };
}

function describeOperation(operation: AdminOperation): Json {
  const status = String(operation.status ?? 200);
  const parameters = [
    ...[...operation.route.matchAll(/:(\w+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } })),
    ...(operation.query ? queryParameters(operation.query) : []),
  ];
  return {
    tags: [operation.tag],
    summary: operation.summary,
    operationId: `${operation.method.toLowerCase()}${operation.route.replace(/^\/api\/admin/, '').replace(/[/:-](\w)/g, (_, letter: string) => letter.toUpperCase())}`,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(operation.body) } } } } : {}),
    responses: {
      [status]: status === '204' ? { description: 'Done; no body.' } : { description: 'OK', content: { 'application/json': { schema: {} } } },
      '400': errorResponse('The input is invalid; the message names the field and what it must be.'),
      '401': errorResponse('The admin token is missing or wrong (failures are throttled per address).'),
      ...(operation.route.includes(':') ? { '404': errorResponse('No such record.') } : {}),
      ...(operation.method === 'POST' || operation.method === 'PATCH' ? { '409': errorResponse('The change conflicts with an existing record.') } : {}),
    },
  };
}

function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
}

function queryParameters(schema: z.ZodType): Json[] {
  const described = jsonSchema(schema);
  const properties = (described.properties ?? {}) as Record<string, Json>;
  const required = new Set((described.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
}

function errorResponse(description: string): Json {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}

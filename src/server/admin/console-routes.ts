import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app-deps.ts';

/** Where `npm run build --prefix console` writes the console (see README, "Console"). */
const DEFAULT_CONSOLE_DIRECTORY = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

// The console talks only to this origin, with a Bearer header; nothing may frame it.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Serves the built console at `/console`: hashed files under `assets/` are cached for a year,
 * everything else is revalidated; a path without a file extension is a page of the single-page
 * app and gets `index.html`. (A browser opening `/` is sent here by the root route in
 * health-routes.ts; API clients probing the root keep getting the JSON status.)
 */
export function registerConsoleRoutes(app: FastifyInstance, _deps: AppDeps, directory = DEFAULT_CONSOLE_DIRECTORY): void {
  const root = resolve(directory);

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = decodePath((request.params as Record<string, string | undefined>)['*'] ?? '');
    const file = path === undefined ? undefined : resolve(root, path === '' ? 'index.html' : path);
    if (file === undefined || (file !== root && !file.startsWith(root + sep))) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
    }
    const index = resolve(root, 'index.html');
    const isPage = file === index || extname(file) === '';
    const found = (await fileSize(file)) !== undefined ? file : isPage ? index : undefined;
    if (found === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
    const size = await fileSize(found);
    if (size === undefined) return reply.code(503).headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);

    const immutable = found.startsWith(resolve(root, 'assets') + sep);
    return reply
      .headers(SECURITY_HEADERS)
      .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .type(CONTENT_TYPES[extname(found)] ?? 'application/octet-stream')
      .header('content-length', size)
      .send(createReadStream(found));
  };

  app.get('/console', serve);
  app.get('/console/*', serve);
}

/** Fastify has already percent-decoded the wildcard; a NUL byte is never a file name. */
function decodePath(raw: string): string | undefined {
  return raw.includes('\0') ? undefined : raw;
}

/**
 * The file's size, or undefined when it is not a file. Files are streamed from disk on every
 * request, never held: the console is a few hundred KB that most deployments open rarely, and
 * the page cache keeps what is read often (idle memory, issue 33).
 */
async function fileSize(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Switchyard console not built</title></head>
<body><h1>The console is not built</h1><p>Run <code>npm run build:console</code> in the gateway's directory (it runs on <code>npm ci</code> too), then reload.</p></body></html>`;

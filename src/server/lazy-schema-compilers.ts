import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's schema compilers (Ajv for validation, fast-json-stringify for serialisation, ~0.6 MB of
 * source with their dependencies) loaded only when a route declares a JSON schema. Fastify
 * requires both when it builds an app; this gateway's routes declare none (bodies are read by zod
 * in each handler), so a started gateway never needs them (idle RSS; BENCHMARKS.md). They are
 * resolved from Fastify's own location, so the versions are the ones it depends on.
 * One difference should a route add a schema: Fastify treats these as custom compilers, so a
 * `headers` schema's property names are not lower-cased for it.
 */
const requireFromFastify = createRequire(import.meta.resolve('fastify'));

type CompilerFactory = (...args: unknown[]) => unknown;

function onFirstUse(library: string): CompilerFactory {
  let factory: CompilerFactory | undefined;
  return (...args) => {
    factory ??= (requireFromFastify(library) as () => CompilerFactory)();
    return factory(...args);
  };
}

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

export const lazySchemaCompilers: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    buildValidator: onFirstUse('@fastify/ajv-compiler') as Factories['buildValidator'],
    buildSerializer: onFirstUse('@fastify/fast-json-stringify-compiler') as Factories['buildSerializer'],
  },
};

import type { z } from 'zod';
import { invalidRequest } from '../../core/gateway-error.ts';

/** Validates admin input; the first problem becomes a 400 that names the field and what it must be. */
export function parseAdminInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const message =
    issue?.code === 'unrecognized_keys'
      ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
      : issue?.code === 'invalid_type' && issue.input === undefined
        ? 'is required'
        : (issue?.message ?? 'is not valid');
  throw invalidRequest(path ? `${path}: ${message}` : message, path || undefined);
}

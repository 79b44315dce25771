import type { z } from 'zod';
import { invalidRequest } from '../core/gateway-error.ts';
import { describeIssue, valueAt } from '../schemas/describe-issue.ts';

/** Validates admin input; the first problem becomes a 400 that names the field and what it must be. */
export function parseAdminInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const input = value ?? {};
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw invalidRequest('The request body is not valid.');
  const path = issue.path.map(String);
  if (path.length === 0 && issue.code === 'invalid_type') throw invalidRequest('The request body must be a JSON object.');

  if (issue.code === 'unrecognized_keys') {
    // Name the unknown field itself, so a typo like "modles" points at the culprit.
    const field = [...path, issue.keys[0] ?? ''].join('.');
    const names = issue.keys.map((key) => `"${key}"`).join(', ');
    const where = path.length > 0 ? `${path.join('.')}: ` : '';
    throw invalidRequest(`${where}unknown field${issue.keys.length > 1 ? 's' : ''} ${names}`, field);
  }
  const field = path.join('.');
  throw invalidRequest(`${field}: ${describeIssue(issue, valueAt(input, issue.path))}`, field);
}

import type { z } from 'zod';

/**
 * Zod 4 does not report the offending input unless asked, so "missing" is told apart from
 * "wrong type" by looking the path up in the original value. Zod's own default messages
 * ("Invalid input: expected string, received number") are rephrased; messages the schema
 * spells out are kept.
 */
export function describeIssue(issue: z.core.$ZodIssue, given: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (given === undefined) return 'is required';
      return isZodDefault(issue.message) ? `must be ${typeNoun(issue.expected)}` : issue.message;
    case 'invalid_union': {
      if (given === undefined) return 'is required';
      const expected = issue.errors.flatMap((branch) =>
        branch.flatMap((inner) => (inner.code === 'invalid_type' && inner.path.length === 0 ? [typeNoun(inner.expected)] : [])),
      );
      return expected.length > 0 && isZodDefault(issue.message) ? `must be ${[...new Set(expected)].join(' or ')}` : issue.message;
    }
    case 'too_small':
    case 'too_big': {
      if (!isZodDefault(issue.message)) return issue.message;
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const word = issue.code === 'too_small' ? 'least' : 'most';
      switch (issue.origin) {
        case 'string':
          return `must be at ${word} ${bound} characters long`;
        case 'array':
        case 'set':
          return `must have at ${word} ${bound} items`;
        default:
          return `must be at ${word} ${bound}`;
      }
    }
    default:
      return issue.message;
  }
}

function isZodDefault(message: string): boolean {
  return /^(Invalid input|Too small|Too big)/.test(message);
}

function typeNoun(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'record':
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    default:
      return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
  }
}

export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

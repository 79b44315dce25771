/**
 * Something the target protocol could not express exactly. Never dropped silently: warnings
 * are stored on the usage log row and echoed in the `x-switchyard-warnings` response header.
 */
export type Warning =
  | { type: 'unsupported'; feature: string; detail?: string }
  | { type: 'clamped'; feature: string; from: unknown; to: unknown }
  | { type: 'compatibility'; feature: string; detail: string };

export function formatWarning(warning: Warning): string {
  switch (warning.type) {
    case 'unsupported':
      return `unsupported:${warning.feature}`;
    case 'clamped':
      return `clamped:${warning.feature}`;
    case 'compatibility':
      return `compatibility:${warning.feature}`;
    default: {
      const unreachable: never = warning;
      return unreachable;
    }
  }
}

import type { ComponentChildren } from 'preact';
import type { Resource } from '../lib/use-resource.ts';

/** Loading and error states said in words; children render once data is there. */
export function AsyncView<T>(props: { resource: Resource<T>; what: string; children: (data: T) => ComponentChildren }) {
  const { resource, what } = props;
  if (resource.error) {
    return (
      <div class="notice error" role="alert">
        <p>
          Could not load {what}: {resource.error.message}
        </p>
        <button type="button" onClick={resource.reload}>
          Try again
        </button>
      </div>
    );
  }
  if (resource.data === undefined) {
    return (
      <p class="muted" role="status">
        Loading {what}…
      </p>
    );
  }
  return <>{props.children(resource.data)}</>;
}

import type { ComponentChildren } from 'preact';

/** A failure said where it happened, announced to screen readers at once. */
export function ErrorNotice(props: { children: ComponentChildren }) {
  return (
    <p class="notice error" role="alert">
      {props.children}
    </p>
  );
}

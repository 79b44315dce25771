import { render } from 'preact';
import { App } from './app.tsx';
import { useLanguage } from './i18n/use-language.ts';
import './styles.css';

const root = document.getElementById('app')!;
// Replace the static "Loading…" placeholder rather than render beside it.
root.textContent = '';
/** Switching language re-mounts the app (key), so every page re-renders its words at once. */
function Root() {
  return <App key={useLanguage()} />;
}
render(<Root />, root);

import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

const root = document.getElementById('app')!;
// Replace the static "Loading…" placeholder rather than render beside it.
root.textContent = '';
render(<App />, root);

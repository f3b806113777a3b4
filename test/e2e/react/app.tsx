// The integrator page of react-example.spec.ts: the README's React example, rendered as an app would.
import { createRoot } from 'react-dom/client';
import { ConnectAccounts } from './readme-example.js';

createRoot(document.getElementById('root')!).render(<ConnectAccounts />);

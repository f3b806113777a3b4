import { useSocialLink } from 'social-link-kit/react';
import 'social-link-kit/define.js'; // registers <social-link-button>

// Your backend creates the session with your API key (POST /api/profiles/link-sessions) and answers {url, sessionId}.
const createSession = () => fetch('/link-session', { method: 'POST' }).then((response) => response.json());

export function ConnectAccounts() {
  const link = useSocialLink({ getUrl: createSession, onError: (error) => console.warn(error.message) });
  return (
    <section>
      <button type="button" onClick={() => link.open()} disabled={link.state === 'opening'}>
        Connect accounts
      </button>
      <p role="status">{link.state === 'linked' ? `Linked: ${link.linked.join(', ')}` : link.state}</p>
      {/* Or the ready-made button: React 19 sets getUrl as a property and listens to the widget's events. */}
      <social-link-button getUrl={createSession} onsocial-link-success={(event) => console.info(`linked ${event.detail.platform}`)} />
    </section>
  );
}

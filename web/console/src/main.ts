import { ApiClient } from './api/client.js';
import { sessionCredentialStore } from './api/credentials.js';
import { consoleView, type ConsoleHandle } from './ui/console-view.js';
import { signInView } from './ui/sign-in.js';

declare global {
  interface Window {
    /** The running console, for the browser tests and the frame-rate bench (nothing else reads it). */
    stormhookConsole?: ConsoleHandle;
  }
}

/** The console's entry point: the sign-in, or the console when this tab holds credentials. */
function boot(): void {
  const root = document.getElementById('app');
  if (!root) return;
  const api = new ApiClient(sessionCredentialStore());
  let stop: (() => void) | undefined;
  const showSignIn = () => {
    stop?.();
    stop = undefined;
    delete window.stormhookConsole;
    root.replaceChildren(signInView(api, showConsole));
  };
  const showConsole = () => {
    const view = consoleView(root, api, showSignIn);
    stop = view.stop;
    window.stormhookConsole = view.handle;
  };
  api.onSignedOut = showSignIn;
  if (api.credentials) showConsole();
  else showSignIn();
}

boot();

import type { ApiClient } from '../api/client.js';
import { field, h } from './dom.js';

/** Sign-in: username and password (access and refresh tokens), or an API key. */
export function signInView(api: ApiClient, onSignedIn: () => void): HTMLElement {
  const status = h('p', { class: 'error', role: 'alert' });
  const username = h('input', { name: 'username', autocomplete: 'username', required: true });
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const apiKey = h('input', { name: 'apiKey', type: 'password', autocomplete: 'off', required: true });
  const busy = (form: HTMLFormElement, on: boolean) => form.querySelectorAll('button').forEach((b) => (b.disabled = on));

  const passwordForm: HTMLFormElement = h(
    'form',
    { 'aria-label': 'Sign in with username and password' },
    field('Username (e-mail)', username),
    field('Password', password),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
  );
  passwordForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    busy(passwordForm, true);
    const answer = await api.signIn(username.value.trim(), password.value);
    busy(passwordForm, false);
    if (answer.ok) onSignedIn();
    else status.textContent = answer.status === 401 ? 'Wrong username or password.' : answer.message;
  });

  const keyForm: HTMLFormElement = h(
    'form',
    { 'aria-label': 'Sign in with an API key', class: 'hidden' },
    field('API key', apiKey),
    h('button', { type: 'submit', class: 'primary' }, 'Use API key'),
  );
  keyForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    busy(keyForm, true);
    const answer = await api.signInWithApiKey(apiKey.value.trim());
    busy(keyForm, false);
    if (answer.ok) onSignedIn();
    else status.textContent = answer.status === 401 ? 'That API key is not valid.' : answer.message;
  });

  const tab = (label: string, show: HTMLFormElement, hide: HTMLFormElement) => {
    const button = h('button', { type: 'button', role: 'tab', 'aria-selected': show === passwordForm ? 'true' : 'false' }, label);
    button.addEventListener('click', () => {
      show.classList.remove('hidden');
      hide.classList.add('hidden');
      button.parentElement?.querySelectorAll('button').forEach((b) => b.setAttribute('aria-selected', String(b === button)));
      status.textContent = '';
      show.querySelector('input')?.focus();
    });
    return button;
  };

  const view = h(
    'main',
    { class: 'signin' },
    h('h1', {}, 'Stormhook console'),
    h('p', { class: 'muted' }, 'Weather, alarms and deliveries of your account.'),
    h('div', { class: 'tabs', role: 'tablist' }, tab('Password', passwordForm, keyForm), tab('API key', keyForm, passwordForm)),
    passwordForm,
    keyForm,
    status,
  );
  queueMicrotask(() => username.focus());
  return view;
}

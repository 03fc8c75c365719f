type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * A tiny element builder: attributes (on* are listeners; false and null are left out), then children
 * (text is escaped by the DOM). The console needs no framework.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

let ids = 0;
/** A unique id for a label's `for`. */
export const uid = (prefix: string): string => `${prefix}-${(ids += 1)}`;

/** A labelled input: the label names it for screen readers and clicks. */
export function field(label: string, input: HTMLInputElement | HTMLSelectElement): HTMLElement {
  input.id ||= uid('f');
  return h('div', {}, h('label', { for: input.id }, label), input);
}

export function checkbox(label: string, checked: boolean, attrs: Attrs = {}): { wrap: HTMLElement; input: HTMLInputElement } {
  const input = h('input', { type: 'checkbox', id: uid('c'), ...attrs });
  input.checked = checked;
  return { input, wrap: h('label', { class: 'inline', for: input.id }, input, label) };
}

export function select(options: readonly string[], value: string, attrs: Attrs = {}): HTMLSelectElement {
  const element = h('select', attrs, ...options.map((o) => h('option', { value: o }, o === '' ? '(any)' : o)));
  element.value = value;
  return element;
}

export const time = (ms: number | null | undefined): string => (ms ? new Date(ms).toLocaleString() : '—');

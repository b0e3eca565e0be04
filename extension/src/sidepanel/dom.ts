// Building the panel's DOM from text only: page and agent content never goes through innerHTML.

type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; title?: string; data?: Record<string, string>; onclick?: (e: MouseEvent) => void } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  if (props.title) node.title = props.title;
  for (const [k, v] of Object.entries(props.data ?? {})) node.dataset[k] = v;
  if (props.onclick) node.onclick = props.onclick;
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`missing #${id}`);
  return node as T;
}

export const timeOf = (iso: string) => new Date(iso).toLocaleTimeString();

// DOM traversal that crosses open shadow roots and same-origin iframes, the way the snapshot sees the page.

/** The parent in the flat tree: parentElement, or the shadow host when leaving a shadow root. */
export function composedParent(node: Node): Element | null {
  if (isElement(node) && node.assignedSlot) return node.assignedSlot;
  const parent = node.parentNode;
  if (!parent) return null;
  if (isShadowRoot(parent)) return parent.host;
  return isElement(parent) ? parent : null;
}

/** `ancestor` contains `node` through shadow roots (not through iframes). */
export function composedContains(ancestor: Element, node: Node | null): boolean {
  let n: Node | null = node;
  while (n) {
    if (n === ancestor) return true;
    n = isShadowRoot(n) ? n.host : n.parentNode;
  }
  return false;
}

// Same-origin iframes are other JS realms: `instanceof` fails across them, node types do not.
export function isElement(n: unknown): n is Element {
  return typeof n === "object" && n !== null && (n as Node).nodeType === 1;
}
export function isShadowRoot(n: Node): n is ShadowRoot {
  return n.nodeType === 11 && "host" in n;
}

/** The iframe's document when this frame may read it (same origin), else null. */
export function frameDocument(frame: Element): Document | null {
  if (frame.localName !== "iframe" && frame.localName !== "frame") return null;
  try {
    return (frame as HTMLIFrameElement).contentDocument;
  } catch {
    return null;
  }
}

/**
 * Every element under `root`, in document order, entering open shadow roots and (unless `frames` is
 * false: this document only) same-origin iframes.
 */
export function* deepElements(root: Document | ShadowRoot | Element, opts: { frames?: boolean } = {}): Generator<Element> {
  const start = isElement(root) ? [root] : Array.from(root.children);
  const stack: Element[] = start.reverse();
  while (stack.length) {
    const el = stack.pop()!;
    yield el;
    const kids: Element[] = [];
    const shadow = el.shadowRoot;
    if (shadow) kids.push(...Array.from(shadow.children));
    kids.push(...Array.from(el.children));
    const doc = opts.frames === false ? null : frameDocument(el);
    if (doc?.documentElement) kids.push(doc.documentElement);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

/** querySelectorAll that also looks inside open shadow roots and same-origin iframes. */
export function deepQueryAll(root: Document, css: string): Element[] {
  const out: Element[] = [];
  const scopes: (Document | ShadowRoot)[] = [root];
  for (const el of deepElements(root)) {
    if (el.shadowRoot) scopes.push(el.shadowRoot);
    const doc = frameDocument(el);
    if (doc) scopes.push(doc);
  }
  const seen = new Set<Element>();
  for (const scope of scopes) {
    for (const el of Array.from(scope.querySelectorAll(css))) {
      if (!seen.has(el)) {
        seen.add(el);
        out.push(el);
      }
    }
  }
  return out;
}

/** The focused element, looking through shadow roots and same-origin iframes. */
export function deepActiveElement(doc: Document = document): Element | null {
  let active: Element | null = doc.activeElement;
  while (active) {
    const inner = active.shadowRoot?.activeElement ?? frameDocument(active)?.activeElement ?? null;
    if (!inner || inner === active) break;
    active = inner;
  }
  return active;
}

/** The topmost element at a point, descending into open shadow roots. */
export function deepElementFromPoint(doc: Document, x: number, y: number): Element | null {
  let el = doc.elementFromPoint(x, y);
  while (el?.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

/** The window an element lives in (its iframe's window for same-origin frames). */
export function windowOf(el: Element): Window & typeof globalThis {
  return (el.ownerDocument.defaultView ?? window) as Window & typeof globalThis;
}

import { deepElements } from "./deep-dom.ts";
import { isSecretField } from "./element-state.ts";

/**
 * outerHTML without secrets: a password or one-time-code input written with a `value` attribute (server-rendered
 * forms do this) would otherwise carry the secret. Works on a clone, never touches the page.
 */
export function safeOuterHtml(el: Element): string {
  const clone = el.cloneNode(true) as Element;
  for (const node of deepElements(clone)) {
    if (isSecretField(node)) node.removeAttribute("value");
  }
  return clone.outerHTML;
}

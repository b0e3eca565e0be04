import { isSecretField } from "../dom/element-state.ts";

/**
 * outerHTML without secrets: a password or one-time-code input written with a `value` attribute (server-rendered
 * forms do this) would otherwise carry the secret. The secret test runs on the live inputs, so a password field
 * switched to type=text by a "show password" toggle stays redacted. Works on a clone, never touches the page.
 */
export function safeOuterHtml(el: Element): string {
  const clone = el.cloneNode(true) as Element;
  const live = [el, ...Array.from(el.querySelectorAll("input, textarea"))];
  const copies = [clone, ...Array.from(clone.querySelectorAll("input, textarea"))];
  live.forEach((original, i) => {
    if (isSecretField(original)) {
      copies[i]?.removeAttribute("value");
      if (copies[i]?.localName === "textarea") copies[i]!.textContent = "";
    }
  });
  return clone.outerHTML;
}

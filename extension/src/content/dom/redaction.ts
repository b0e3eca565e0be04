import { readValue } from "./input-events.ts";

/**
 * Fields whose value never leaves the page and that agents may not type into: passwords, one-time
 * codes and payment fields (every `cc-*` autocomplete token). A field once seen as a password stays
 * a secret after a "show password" toggle turns it into type=text.
 */
const SECRET_AUTOCOMPLETE = /(^|\s)(one-time-code|current-password|new-password|cc-[a-z-]+)(\s|$)/i;
const seenSecret = new WeakSet<Element>();

export function isSecretField(el: Element): boolean {
  if (seenSecret.has(el)) return true;
  const type = (el.getAttribute("type") ?? "").toLowerCase();
  const autocomplete = el.getAttribute("autocomplete") ?? "";
  if (type === "password" || SECRET_AUTOCOMPLETE.test(autocomplete)) {
    seenSecret.add(el);
    return true;
  }
  return false;
}

/** What a result may say about a field's value: the value itself, or only its length for secrets. */
export function reportedValue(el: Element): { value: string } | { value_length: number; redacted: true } {
  const value = readValue(el);
  return isSecretField(el) ? { value_length: value.length, redacted: true } : { value };
}

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

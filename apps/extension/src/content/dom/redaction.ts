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

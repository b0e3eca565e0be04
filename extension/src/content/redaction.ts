/**
 * Fields whose value never leaves the page: passwords and one-time codes. A field once seen as a
 * password stays redacted after a "show password" toggle turns it into type=text.
 */
const SECRET_AUTOCOMPLETE = /\b(one-time-code|current-password|new-password|cc-number|cc-csc)\b/i;
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

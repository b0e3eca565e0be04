import { isSecretField } from "../dom/element-state.ts";
import { readValue } from "../dom/input-events.ts";

/** What a result may say about a field's value: the value itself, or only its length for secrets. */
export function reportedValue(el: Element): { value: string } | { value_length: number; redacted: true } {
  const value = readValue(el);
  return isSecretField(el) ? { value_length: value.length, redacted: true } : { value };
}

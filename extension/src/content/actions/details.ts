import { PCD_LIMITS } from "@crumbs/schemas/pcd";
import { registerAction } from "./registry.ts";
import { targetParams } from "./params.ts";
import { formPurpose } from "../../perception/form-purpose.ts";
import { findCollection } from "../dom/collection.ts";
import { hrefOf, statesOf, valueOf } from "../dom/element-info.ts";
import { isVisible } from "../dom/element-state.ts";
import { placeOf } from "../dom/place.ts";
import { isSecretField } from "../dom/redaction.ts";
import { liveRef } from "../dom/refs.ts";
import { resolveTarget } from "../dom/resolve-target.ts";
import { nameOf, roleOf } from "../dom/role-utils.ts";
import { clip } from "../dom/text.ts";

// details: one element as an agent needs it before acting: role, name, states, value (never of a
// secret field: "[secret]"), where it is, the text beside it, and its form (with every field and the
// submit button, by ref) or its collection (how many items, which one). Read-only; bounded like the pcd.

const NEAR_CHARS = 200;
const SECRET = "[secret]";

function typeOf(el: Element): string {
  const tag = el.localName;
  if (tag === "input") return (el as HTMLInputElement).type;
  return tag === "textarea" || tag === "select" ? tag : roleOf(el);
}

function isControl(el: Element): boolean {
  if (el.localName === "input") return !["hidden", "submit", "button", "reset", "image"].includes((el as HTMLInputElement).type);
  return el.localName === "select" || el.localName === "textarea";
}

function formOf(el: Element) {
  const form = (el as HTMLInputElement).form ?? el.closest("form");
  if (!form) return undefined;
  const controls = Array.from(form.elements).filter((c) => isControl(c) && isVisible(c));
  const fields = controls.slice(0, PCD_LIMITS.fields).map((c) => {
    const role = roleOf(c);
    const f: Record<string, unknown> = { ref: liveRef(c), label: clip(nameOf(c, role), PCD_LIMITS.label), type: typeOf(c) };
    if ((c as HTMLInputElement).required) f.required = true;
    if (isSecretField(c)) f.secret = true;
    return f;
  });
  const submit = Array.from(form.elements).find(
    (b) => isVisible(b) && ((b.localName === "button" && (b as HTMLButtonElement).type === "submit") || (b.localName === "input" && (b as HTMLInputElement).type === "submit")),
  );
  const label = nameOf(form, "form");
  const out: Record<string, unknown> = {
    ...(label ? { label: clip(label, PCD_LIMITS.label) } : {}),
    purpose: formPurpose({
      label,
      fields: controls.map((c) => ({ role: roleOf(c), type: typeOf(c), label: nameOf(c), secret: isSecretField(c) })),
      submitLabel: submit ? nameOf(submit) : undefined,
    }),
    fields,
  };
  if (controls.length > fields.length) out.more_fields = controls.length - fields.length;
  if (submit) out.submit = { ref: liveRef(submit), label: clip(nameOf(submit), PCD_LIMITS.label) };
  return out;
}

function collectionOf(el: Element) {
  const { items } = findCollection(el);
  const index = items.findIndex((item) => item !== el && item.contains(el));
  if (items.length < 2 || index < 0) return undefined;
  return { count: items.length, index, item: clip((items[index] as HTMLElement).innerText ?? "", NEAR_CHARS) };
}

/** The text around the element: the nearest ancestor (three at most) that says more than its own name. */
function nearbyText(el: Element, name: string): string | undefined {
  let p = el.parentElement;
  for (let depth = 0; p && depth < 3; depth++, p = p.parentElement) {
    const text = clip((p as HTMLElement).innerText ?? "", NEAR_CHARS + name.length);
    const rest = clip(text.replace(name, " "), NEAR_CHARS);
    if (rest.length > 2) return rest;
  }
  return undefined;
}

registerAction("details", targetParams, async (params) => {
  const el = resolveTarget(params);
  const role = roleOf(el);
  const name = nameOf(el, role);
  const out: Record<string, unknown> = { ref: liveRef(el), role, name: clip(name, PCD_LIMITS.label) };
  const states = statesOf(el, el.localName, role);
  if (states) out.states = states;
  if (isSecretField(el)) out.value = SECRET;
  else {
    const value = valueOf(el, el.localName);
    if (value) out.value = clip(value, NEAR_CHARS);
  }
  const href = role === "link" ? hrefOf(el) : undefined;
  if (href) out.href = href;
  const { scope } = placeOf(el);
  if (scope) out.landmark = scope;
  const near = nearbyText(el, name);
  if (near) out.nearby = near;
  const form = formOf(el);
  if (form) out.form = form;
  else {
    const collection = collectionOf(el);
    if (collection) out.collection = collection;
  }
  return out;
});

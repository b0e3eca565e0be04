import type { PcdForm } from "@crumbs/schemas/pcd";

// What a form is for, from what a user sees of it: its name, its fields and its button. The pcd
// and `details` both say it, from this one function. Words in English, as the rest of the page
// descriptions; a form that matches nothing is "other".

export type FormPurpose = NonNullable<PcdForm["purpose"]>;

export interface FormFacts {
  label?: string | undefined;
  /** The landmark role it is in (a `search` landmark makes a search form). */
  landmarkRole?: string | undefined;
  fields: Array<{ role: string; type?: string | undefined; label: string; secret?: boolean | undefined }>;
  submitLabel?: string | undefined;
}

const SIGNUP = /\b(sign\s?up|register|create (an )?account|join)\b/i;
const LOGIN = /\b(sign\s?in|log\s?in|login|signin)\b/i;
const SEARCH = /\b(search|find)\b/i;
const NEWSLETTER = /\b(subscribe|newsletter|sign me up)\b/i;
const CHECKOUT = /\b(checkout|check out|payment|pay|card|billing|shipping|place order|order)\b/i;
const CONTACT = /\b(contact|message|send us|get in touch|feedback)\b/i;

export function formPurpose(f: FormFacts): FormPurpose {
  const words = [f.label ?? "", f.submitLabel ?? "", ...f.fields.map((x) => x.label)].join(" | ");
  const passwords = f.fields.filter((x) => x.type === "password").length;
  if (passwords >= 2 || (passwords >= 1 && SIGNUP.test(words))) return "signup";
  if (passwords === 1 || LOGIN.test(f.label ?? "") || LOGIN.test(f.submitLabel ?? "")) return "login";
  if (f.landmarkRole === "search" || f.fields.some((x) => x.role === "searchbox" || x.type === "search")) return "search";
  if (SEARCH.test(f.label ?? "") || SEARCH.test(f.submitLabel ?? "")) return "search";
  if (f.fields.some((x) => x.secret) || CHECKOUT.test(words)) return "checkout";
  if (NEWSLETTER.test(words)) return "newsletter";
  if (SIGNUP.test(words)) return "signup";
  if (CONTACT.test(words) || f.fields.some((x) => x.type === "textarea" && /message|comment/i.test(x.label))) return "contact";
  return "other";
}

/** What roles.ts needs to know about an element, gathered by the DOM walker. */
export interface RoleInput {
  tag: string;
  /** The `role` attribute, verbatim. */
  roleAttr?: string | null;
  type?: string | null;
  hasHref?: boolean;
  multiple?: boolean;
  size?: number;
  /** An accessible name from aria-label/labelledby: makes section/form landmarks. */
  hasExplicitName?: boolean;
  /** header/footer inside article, aside, main, nav or section are not landmarks. */
  inSectioning?: boolean;
  altEmpty?: boolean;
}

const INPUT_ROLES: Record<string, string> = {
  button: "button",
  submit: "button",
  reset: "button",
  image: "button",
  checkbox: "checkbox",
  radio: "radio",
  range: "slider",
  number: "spinbutton",
  search: "searchbox",
  email: "textbox",
  tel: "textbox",
  text: "textbox",
  url: "textbox",
  password: "textbox",
  file: "button",
  color: "button",
  date: "textbox",
  "datetime-local": "textbox",
  month: "textbox",
  time: "textbox",
  week: "textbox",
};

const TAG_ROLES: Record<string, string> = {
  article: "article",
  aside: "complementary",
  blockquote: "blockquote",
  button: "button",
  caption: "caption",
  code: "code",
  dd: "definition",
  del: "deletion",
  dialog: "dialog",
  dfn: "term",
  dt: "term",
  details: "group",
  fieldset: "group",
  figure: "figure",
  h1: "heading",
  h2: "heading",
  h3: "heading",
  h4: "heading",
  h5: "heading",
  h6: "heading",
  hr: "separator",
  iframe: "iframe",
  ins: "insertion",
  li: "listitem",
  main: "main",
  menu: "list",
  meter: "meter",
  nav: "navigation",
  ol: "list",
  optgroup: "group",
  option: "option",
  output: "status",
  p: "paragraph",
  progress: "progressbar",
  search: "search",
  summary: "button",
  table: "table",
  tbody: "rowgroup",
  td: "cell",
  textarea: "textbox",
  tfoot: "rowgroup",
  th: "columnheader",
  thead: "rowgroup",
  tr: "row",
  ul: "list",
  img: "img",
  svg: "img",
  math: "math",
};

/** Roles the walker never prints on their own: their content is what matters. */
const PRESENTATIONAL = new Set(["presentation", "none"]);

/** The first valid token of the role attribute wins, as in the ARIA spec. */
export function explicitRole(roleAttr: string | null | undefined): string | undefined {
  if (!roleAttr) return undefined;
  for (const token of roleAttr.trim().toLowerCase().split(/\s+/)) {
    if (token) return token;
  }
  return undefined;
}

export function implicitRole(input: RoleInput): string {
  const tag = input.tag.toLowerCase();
  switch (tag) {
    case "a":
    case "area":
      return input.hasHref ? "link" : "generic";
    case "input": {
      const type = (input.type ?? "text").toLowerCase();
      if (type === "hidden") return "none";
      return INPUT_ROLES[type] ?? "textbox";
    }
    case "select":
      return input.multiple || (input.size ?? 0) > 1 ? "listbox" : "combobox";
    case "header":
      return input.inSectioning ? "generic" : "banner";
    case "footer":
      return input.inSectioning ? "generic" : "contentinfo";
    case "section":
      return input.hasExplicitName ? "region" : "generic";
    case "form":
      return input.hasExplicitName ? "form" : "generic";
    case "img":
      return input.altEmpty ? "presentation" : "img";
    default:
      return TAG_ROLES[tag] ?? "generic";
  }
}

export function computeRole(input: RoleInput): string {
  return explicitRole(input.roleAttr) ?? implicitRole(input);
}

export function isPresentational(role: string): boolean {
  return PRESENTATIONAL.has(role);
}

/** Roles a user operates: a visible element with one of these gets a ref. */
export const INTERACTIVE_ROLES = new Set([
  "button",
  "checkbox",
  "combobox",
  "link",
  "listbox",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "radio",
  "scrollbar",
  "searchbox",
  "slider",
  "spinbutton",
  "switch",
  "tab",
  "textbox",
  "treeitem",
]);

/** Roles whose accessible name comes from their content (ARIA "name from content"). */
export const NAME_FROM_CONTENT = new Set([
  "button",
  "cell",
  "checkbox",
  "columnheader",
  "gridcell",
  "heading",
  "link",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "option",
  "radio",
  "row",
  "rowheader",
  "switch",
  "tab",
  "tooltip",
  "treeitem",
]);

/** Roles that carry a value shown after the colon. */
export const VALUE_ROLES = new Set(["textbox", "searchbox", "combobox", "slider", "spinbutton", "progressbar", "meter"]);

export function headingLevel(tag: string): number | undefined {
  const m = /^h([1-6])$/i.exec(tag);
  return m ? Number(m[1]) : undefined;
}

// An icon button without a name ("<button><svg/></button>" in each card of a list) is told apart by the
// group it is in: `button "delete: Latex allergy"`. The first part is what its class, id, test id or icon
// says it does (a word from ACTIONS, else the role), the second the label of the nearest group around it
// (a list item, row, article or card with a heading). accessible-name.ts gives this name when nothing else
// does, so the snapshot, role selectors and the risk check all see the same name.

/** Words in class names and icon names, and the action they mean. */
const ACTIONS: Record<string, string> = {
  delete: "delete", remove: "delete", trash: "delete", bin: "delete",
  edit: "edit", pencil: "edit", pen: "edit",
  close: "close", dismiss: "close",
  more: "more", ellipsis: "more", dots: "more", kebab: "more", overflow: "more", menu: "menu",
  add: "add", plus: "add", new: "add", create: "add",
  copy: "copy", duplicate: "copy", share: "share", download: "download", upload: "upload",
  search: "search", settings: "settings", gear: "settings", cog: "settings",
  star: "favorite", favorite: "favorite", heart: "favorite", like: "like",
  expand: "expand", collapse: "collapse", chevron: "expand", info: "info",
  refresh: "refresh", reload: "refresh", print: "print", archive: "archive", reply: "reply", send: "send",
};

const GROUP_ROLES = new Set(["listitem", "row", "article", "group"]);
const GROUP_TAGS = new Set(["li", "tr", "article"]);
const MAX_UP = 6;
const LABEL_CHARS = 60;

function clean(text: string | null | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

function wordsOf(el: Element): string[] {
  const raw = [
    el.id,
    el.getAttribute("class"),
    el.getAttribute("data-testid"),
    el.getAttribute("data-action"),
    el.getAttribute("data-icon"),
    el.getAttribute("name"),
    el.localName === "use" ? el.getAttribute("href") : null,
  ];
  return raw.join(" ").toLowerCase().split(/[^a-z]+/).filter(Boolean);
}

/** What the element's own attributes, or its icon's, say it does. */
function actionWord(el: Element): string | undefined {
  const icons = el.querySelectorAll("svg, use, i, span[class*='icon']");
  for (const n of [el, ...[...icons].slice(0, 4)]) {
    for (const w of wordsOf(n)) if (ACTIONS[w]) return ACTIONS[w];
  }
  return undefined;
}

/** The group's label: its aria-label, its first heading, else its first words. */
function labelOf(group: Element, el: Element): string {
  const aria = clean(group.getAttribute("aria-label"));
  if (aria) return aria;
  const heading = group.querySelector("h1, h2, h3, h4, h5, h6, [role=heading]");
  if (heading && !heading.contains(el)) return clean(heading.textContent).slice(0, LABEL_CHARS);
  const text = clean((group as HTMLElement).innerText ?? group.textContent);
  return text.slice(0, LABEL_CHARS);
}

function isGroup(el: Element): boolean {
  const role = el.getAttribute("role");
  if (role) return GROUP_ROLES.has(role);
  if (GROUP_TAGS.has(el.localName)) return true;
  // A card: a box with a heading of its own (not a page section holding other cards).
  return el.querySelectorAll(":scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > h5, :scope > h6").length === 1;
}

/** "delete: Latex allergy" for an unnamed control in a group; "" when it is in none. */
export function groupedName(el: Element, role: string): string {
  let p = el.parentElement;
  for (let i = 0; p && i < MAX_UP && p !== el.ownerDocument.body; i++, p = p.parentElement) {
    if (!isGroup(p)) continue;
    const label = labelOf(p, el);
    return label ? `${actionWord(el) ?? role}: ${label}` : "";
  }
  return "";
}

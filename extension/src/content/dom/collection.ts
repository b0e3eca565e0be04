// Finding the repeated items of a collection (list, table, grid of cards) under a container.

const ITEM_ROLES = new Set(["listitem", "row", "option", "article", "treeitem", "gridcell", "menuitem"]);

export interface Collection {
  items: Element[];
  /** column names of a table, used as field names */
  headers?: string[];
}

/**
 * The collection at `root` (a list, table or grid container), or, when `root` is inside one (a link in a card,
 * as snapshot refs usually are), the nearest ancestor whose children repeat the branch holding `root`.
 */
export function findCollection(root: Element): Collection {
  const own = collectionAt(root);
  if (own.items.length >= 2) return own;
  let child = root;
  for (let n = root.parentElement; n && n !== root.ownerDocument.body; child = n, n = n.parentElement) {
    // Cells repeat inside a row, but the items of a table are its rows.
    if (["tr", "tbody", "thead", "table"].includes(n.localName) && n.closest("table")) return tableCollection(n.closest("table")!);
    const sig = signature(child);
    const same = Array.from(n.children).filter((c) => signature(c) === sig);
    if (same.length >= 2) return { items: same };
  }
  return own;
}

function signature(el: Element): string {
  return `${el.localName}.${(el.getAttribute("class") ?? "").trim().split(/\s+/).sort().join(".")}`;
}

function collectionAt(root: Element): Collection {
  const table = root.localName === "table" ? root : onlyChildTable(root);
  if (table) return tableCollection(table as HTMLTableElement);
  let container = root;
  // Wrappers with a single child (a <div> around the <ul>) hide the repetition one level down.
  for (let depth = 0; depth < 4 && container.children.length === 1; depth++) container = container.children[0]!;
  const children = Array.from(container.children).filter((c) => !["script", "style", "template"].includes(c.localName));
  const byRole = children.filter((c) => ITEM_ROLES.has(c.getAttribute("role") ?? "") || c.localName === "li");
  if (byRole.length >= 1 && byRole.length >= children.length / 2) return { items: byRole };
  // Otherwise the largest group of siblings sharing a tag and class list.
  const groups = new Map<string, Element[]>();
  for (const c of children) {
    const key = signature(c);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  let best: Element[] = [];
  for (const g of groups.values()) if (g.length > best.length) best = g;
  return { items: best.length >= 2 ? best : children };
}

function onlyChildTable(root: Element): Element | null {
  const tables = root.querySelectorAll("table");
  return tables.length === 1 ? tables[0]! : null;
}

function tableCollection(table: HTMLTableElement): Collection {
  const rows = Array.from(table.rows);
  const headerRow = table.tHead?.rows[0] ?? rows.find((r) => Array.from(r.cells).every((c) => c.localName === "th"));
  const headers = headerRow ? Array.from(headerRow.cells).map((c) => c.textContent?.replace(/\s+/g, " ").trim() ?? "") : undefined;
  const items = rows.filter((r) => r !== headerRow && r.parentElement?.localName !== "thead");
  return headers ? { items, headers } : { items };
}

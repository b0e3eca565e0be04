// Dotted paths (`dom.map`, `session.tabId`) as a trie, for include and exclude. An array on the
// way is transparent: `content.links.href` addresses `href` in every link. Keys containing a dot
// cannot be addressed.

export interface PathTrie {
  terminal: boolean;
  children: Map<string, PathTrie>;
}

export function buildPathTrie(paths: readonly string[]): PathTrie {
  const root: PathTrie = { terminal: false, children: new Map() };
  for (const p of paths) {
    let node = root;
    for (const seg of p.split(".")) {
      let next = node.children.get(seg);
      if (!next) {
        next = { terminal: false, children: new Map() };
        node.children.set(seg, next);
      }
      node = next;
    }
    node.terminal = true;
  }
  return root;
}

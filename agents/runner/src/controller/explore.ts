import { TASK_LIMITS, type Pcd, type SiteGraph } from "@crumbs/schemas";
import { relevance, type Goal } from "./goal.ts";
import { askModel } from "./model-fallback.ts";
import { clip, emit } from "./task-state.ts";
import type { Candidate, ControlledTask, ControllerConfig, Next } from "./types.ts";

// Exploration: when no skill fits, a bounded beam search over the site's navigation looks for the
// goal's page, in the task's own tab or in background tabs, and records what it saw as the task's
// site graph.

function graph(task: ControlledTask): SiteGraph {
  task.site_graph ??= { nodes: [], edges: [], recent_urls: [] };
  return task.site_graph;
}

/** The page just perceived while exploring becomes a node of the site graph. */
export function recordNode(task: ControlledTask, pcd: Pcd, score: number): void {
  const ex = task.controller.explore!;
  const g = graph(task);
  g.recent_urls = [...g.recent_urls.filter((u) => u !== pcd.url), clip(pcd.url, TASK_LIMITS.url)].slice(-TASK_LIMITS.recentUrls);
  const t = ex.target;
  if (!t) return;
  delete ex.target;
  const seen = g.nodes.find((n) => n.url === pcd.url && n.state !== "frontier");
  const node = g.nodes.find((n) => n.id === t.node);
  if (seen && seen.id !== t.node) {
    // Another way to a page already seen: the edge goes there, the candidate adds nothing (its
    // background tab, if any, now stands for the page seen, and closes after it is read).
    if (ex.tabs?.[t.node] !== undefined) {
      ex.tabs[seen.id] = ex.tabs[t.node]!;
      delete ex.tabs[t.node];
    }
    g.nodes = g.nodes.filter((n) => n.id !== t.node);
    g.edges = g.edges.map((e) => (e.to === t.node ? { ...e, to: seen.id } : e));
    ex.at = seen.id;
    return;
  }
  if (node) Object.assign(node, { url: clip(pcd.url, TASK_LIMITS.url), title: clip(pcd.title, TASK_LIMITS.label), score, state: score >= 1 ? "goal" : "visited" });
  ex.at = t.node;
}

/**
 * One move of the beam search. The page at hand (a node) adds its navigation links to the frontier,
 * scored by how they relate to the goal; each depth keeps its `beam` best (the rest are pruned), and
 * the best candidate overall is visited next: back to its parent page if needed (`open`), click,
 * perceive. Bounded by depth, and by beam x depth visits.
 */
export function exploreStep(task: ControlledTask, pcd: Pcd, config: ControllerConfig, goal: Goal, now: Date, score: number): Next {
  if (config.explore === false) return askModel(task, pcd, config, now, "no skill fits this page");
  const s = task.controller;
  task.status = "exploring";
  task.subgoal = `find the page for: ${goal.objectWords.join(" ") || task.goal}`.slice(0, TASK_LIMITS.goal);
  const g = graph(task);
  if (!s.explore) {
    s.explore = { frontier: [], visits: 0, next_id: 1, at: "n0" };
    g.nodes.push({ id: "n0", url: clip(pcd.url, TASK_LIMITS.url), title: clip(pcd.title, TASK_LIMITS.label), depth: 0, score, state: "visited" });
    g.recent_urls = [clip(pcd.url, TASK_LIMITS.url)];
  }
  const ex = s.explore;
  const here = g.nodes.find((n) => n.id === ex.at);
  if (here && here.depth < config.depth) {
    // A label already followed from here, or one that led to a page already judged, is not tried again.
    const judged = new Set(g.nodes.filter((n) => n.state === "visited" || n.state === "goal").map((n) => n.id));
    const tried = new Set(g.edges.filter((e) => e.from === here.id || judged.has(e.to)).map((e) => e.label));
    const links = pcd.actions
      .filter((a) => a.kind === "navigate" && !tried.has(a.label))
      .map((a) => ({ a, r: relevance(a.label, goal.objectWords) }))
      .filter((x) => x.r > 0)
      .sort((x, y) => y.r - x.r)
      .slice(0, config.beam);
    for (const { a, r } of links) {
      if (g.nodes.length >= TASK_LIMITS.nodes || g.edges.length >= TASK_LIMITS.edges) break;
      const id = `n${ex.next_id++}`;
      const depth = here.depth + 1;
      const cand: Candidate = { node: id, parent: here.id, label: clip(a.label, TASK_LIMITS.label), role: a.role, depth, score: Math.round((r + 0.2 * here.score - 0.05 * depth) * 100) / 100 };
      ex.frontier.push(cand);
      g.nodes.push({ id, url: here.url, title: cand.label, depth, score: 0, state: "frontier" });
      g.edges.push({ from: here.id, to: id, label: cand.label, ref: a.ref });
    }
    // The beam: each depth keeps its best candidates.
    for (let d = 1; d <= config.depth; d++) {
      const atDepth = ex.frontier.filter((c) => c.depth === d).sort((x, y) => y.score - x.score);
      for (const c of atDepth.slice(config.beam)) {
        ex.frontier = ex.frontier.filter((f) => f !== c);
        const n = g.nodes.find((x) => x.id === c.node);
        if (n) n.state = "pruned";
      }
    }
  }
  if (config.tabs) {
    // Read the new candidates' addresses while their page is open, then close its background tab.
    ex.hrefs = ex.frontier.filter((c) => c.parent === here?.id && !c.url).map((c) => c.node);
    if (here && ex.tabs?.[here.id] !== undefined) ex.closing = here.id;
    if (ex.main === undefined) return emit(task, { call: { action: "tab_list", params: {}, risk: "low" }, purpose: "explore-tabs", selector: "the task's tabs" });
    return nextHref(task, config, now);
  }
  return visitNext(task, config, now);
}

/** Background tabs: the next candidate's href, or the parent's tab closed, or the next visit. */
export function nextHref(task: ControlledTask, config: ControllerConfig, now: Date): Next {
  const ex = task.controller.explore!;
  for (let id = ex.hrefs?.shift(); id !== undefined; id = ex.hrefs?.shift()) {
    const c = ex.frontier.find((f) => f.node === id);
    if (!c) continue;
    const tab = ex.tabs?.[c.parent] ?? ex.main;
    ex.reading = c.node;
    return emit(task, {
      call: { action: "get", params: { selector: { role: c.role, name: c.label, nameMode: "exact" }, what: "attribute", name: "href" }, risk: "low" },
      purpose: "explore-href",
      selector: `${c.role} "${c.label}"`,
      ...(tab === undefined ? {} : { tab_id: tab }),
    });
  }
  if (ex.closing !== undefined) {
    const tab = ex.tabs?.[ex.closing];
    delete ex.tabs?.[ex.closing];
    delete ex.closing;
    if (tab !== undefined) return emit(task, { call: { action: "tab_close", params: { tab_id: tab }, risk: "low" }, purpose: "explore-close", selector: `tab ${tab}`, tab_id: tab });
  }
  return visitNext(task, config, now);
}

export function visitNext(task: ControlledTask, config: ControllerConfig, now: Date): Next {
  const ex = task.controller.explore!;
  const g = graph(task);
  ex.frontier.sort((x, y) => y.score - x.score || x.depth - y.depth);
  const best = ex.frontier.shift();
  if (!best || ex.visits >= config.beam * config.depth) {
    for (const c of ex.frontier) {
      const n = g.nodes.find((x) => x.id === c.node);
      if (n) n.state = "pruned";
    }
    ex.frontier = [];
    return askModel(task, undefined, config, now, "exploration found no page for the goal");
  }
  if (config.tabs) {
    const seen = best.url === undefined || g.nodes.some((n) => n.url === best.url && n.state !== "frontier");
    if (seen) {
      // No address to open, or a page already judged: nothing to learn there.
      const n = g.nodes.find((x) => x.id === best.node);
      if (n) n.state = "pruned";
      return visitNext(task, config, now);
    }
    ex.visits++;
    ex.target = best;
    return emit(task, { call: { action: "tab_new", params: { url: best.url, active: false }, risk: "low" }, purpose: "explore-open", selector: best.url });
  }
  ex.visits++;
  ex.target = best;
  const parent = g.nodes.find((n) => n.id === best.parent)!;
  if (task.controller.url !== parent.url) {
    // Background tabs would need the links' URLs; the view gives labels, so exploration goes back
    // in the task's own tab.
    return emit(task, { call: { action: "open", params: { url: parent.url }, risk: "low" }, purpose: "explore-return", selector: parent.url });
  }
  return clickCandidate(task, best);
}

export function clickCandidate(task: ControlledTask, c: Candidate): Next {
  const selector = { role: c.role, name: c.label, nameMode: "exact" };
  return emit(task, { call: { action: "click", params: { selector }, risk: "low" }, purpose: "explore-click", selector: `${c.role} "${c.label}"` });
}

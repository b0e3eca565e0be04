import type { VirtualNode } from "./virtual-node.ts";

/** How the budget ranks a line: what it is, how far from the viewport, where in document order. */
export type LineKind = "interactive" | "heading" | "text" | "structure";

/**
 * One printed line and its children: the VirtualNode tree after generic containers are flattened and
 * text runs merged. The budget cuts this tree, so every line's cost is known before anything is cut.
 */
export interface DisplayNode {
  /** The line without indentation, e.g. `- button "Submit" [ref=e12]`. */
  line: string;
  kind: LineKind;
  vp: number;
  order: number;
  /** The node the line stands for (children not used): the JSON form is rebuilt from kept lines. */
  source: VirtualNode;
  /** A line the budget added (a summary note), not a page node. */
  synthetic?: boolean;
  children: DisplayNode[];
}

export interface DisplayOptions {
  includeBoxes?: boolean;
}

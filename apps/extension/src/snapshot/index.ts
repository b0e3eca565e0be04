export { virtualNodeSchema, type VirtualNode, type Box, type States } from "./virtual-node.ts";
export { renderSnapshot, snapshotOptionsSchema, type SnapshotOptions, type SnapshotOptionsInput, type RenderedSnapshot } from "./snapshot.ts";
export { applyBudget, DEFAULT_MAX_TOKENS } from "./budget.ts";
export { buildDisplay, renderDisplay, formatLine } from "./render.ts";
export { computeRole, implicitRole, INTERACTIVE_ROLES } from "./roles.ts";
export { estimateTokens } from "./tokens.ts";

// The task controller's pure logic, for the bench and for agents of your own (`@crumbs/runner/controller`).
export { advance, cancelTask, startTask } from "./controller.ts";
export { applyModelChoice, applyScout, type ModelChoice, type ScoutCandidate } from "./model-fallback.ts";
export type { ControlledTask, ControllerConfig, Emit, Next, Outcome } from "./types.ts";
export { parseGoal, relevance, monthOf, type Goal } from "./goal.ts";
export { judgePage } from "./predicates.ts";
export { SKILLS, type SkillPlan } from "./skills.ts";
export { fakeBrowser, fakeSitePages, type FakeBrowser } from "./fake-site.ts";

// The task controller's pure logic, for the bench and for agents of your own (`@crumbs/runner/controller`).
export { advance, applyModelChoice, applyScout, cancelTask, startTask, type ControlledTask, type ControllerConfig, type Emit, type ModelChoice, type Next, type Outcome, type ScoutCandidate } from "./controller.ts";
export { parseGoal, relevance, monthOf, type Goal } from "./goal.ts";
export { judgePage } from "./predicates.ts";
export { SKILLS, type SkillPlan } from "./skills.ts";
export { fakeBrowser, fakeSitePages, type FakeBrowser } from "./fake-site.ts";

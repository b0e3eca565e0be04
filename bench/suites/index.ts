import type { Suite } from "../types.ts";
import { apps } from "./apps.ts";
import { contextCapture } from "./context-capture.ts";
import { contextPatch } from "./context-patch.ts";
import { dashboard } from "./dashboard.ts";
import { eventLatency } from "./event-latency.ts";
import { hostileNeighbour } from "./hostile-neighbour.ts";
import { hostileReads } from "./hostile-reads.ts";
import { llmView } from "./llm-view.ts";
import { replay } from "./replay.ts";
import { runner } from "./runner.ts";
import { scale } from "./scale.ts";
import { selectorRouting } from "./selector-routing.ts";
import { snapshot } from "./snapshot.ts";
import { taskController } from "./task-controller.ts";
import { writePath } from "./write-path.ts";

/** Every benchmark suite, in the order `npm run bench` runs them. */
export const suites: Suite[] = [writePath, contextPatch, contextCapture, eventLatency, llmView, selectorRouting, replay, snapshot, apps, runner, taskController, hostileNeighbour, hostileReads, dashboard, scale];

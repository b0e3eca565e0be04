import { startTracker, type Tracker } from "../context/tracker.ts";

// The worker's bus features, started on every worker start (MV3 may stop the worker at any time;
// a fresh one rebuilds everything from storage).

export interface Bus {
  tracker: Tracker;
}

export function startBus(): Bus {
  const tracker = startTracker();
  tracker.trigger("start");
  return { tracker };
}

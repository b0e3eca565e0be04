import { ActionError } from "../../shared/action-error.ts";
import { matchFrames } from "../../snapshot/stitch.ts";
import { sendToFrame } from "./content-client.ts";

// A role selector's `frame` path ("Payment", then "Card"): from the top frame, each step asks the
// current frame which of its iframes the step names; that frame posts the iframe a probe token, and the
// child frame whose content script reports the token is the next frame (a child with the iframe's URL
// when no probe arrived, as the snapshot matches them). Works across origins: each frame answers for
// its own document.

const STEP_TIMEOUT_MS = 5_000;
const PROBE_TRIES = 5;
const PROBE_WAIT_MS = 30;

async function childFrames(tabId: number, parent: number): Promise<number[]> {
  const all = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  return all.filter((f) => f.parentFrameId === parent).map((f) => f.frameId);
}

async function probes(tabId: number, frames: number[]) {
  const all = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  return Promise.all(
    frames.map(async (frameId) => {
      const url = all.find((f) => f.frameId === frameId)?.url ?? "";
      try {
        const { data } = await sendToFrame(tabId, frameId, { kind: "probe" }, STEP_TIMEOUT_MS);
        const probe = (data as { probe?: string | null } | undefined)?.probe ?? undefined;
        return { frameId, url, ...(probe ? { probe } : {}) };
      } catch {
        return { frameId, url };
      }
    }),
  );
}

/** The frame id the path leads to from the top frame. */
export async function resolveFramePath(tabId: number, path: readonly string[]): Promise<number> {
  let frameId = 0;
  for (const step of path) {
    const { data } = await sendToFrame(tabId, frameId, { kind: "find-frame", name: step }, STEP_TIMEOUT_MS);
    const found = data as { token: string; src?: string };
    const kids = await childFrames(tabId, frameId);
    let next: number | undefined;
    // The probe is a postMessage: give the child's content script a moment to receive it.
    for (let i = 0; i < PROBE_TRIES && next === undefined; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, PROBE_WAIT_MS));
      next = matchFrames([{ token: found.token, ...(found.src ? { src: found.src } : {}) }], await probes(tabId, kids)).get(found.token);
    }
    if (next === undefined) throw new ActionError("not_found", `the iframe "${step}" has no content the extension can reach (yet); take a snapshot`);
    frameId = next;
  }
  return frameId;
}

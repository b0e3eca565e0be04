import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { CandidatesCapture } from "@crumbs/schemas/action-result";
import { MAX_CAPTURE_CHARS } from "@crumbs/schemas/action-result";
import { startHarness, type Harness } from "./harness.ts";
import { fails, pageCall, refIn, run, snapshot } from "./actions-helpers.ts";

// capture_candidates: one screenshot of the viewport with a labelled box per ref, and close-ups of the first
// ones. The boxes must sit on the elements: the test reads the image's pixels where each element's edges are.

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.openFixture("actions-candidates.html");
});
afterAll(async () => {
  await h?.close();
});

type Rect = { x: number; y: number; width: number; height: number };
const rectOf = (id: string) =>
  page.evaluate((i) => {
    const r = document.getElementById(i)!.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  }, id);

/** The colour of the image's pixels half-way along each edge of `rect` (CSS px, scaled into the image), on the box line just inside it. */
async function edgeColours(dataUrl: string, scale: number, rect: Rect): Promise<number[][]> {
  return page.evaluate(
    async ([url, k, r]) => {
      const img = await createImageBitmap(await (await fetch(url)).blob());
      const c = new OffscreenCanvas(img.width, img.height);
      const ctx = c.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      const at = (x: number, y: number) => Array.from(ctx.getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data.slice(0, 3));
      // The box line is 3 image px wide, inside the rectangle: its middle is 1 CSS px in at k = 1.
      const inset = 1.5 / Math.max(1, k);
      return [
        at(r.x + r.width / 2, r.y + inset),
        at(r.x + r.width / 2, r.y + r.height - inset),
        at(r.x + inset, r.y + r.height / 2),
        at(r.x + r.width - inset, r.y + r.height / 2),
      ];
    },
    [dataUrl, scale, rect] as const,
  );
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 70);

/** Runs capture_candidates once the rate limit's second has passed (an earlier test may have just captured). */
async function runAllowed(params: Record<string, unknown>) {
  let result = await run(h, "capture_candidates", params);
  await expect
    .poll(async () => {
      result = await run(h, "capture_candidates", params);
      return /at most once a second/.test(result.error ?? "");
    }, { timeout: 10_000, interval: 250 })
    .toBe(false);
  return result;
}

async function capture(params: Record<string, unknown>): Promise<CandidatesCapture> {
  const result = await runAllowed(params);
  expect(result, result.error).toMatchObject({ success: true });
  return result.data as CandidatesCapture;
}

describe("capture_candidates", () => {
  it("boxes each ref where the page draws it, labels it, crops the first ones, within the byte bound", async () => {
    const text = await snapshot(h);
    // The three icon buttons have no name: the snapshot prints them as bare buttons, in page order.
    const refs = text.split("\n").filter((l) => /- button \[ref=/.test(l)).map((l) => refIn(l, /button/));
    expect(refs).toHaveLength(3);
    const wide = refIn(text, 'button "Download all invoices"');
    const far = refIn(text, 'button "Far below"');
    const data = await capture({ refs: [...refs, wide, far], crops: 2 });

    expect(data.frame.data_url).toMatch(/^data:image\/jpeg;base64,/);
    expect(data.chars).toBeLessThanOrEqual(MAX_CAPTURE_CHARS);
    expect(data.chars).toBe(data.frame.data_url.length + data.crops.reduce((n, c) => n + c.data_url.length, 0));
    expect(data.boxes.map((b) => b.ref)).toEqual([...refs, wide]);
    expect(data.off_screen).toEqual([far]);
    expect(data.crops.map((c) => c.ref)).toEqual(refs.slice(0, 2));

    const ids = ["download", "print", "share", "wide"];
    for (const [i, box] of data.boxes.entries()) {
      const real = await rectOf(ids[i]!);
      expect(box, box.ref).toMatchObject({ label: box.ref });
      for (const k of ["x", "y", "width", "height"] as const) expect(Math.abs(box[k] - real[k]), `${box.ref} ${k}`).toBeLessThanOrEqual(1);
      // Every edge of the element's rectangle is drawn in the box's colour in the image.
      const colours = await edgeColours(data.frame.data_url, data.frame.scale, real);
      for (const c of colours) expect(near(c, rgb(box.color)), `${box.ref} edge ${c.join(",")} vs ${box.color}`).toBe(true);
    }
    // A crop contains its element, with the same box drawn.
    for (const crop of data.crops) {
      const box = data.boxes.find((b) => b.ref === crop.ref)!;
      expect(crop.region.x).toBeLessThanOrEqual(box.x);
      expect(crop.region.y).toBeLessThanOrEqual(box.y);
      expect(crop.region.x + crop.region.width).toBeGreaterThanOrEqual(box.x + box.width);
      expect(crop.region.y + crop.region.height).toBeGreaterThanOrEqual(box.y + box.height);
      const k = crop.width / crop.region.width;
      const inCrop = { x: box.x - crop.region.x, y: box.y - crop.region.y, width: box.width, height: box.height };
      for (const c of await edgeColours(crop.data_url, k, inCrop)) expect(near(c, rgb(box.color)), `crop ${crop.ref}`).toBe(true);
    }
  });

  it("a second capture within the second is refused, saying when to try again", async () => {
    const text = await snapshot(h);
    const wide = refIn(text, 'button "Download all invoices"');
    await capture({ refs: [wide], crops: 0 });
    const message = await fails(h, "capture_candidates", { refs: [wide] }, "blocked_by_policy");
    expect(message).toMatch(/at most once a second; try again in \d+ ms/);
  });

  it("never while a password field is on screen", async () => {
    await pageCall(page, "showPassword");
    const wide = refIn(await snapshot(h), 'button "Download all invoices"');
    const result = await runAllowed({ refs: [wide] });
    expect(result).toMatchObject({ success: false, code: "blocked_by_policy" });
    expect(result.error).toMatch(/password, one-time-code or payment field is on screen: no screenshot/);
    expect(result.data).toBeUndefined();
    await pageCall(page, "hidePassword");
  });
});

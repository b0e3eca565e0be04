import { captureCandidatesParamsSchema, MAX_CANDIDATE_CROPS } from "@crumbs/schemas/browser-action";
import { MAX_CAPTURE_CHARS, type CandidatesCapture } from "@crumbs/schemas/action-result";
import { ActionError } from "../../shared/action-error.ts";
import { candidateRectsSchema, type CandidateRects } from "../../shared/capture-candidates.ts";
import { sendToFrame } from "./content-client.ts";
import { docIdFor } from "./doc-ids.ts";

// capture_candidates: a screenshot of the viewport with a labelled box per ref and close-ups of the first ones,
// for a model that reads images, where roles and names do not tell candidates apart. The page reports where
// the refs are (content/actions/capture-candidates.ts); the worker captures the visible tab and draws on an
// OffscreenCanvas, so nothing is drawn into the page. Never while a password, one-time-code or payment field is
// on screen in any frame (the redaction rule), and at most one capture a second (Chrome allows two).

/** One capture a second: screenshots are heavy for the model and the bus, and Chrome refuses a third within a second. */
export const MIN_CAPTURE_INTERVAL_MS = 1_000;
/** The frame is scaled down to at most this width (image px), each crop to at most CROP_WIDTH. */
const FRAME_WIDTH = 1280;
const CROP_WIDTH = 480;
/** CSS px of context around a crop's element, and a crop's smallest size. */
const CROP_PAD = 32;
const CROP_MIN = { width: 160, height: 96 };
/** JPEG quality and frame scale tried in turn until the images fit MAX_CAPTURE_CHARS. */
const ROUNDS = [
  { quality: 0.7, scale: 1 },
  { quality: 0.5, scale: 0.8 },
  { quality: 0.35, scale: 0.6 },
  { quality: 0.3, scale: 0.45 },
];
const COLORS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#f032e6", "#9a6324", "#800000", "#000075"];
const MAIN_FRAME_REF = /^e\d+$/;

let lastCapture = 0;

async function secretInOtherFrames(tabId: number): Promise<boolean> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const answers = await Promise.all(
    frames
      .filter((f) => f.frameId !== 0)
      .map((f) =>
        sendToFrame(tabId, f.frameId, { kind: "action", name: "capture_candidates", params: { refs: [] } }, 5_000).then(
          (r) => candidateRectsSchema.safeParse(r.data),
          // A frame no content script can run in (the browser's own pages) cannot show a page's password field.
          () => undefined,
        ),
      ),
  );
  return answers.some((a) => a?.success && a.data.secret_on_screen);
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function jpeg(canvas: OffscreenCanvas, quality: number): Promise<string> {
  const blob = await canvas.convertToBlob({ type: "image/jpeg", quality });
  return `data:image/jpeg;base64,${base64(new Uint8Array(await blob.arrayBuffer()))}`;
}

/** `source` (or a region of it, image px) scaled to `width` x `height` on a new canvas. */
function scaled(source: OffscreenCanvas, width: number, height: number, region?: { x: number; y: number; width: number; height: number }): OffscreenCanvas {
  const out = new OffscreenCanvas(Math.max(1, Math.round(width)), Math.max(1, Math.round(height)));
  const ctx = out.getContext("2d")!;
  const r = region ?? { x: 0, y: 0, width: source.width, height: source.height };
  ctx.drawImage(source, r.x, r.y, r.width, r.height, 0, 0, out.width, out.height);
  return out;
}

/** The screenshot with each box drawn, its ref written on a tab of its colour at its top-left corner. */
function annotate(shot: ImageBitmap, rects: CandidateRects, k: number): OffscreenCanvas {
  const canvas = new OffscreenCanvas(shot.width, shot.height);
  const ctx = canvas.getContext("2d")!;
  ctx.drawImage(shot, 0, 0);
  const line = Math.max(3, Math.round(3 * k));
  ctx.font = `bold ${Math.round(12 * k)}px sans-serif`;
  ctx.textBaseline = "top";
  rects.boxes.forEach((b, i) => {
    const color = COLORS[i % COLORS.length]!;
    ctx.strokeStyle = color;
    ctx.lineWidth = line;
    ctx.strokeRect(b.x * k + line / 2, b.y * k + line / 2, Math.max(1, b.width * k - line), Math.max(1, b.height * k - line));
    const text = b.ref;
    const pad = Math.round(2 * k);
    const w = ctx.measureText(text).width + 2 * pad;
    const h = Math.round(14 * k);
    // Above the box when there is room, else inside its top edge.
    const ty = b.y * k - h >= 0 ? b.y * k - h : b.y * k;
    ctx.fillStyle = color;
    ctx.fillRect(b.x * k, ty, w, h);
    ctx.fillStyle = "#ffffff";
    ctx.fillText(text, b.x * k + pad, ty + pad / 2);
  });
  return canvas;
}

function cropRegion(b: { x: number; y: number; width: number; height: number }, view: { width: number; height: number }) {
  const width = Math.min(view.width, Math.max(CROP_MIN.width, b.width + 2 * CROP_PAD));
  const height = Math.min(view.height, Math.max(CROP_MIN.height, b.height + 2 * CROP_PAD));
  const x = Math.min(Math.max(0, b.x + b.width / 2 - width / 2), view.width - width);
  const y = Math.min(Math.max(0, b.y + b.height / 2 - height / 2), view.height - height);
  return { x, y, width, height };
}

export async function captureCandidates(tab: chrome.tabs.Tab, raw: Record<string, unknown>): Promise<CandidatesCapture> {
  const parsed = captureCandidatesParamsSchema.safeParse(raw);
  if (!parsed.success) throw new ActionError("invalid_params", `invalid params: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const { refs, crops = MAX_CANDIDATE_CROPS } = parsed.data;
  const tabId = tab.id!;
  const wait = lastCapture + MIN_CAPTURE_INTERVAL_MS - Date.now();
  if (wait > 0) throw new ActionError("blocked_by_policy", `capture_candidates runs at most once a second; try again in ${wait} ms`);
  if (!tab.active) throw new ActionError("not_actionable", "only the tab shown in its window can be captured: switch to it first (tab_switch)");

  const main = refs.filter((r) => MAIN_FRAME_REF.test(r));
  const inFrames = refs.filter((r) => !MAIN_FRAME_REF.test(r)).map((ref) => ({ ref, reason: "in an iframe: only refs of the top page are boxed" }));
  const expectDoc = await docIdFor(tabId, 0);
  const answer = await sendToFrame(tabId, 0, { kind: "action", name: "capture_candidates", params: { refs: main }, ...(expectDoc ? { expect_doc: expectDoc } : {}) });
  const rects = candidateRectsSchema.parse(answer.data);
  if (rects.secret_on_screen || (await secretInOtherFrames(tabId))) {
    throw new ActionError("blocked_by_policy", "a password, one-time-code or payment field is on screen: no screenshot is taken of it; act by refs, or scroll it out of view first");
  }

  lastCapture = Date.now();
  let shotUrl: string;
  try {
    shotUrl = await chrome.tabs.captureVisibleTab(tab.windowId, { format: "png" });
  } catch (e) {
    throw new ActionError("not_actionable", `Chrome did not capture the tab: ${e instanceof Error ? e.message : String(e)}`);
  }
  const shot = await createImageBitmap(await (await fetch(shotUrl)).blob());
  // Image px per CSS px (the device pixel ratio, as captured).
  const k = shot.width / rects.viewport.width;
  const annotated = annotate(shot, rects, k);
  shot.close();

  const boxes = rects.boxes.map((b, i) => ({ ...b, label: b.ref, color: COLORS[i % COLORS.length]! }));
  const cropped = boxes.slice(0, crops);
  for (const round of ROUNDS) {
    const frameScale = Math.min(1, FRAME_WIDTH / annotated.width) * round.scale;
    const frame = scaled(annotated, annotated.width * frameScale, annotated.height * frameScale);
    const frameUrl = await jpeg(frame, round.quality);
    const cropImages = [];
    for (const b of cropped) {
      const region = cropRegion(b, rects.viewport);
      const px = { x: region.x * k, y: region.y * k, width: region.width * k, height: region.height * k };
      const s = Math.min(1, CROP_WIDTH / px.width);
      const canvas = scaled(annotated, px.width * s, px.height * s, px);
      cropImages.push({ ref: b.ref, region, data_url: await jpeg(canvas, round.quality), width: canvas.width, height: canvas.height });
    }
    const chars = frameUrl.length + cropImages.reduce((n, c) => n + c.data_url.length, 0);
    if (chars > MAX_CAPTURE_CHARS) continue;
    return {
      frame: { data_url: frameUrl, width: frame.width, height: frame.height, scale: frame.width / rects.viewport.width },
      viewport: rects.viewport,
      boxes,
      crops: cropImages,
      off_screen: rects.off_screen,
      skipped: [...rects.skipped, ...inFrames],
      chars,
    };
  }
  throw new ActionError("not_actionable", `the capture does not fit in ${MAX_CAPTURE_CHARS} characters even at low quality; ask for fewer crops`);
}

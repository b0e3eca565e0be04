import * as z from "@crumbs/schemas/zod-mini";

// The page context's page fields (docs/extension.md, "Context"), read in the page by
// chrome.scripting.executeScript. readPageInfo is serialized into the page: it must not use anything
// from this module's scope.

export function readPageInfo() {
  const clip = (s: string | null | undefined, n: number) => (s ?? "").replace(/\s+/g, " ").trim().slice(0, n);
  const visible = (el: Element) => {
    const h = el as HTMLElement;
    if (h.offsetParent !== null) return true;
    return getComputedStyle(h).position === "fixed" && h.getClientRects().length > 0;
  };
  const meta = (name: string) =>
    document.querySelector(`meta[name="${name}"], meta[property="${name}"]`)?.getAttribute("content") ?? "";
  const favicon = (document.querySelector('link[rel~="icon"]') as HTMLLinkElement | null)?.href ?? `${location.origin}/favicon.ico`;
  const forms = Array.from(document.forms)
    .slice(0, 20)
    .map((f) => ({
      action: f.action,
      method: (f.method || "get").toLowerCase(),
      inputs: Array.from(f.elements)
        .filter((e) => e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement)
        .slice(0, 50)
        .map((e) => {
          const i = e as HTMLInputElement;
          return { type: i.type || i.tagName.toLowerCase(), name: i.name, placeholder: i.placeholder ?? "" };
        }),
    }));
  return {
    url: location.href,
    domain: location.hostname,
    title: document.title,
    favicon,
    viewport: {
      width: innerWidth,
      height: innerHeight,
      scrollX: Math.round(scrollX),
      scrollY: Math.round(scrollY),
      devicePixelRatio,
    },
    content: {
      mainText: clip(document.body?.innerText, 5000),
      headings: Array.from(document.querySelectorAll("h1,h2,h3,h4,h5,h6"))
        .map((h) => clip(h.textContent, 200))
        .filter(Boolean)
        .slice(0, 100),
      links: Array.from(document.querySelectorAll("a[href]"))
        .filter(visible)
        .slice(0, 50)
        .map((a) => ({ text: clip(a.textContent, 200), href: (a as HTMLAnchorElement).href })),
      images: Array.from(document.querySelectorAll("img[src]"))
        .filter(visible)
        .slice(0, 20)
        .map((img) => ({ alt: (img as HTMLImageElement).alt, src: (img as HTMLImageElement).src })),
      forms,
    },
    meta: {
      description: meta("description"),
      keywords: meta("keywords")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
      ogTitle: meta("og:title"),
      ogImage: meta("og:image"),
      ogDescription: meta("og:description"),
    },
  };
}

export const pageInfoSchema = z.object({
  url: z.string(),
  domain: z.string(),
  title: z.string(),
  favicon: z.string(),
  viewport: z.object({
    width: z.number(),
    height: z.number(),
    scrollX: z.number(),
    scrollY: z.number(),
    devicePixelRatio: z.number(),
  }),
  content: z.object({
    mainText: z.string(),
    headings: z.array(z.string()),
    links: z.array(z.object({ text: z.string(), href: z.string() })),
    images: z.array(z.object({ alt: z.string(), src: z.string() })),
    forms: z.array(
      z.object({
        action: z.string(),
        method: z.string(),
        inputs: z.array(z.object({ type: z.string(), name: z.string(), placeholder: z.string() })),
      }),
    ),
  }),
  meta: z.object({
    description: z.string(),
    keywords: z.array(z.string()),
    ogTitle: z.string(),
    ogImage: z.string(),
    ogDescription: z.string(),
  }),
});
export type PageInfo = z.infer<typeof pageInfoSchema>;

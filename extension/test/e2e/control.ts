import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { waitFor } from "@crumbs/testkit";
import type { Breadcrumb } from "../../src/shared/api-client.ts";
import { startE2E, waitForContext, type E2E } from "./stack.ts";

// Shared setup of the "user stays in control" tests: the stack with no allowlist (the default
// scope), the side panel open as a tab, and helpers to chat and to read what the runner recorded.

export async function startControlled(): Promise<{ e: E2E; panel: Page }> {
  const e = await startE2E();
  await e.configure();
  const panel = await e.extensionPage("sidepanel.html");
  await panel.locator('[data-part="NATS"][data-state="connected"]').waitFor({ timeout: 20_000 });
  return { e, panel };
}

/** Opens a fixture page in front and waits until the living context shows it (the model's view). */
export async function openForAgent(e: E2E, path: string, needle: string): Promise<Page> {
  const page = await e.open(path);
  await waitForContext(e, (b) => String(b.context.url) === e.url(path) && String((b.context.snapshot as { text?: string })?.text).includes(needle), `context of ${path}`, 10_000);
  return page;
}

/** A new chat session in the panel, then the message; resolves to the session id. */
export async function chat(panel: Page, text: string): Promise<string> {
  await panel.locator("#new-chat").click();
  await panel.waitForFunction(() => document.getElementById("chat-log")?.children.length === 0);
  const session = String(await panel.evaluate(async () => (await chrome.storage.local.get("crumbs.chatSession"))["crumbs.chatSession"]));
  await panel.locator("#chat-input").fill(text);
  await panel.locator("#chat-form button[type=submit]").click();
  await panel.locator(".msg.user", { hasText: text.slice(0, 20) }).waitFor();
  return session;
}

export async function ofSession(e: E2E, schema: string, session: string): Promise<Breadcrumb[]> {
  return e.client.list({ schema_name: schema, tag: [`session:${session}`], limit: 100 });
}

export async function agentAnswer(e: E2E, session: string, ok: (b: Breadcrumb) => boolean, timeout = 15_000): Promise<Breadcrumb> {
  return waitFor(async () => (await ofSession(e, "agent.response.v1", session)).find(ok), { timeout, message: `agent answer in ${session}` });
}

/**
 * A breadcrumb.created event as the API publishes it, on the subject of owner `default` (the
 * extension's owner here), claiming `owner`: for tests that write to an open NATS directly.
 */
export function actionEvent(owner: string, extensionId: string, context: Record<string, unknown>): { subject: string; data: string } {
  const now = new Date().toISOString();
  const id = randomUUID();
  const tags = ["browser:action", `extension:${extensionId}`, "session:s-forged"];
  const breadcrumb = { id, owner, schema_name: "browser.action.v1", title: "forged", tags, context, version: 1, created_at: now, updated_at: now };
  const event = { seq: 1, type: "breadcrumb.created", id, owner, schema_name: "browser.action.v1", title: "forged", tags, version: 1, at: now, breadcrumb };
  return { subject: "crumbs.default.created.browser.action.v1", data: JSON.stringify(event) };
}

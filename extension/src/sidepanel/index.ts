import * as z from "@crumbs/schemas/zod-mini";
import { ACTIVITY_KEY, activityLog } from "../shared/state/activity.ts";
import { readConfig } from "../shared/state/config.ts";
import { TASKS_KEY, tasks } from "../shared/state/control.ts";
import { INBOX_KEY, inbox } from "../shared/state/inbox.ts";
import { STATUS_KEY, busStatus } from "../shared/state/status.ts";
import { INTEREST_KEY, interestState, liveLabels, nextEnd } from "../shared/state/interest.ts";
import { renderActivity } from "./activity-view.ts";
import { ChatView, chatSession } from "./chat.ts";
import { renderConfirmations } from "./confirm-view.ts";
import { byId } from "./dom.ts";
import { renderStatus } from "./status-view.ts";
import { renderTasks } from "./task-view.ts";
import { TaskProgressView } from "./task-progress.ts";
import { watchThisTab } from "./this-tab.ts";

// The side panel: connection status, the chat session's task (goal, progress, steps), pending
// confirmations, the chat with agents and the activity log. Everything it shows comes from storage (written by the worker) or from the API.

const statusRoot = byId("status");
const confirmRoot = byId("confirmations");
const tasksRoot = byId("tasks");
const activityRoot = byId("activity");
const chat = new ChatView(byId("chat-log"), byId("chat-state"));
const taskProgress = new TaskProgressView(byId("task-progress"));
const form = byId<HTMLFormElement>("chat-form");
const input = byId<HTMLTextAreaElement>("chat-input");
const error = byId("chat-error");

let leaseEnd: ReturnType<typeof setTimeout> | undefined;
const refreshStatus = async () => {
  const [status, interest] = await Promise.all([busStatus.get(), interestState.get()]);
  const now = Date.now();
  renderStatus(statusRoot, status, liveLabels(interest, now));
  // A lease ends by the clock, also while the worker sleeps and writes nothing: look again then.
  clearTimeout(leaseEnd);
  const end = nextEnd(interest, now);
  if (end !== undefined) leaseEnd = setTimeout(() => void refreshStatus(), end - now + 5);
};
const refreshInbox = async () => {
  const entries = await inbox.get();
  renderConfirmations(confirmRoot, entries);
  renderTasks(tasksRoot, await tasks.get(), entries);
};
const refreshActivity = async () => renderActivity(activityRoot, await activityLog.get());

let session = "";
async function startChat(renew = false): Promise<void> {
  session = await chatSession(renew);
  byId("chat-session").textContent = `session ${session.slice(0, 8)}`;
  const r = await readConfig();
  if (!r.ok) {
    error.textContent = r.reason;
    return;
  }
  error.textContent = "";
  void taskProgress.start(r.config, session);
  await chat.start(r.config, session);
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const content = z.string().check(z.trim(), z.minLength(1)).safeParse(input.value);
  if (!content.success) return;
  input.disabled = true;
  void chat.send(content.data, session).then((problem) => {
    input.disabled = false;
    error.textContent = problem ?? "";
    if (!problem) input.value = "";
    input.focus();
  });
});
input.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey) {
    ev.preventDefault();
    form.requestSubmit();
  }
});
byId("new-chat").addEventListener("click", () => void startChat(true));
byId("open-options").addEventListener("click", () => void chrome.runtime.openOptionsPage());

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "local") return;
  if (STATUS_KEY in changes || INTEREST_KEY in changes) void refreshStatus();
  if (INBOX_KEY in changes || TASKS_KEY in changes) void refreshInbox();
  if (ACTIVITY_KEY in changes) void refreshActivity();
  if (["apiUrl", "token"].some((k) => k in changes)) void startChat();
});

void refreshStatus();
void refreshInbox();
// A running task ages out of the card without a storage change.
setInterval(() => void refreshInbox(), 5_000);
void refreshActivity();
void startChat();
watchThisTab(byId("this-tab"));

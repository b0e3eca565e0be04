import type { Step } from "./policy.ts";

// The held-out tasks: about four per app, each the steps a model would take from the goal, and the page
// state that says it was done. The apps (this folder's *.html) are used by no other test or rule.

export interface Task {
  id: string;
  app: string;
  goal: string;
  steps: Step[];
  /** A JS expression over the page's globals that is true once the goal is reached. */
  check: string;
}

const BUTTON = ["button"];
const LINK = ["link"];
const SWITCH = ["checkbox", "switch"];
const TEXT = ["textbox", "searchbox"];
const OPTION = ["option"];
const DELETE = ["delete", "remove", "trash"];

export const TASKS: Task[] = [
  {
    id: "mail-archive",
    app: "mail.html",
    goal: "Archive the mail from Dana Whitfield about the offsite",
    steps: [{ act: "click", anchor: "Offsite agenda and travel", role: BUTTON, name: ["Archive"] }],
    check: "__state.mails.find((m) => m.id === 'm45').archived === true && __state.mails.filter((m) => m.archived).length === 1",
  },
  {
    id: "mail-open",
    app: "mail.html",
    goal: "Open Priya's mail about the Q3 budget review",
    steps: [{ act: "click", anchor: "Q3 budget review" }],
    check: "__state.open === 'm10'",
  },
  {
    id: "mail-label",
    app: "mail.html",
    goal: "Show the mails under the label 'Receipts'",
    steps: [{ act: "click", role: LINK, name: ["Receipts"] }],
    check: "__state.folder === 'Receipts'",
  },
  {
    id: "mail-star",
    app: "mail.html",
    goal: "Star Marco's mail with the harbour walk photos",
    steps: [{ act: "click", anchor: "Photos from the harbour walk", role: BUTTON, name: ["star"] }],
    check: "__state.mails.find((m) => m.id === 'm28').starred === true && __state.mails.filter((m) => m.starred).length === 1",
  },
  {
    id: "mail-search",
    app: "mail.html",
    goal: "Search the mail for 'invoice'",
    steps: [
      { act: "fill", role: TEXT, name: ["Search"], value: "invoice" },
      { act: "press", role: TEXT, name: ["Search"], value: "Enter" },
    ],
    check: "__state.query === 'invoice'",
  },
  {
    id: "wallet-send",
    app: "wallet.html",
    goal: "Send 25 euros to Jonas Berg",
    steps: [
      { act: "click", role: BUTTON, name: ["Send money"] },
      { act: "click", role: OPTION, name: ["Jonas Berg"] },
      { act: "fill", role: TEXT, name: ["Amount"], value: "25" },
      { act: "click", role: BUTTON, name: ["Confirm send"] },
    ],
    check: "__state.sent?.to === 'Jonas Berg' && __state.sent?.amount === '25'",
  },
  {
    id: "wallet-receipt",
    app: "wallet.html",
    goal: "Open the receipt of the Nordic Rail payment",
    steps: [{ act: "click", anchor: "Nordic Rail", role: LINK, name: ["Receipt"] }],
    check: "__state.receipt === 'tx1038'",
  },
  {
    id: "wallet-roundup",
    app: "wallet.html",
    goal: "Turn on round-up savings",
    steps: [{ act: "click", anchor: "Round-up savings", role: SWITCH }],
    check: "document.getElementById('roundup').checked && document.getElementById('sweep').checked",
  },
  {
    id: "wallet-payee",
    app: "wallet.html",
    goal: "Remove the saved payee Lena Okafor",
    steps: [{ act: "click", anchor: "Lena Okafor", role: BUTTON, name: DELETE }],
    check: "!__state.payees.includes('Lena Okafor') && __state.payees.length === 7",
  },
  {
    id: "settings-remember",
    app: "settings.html",
    goal: "Turn on 'Remember password'",
    steps: [{ act: "click", role: SWITCH, name: ["Remember password"] }],
    check: "document.getElementById('remember').checked && document.getElementById('twofa').checked",
  },
  {
    id: "settings-dropbox",
    app: "settings.html",
    goal: "Disconnect the Dropbox integration",
    steps: [{ act: "click", anchor: "Dropbox", role: BUTTON, name: ["Disconnect"] }],
    check: "!__state.connected.includes('Dropbox') && __state.connected.length === 6",
  },
  {
    id: "settings-country",
    app: "settings.html",
    goal: "Pick Sweden in the country dialog",
    steps: [
      { act: "click", role: BUTTON, name: ["Change country"] },
      { act: "click", role: OPTION, name: ["Sweden"] },
      { act: "click", role: BUTTON, name: ["Save"] },
    ],
    check: "__state.country === 'Sweden'",
  },
  {
    id: "settings-digest",
    app: "settings.html",
    goal: "Turn off the weekly digest email",
    steps: [{ act: "click", role: SWITCH, name: ["Weekly digest"] }],
    check: "!document.getElementById('n7').checked && document.getElementById('n9').checked",
  },
  {
    id: "invoices-open",
    app: "invoices.html",
    goal: "Open the invoice INV-1042 from the list",
    steps: [{ act: "click", anchor: "INV-1042", role: LINK, name: ["INV-1042"] }],
    check: "__state.open === 'INV-1042'",
  },
  {
    id: "invoices-paid",
    app: "invoices.html",
    goal: "Mark invoice INV-1009 as paid",
    steps: [{ act: "click", anchor: "INV-1009", role: BUTTON, name: ["Mark paid"] }],
    check: "__state.invoices.find((x) => x.no === 'INV-1009').status === 'paid' && __state.log.filter((l) => l.startsWith('paid')).length === 1",
  },
  {
    id: "invoices-overdue",
    app: "invoices.html",
    goal: "Show only the overdue invoices",
    steps: [{ act: "click", role: ["tab"], name: ["Overdue"] }],
    check: "__state.filter === 'overdue'",
  },
  {
    id: "invoices-new",
    app: "invoices.html",
    goal: "Create a draft invoice for Helios Labs",
    steps: [
      { act: "click", role: BUTTON, name: ["New invoice"] },
      { act: "fill", role: TEXT, name: ["Client"], value: "Helios Labs" },
      { act: "click", role: BUTTON, name: ["Save draft"] },
    ],
    check: "__state.created?.client === 'Helios Labs'",
  },
  {
    id: "issues-close",
    app: "issues.html",
    goal: "Close issue #318 (login button misaligned on Safari)",
    steps: [
      { act: "click", role: LINK, name: ["Login button misaligned on Safari"] },
      { act: "click", role: BUTTON, name: ["Close issue"] },
    ],
    check: "__state.issues.find((x) => x.n === 318).open === false && __state.issues.filter((x) => !x.open).length === 1",
  },
  {
    id: "issues-assign",
    app: "issues.html",
    goal: "Assign issue #342 (rate limit errors) to me",
    steps: [{ act: "click", anchor: "Rate limit errors are not shown", role: BUTTON, name: ["Assign to me"] }],
    check: "__state.issues.find((x) => x.n === 342).assignee === __state.me && __state.log.filter((l) => l.startsWith('assign')).length === 1",
  },
  {
    id: "issues-label",
    app: "issues.html",
    goal: "Add the label 'regression' to issue #305",
    steps: [
      { act: "click", role: LINK, name: ["Charts render blank after upgrading"] },
      { act: "click", role: BUTTON, name: ["Edit labels"] },
      { act: "click", role: SWITCH, name: ["regression"] },
    ],
    check: "__state.issues.find((x) => x.n === 305).labels.includes('regression')",
  },
  {
    id: "issues-comment",
    app: "issues.html",
    goal: "Comment 'Reproduced on 2.4.1' on issue #330",
    steps: [
      { act: "click", role: LINK, name: ["Webhook retries never stop"] },
      { act: "fill", role: TEXT, name: ["comment"], value: "Reproduced on 2.4.1" },
      { act: "click", role: BUTTON, name: ["Comment"] },
    ],
    check: "__state.issues.find((x) => x.n === 330).comments.includes('Reproduced on 2.4.1')",
  },
  {
    id: "clinic-allergy",
    app: "clinic.html",
    goal: "Delete the allergy 'Latex'",
    steps: [{ act: "click", anchor: "Latex", role: BUTTON, name: DELETE }],
    check: "(() => { const a = Object.values(__state.charts)[0].allergies; return !a.includes('Latex') && a.length === 3; })()",
  },
  {
    id: "clinic-patient",
    app: "clinic.html",
    goal: "Open the chart of Olsen, Ingrid",
    steps: [{ act: "click", role: LINK, name: ["Olsen, Ingrid"] }],
    check: "document.querySelector('#chart .banner').textContent.includes('Olsen, Ingrid')",
  },
  {
    id: "clinic-discontinue",
    app: "clinic.html",
    goal: "Discontinue the patient's Metformin",
    steps: [{ act: "click", anchor: "Metformin", role: BUTTON, name: ["Discontinue"] }],
    check: "(() => { const m = Object.values(__state.charts)[0].meds; return m.find((x) => x.name === 'Metformin').stopped && m.filter((x) => x.stopped).length === 1; })()",
  },
  {
    id: "clinic-blood",
    app: "clinic.html",
    goal: "Set the blood type to A+",
    steps: [{ act: "select", role: ["combobox"], name: ["Blood type"], value: "A+" }],
    check: "Object.values(__state.charts)[0].blood === 'A+'",
  },
];

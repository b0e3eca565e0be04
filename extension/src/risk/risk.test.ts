import { describe, expect, it } from "vitest";
import { assessRisk, isDestructiveName, needsConfirmation, type TargetDescription } from "./risk.ts";
import { siteOf, siteOfHost } from "./site.ts";

const page = "https://www.example.com/account";
const button = (name: string, extra: Partial<TargetDescription> = {}): TargetDescription => ({ tag: "button", role: "button", name, ...extra });
const field = (name: string, extra: Partial<TargetDescription> = {}): TargetDescription => ({ tag: "input", type: "text", role: "textbox", name, ...extra });
const signIn = { name: "Sign in", action: "https://www.example.com/login" };

describe("sites", () => {
  it("is the registrable domain for common hosts, the host for IPs and single labels", () => {
    expect(siteOfHost("www.example.com")).toBe("example.com");
    expect(siteOfHost("a.b.example.co.uk")).toBe("example.co.uk");
    expect(siteOfHost("127.0.0.1")).toBe("127.0.0.1");
    expect(siteOfHost("localhost")).toBe("localhost");
    expect(siteOf("file:///etc/passwd")).toBeUndefined();
    expect(siteOf("http://shop.example.com:8080/x")).toBe("example.com");
  });
});

describe("destructive names", () => {
  it("matches the documented words as whole words, any case", () => {
    for (const n of ["Delete my account", "PAY NOW", "Buy", "Place order", "Send", "Transfer funds", "Confirm", "Sign out", "Log out", "Remove item"]) {
      expect(isDestructiveName(n), n).toBe(true);
    }
    for (const n of ["Show details", "Ordered list", "Paypal help", "Sender info", "Next", ""]) expect(isDestructiveName(n), n).toBe(false);
  });
});

describe("assessRisk", () => {
  it("form submission by any path is high and says which form on which host", () => {
    expect(assessRisk({ action: "submit", pageUrl: page, target: field("Email", { form: signIn }) })).toMatchObject({
      risk: "high",
      kind: "submit",
      sentence: "Submit the form 'Sign in' on www.example.com",
      site: "example.com",
    });
    // a <button> without type in a form is a submit button
    const click = assessRisk({ action: "click", pageUrl: page, target: button("Continue", { submits: true, form: signIn }) });
    expect(click).toMatchObject({ risk: "high", kind: "submit" });
    expect(click.sentence).toBe("Submit the form 'Sign in' on www.example.com (by clicking button 'Continue')");
    const enter = assessRisk({ action: "press", key: "Enter", pageUrl: page, target: field("Email", { form: signIn }) });
    expect(enter).toMatchObject({ risk: "high", kind: "submit" });
    expect(enter.sentence).toMatch(/by pressing Enter in textbox 'Email'/);
    // Enter in a textarea or outside a form, and other keys, are not submissions
    expect(assessRisk({ action: "press", key: "Enter", pageUrl: page, target: { tag: "textarea", role: "textbox", name: "Note", form: signIn } }).risk).toBe("medium");
    expect(assessRisk({ action: "press", key: "Enter", pageUrl: page, target: field("Search") }).risk).toBe("medium");
    expect(assessRisk({ action: "press", key: "Tab", pageUrl: page, target: field("Email", { form: signIn }) }).risk).toBe("medium");
  });

  it("navigation that leaves the site is high; within the site it is not", () => {
    expect(assessRisk({ action: "open", pageUrl: page, url: "https://evil.test/x" })).toMatchObject({ risk: "high", kind: "leave_site" });
    expect(assessRisk({ action: "tab_new", pageUrl: page, url: "https://evil.test/" }).sentence).toBe("Leave www.example.com and open https://evil.test/ in a new tab");
    expect(assessRisk({ action: "open", pageUrl: page, url: "https://shop.example.com/" }).risk).toBe("medium");
    const link = { tag: "a", role: "link", name: "Docs" };
    expect(assessRisk({ action: "click", pageUrl: page, target: { ...link, href: "https://other.org/docs" } })).toMatchObject({
      risk: "high",
      kind: "leave_site",
      sentence: "Leave www.example.com for other.org (by clicking link 'Docs')",
    });
    expect(assessRisk({ action: "click", pageUrl: page, target: { ...link, href: "https://www.example.com/docs" } }).risk).toBe("medium");
  });

  it("payment and file fields, destructive controls and downloads are high", () => {
    expect(assessRisk({ action: "fill", pageUrl: page, target: field("Card holder") })).toMatchObject({ risk: "high", kind: "payment_field" });
    expect(assessRisk({ action: "type", pageUrl: page, target: field("x", { fieldName: "cvv" }) }).kind).toBe("payment_field");
    expect(assessRisk({ action: "fill", pageUrl: page, target: field("Upload", { type: "file" }) }).kind).toBe("file_field");
    expect(assessRisk({ action: "click", pageUrl: page, target: button("Delete my account") })).toMatchObject({
      risk: "high",
      kind: "destructive",
      sentence: "Click button 'Delete my account' on www.example.com",
    });
    expect(assessRisk({ action: "click", pageUrl: page, target: { tag: "a", role: "link", name: "Report", href: "/r.pdf", download: "report.pdf" } })).toMatchObject({
      kind: "download",
      sentence: "Download 'report.pdf' from www.example.com (by clicking link 'Report')",
    });
    expect(assessRisk({ action: "click", pageUrl: page, target: button("Show details") })).toMatchObject({ risk: "medium", sentence: "Click button 'Show details' on www.example.com" });
    expect(assessRisk({ action: "snapshot", pageUrl: page }).risk).toBe("low");
    // query and details only read: no confirmation, like snapshot and get.
    for (const action of ["query", "details"]) expect(assessRisk({ action, pageUrl: page, target: button("Delete my account") }).risk, action).toBe("low");
  });

  it("the writer's risk raises, never lowers", () => {
    expect(assessRisk({ action: "submit", pageUrl: page, requested: "low", target: field("Email", { form: signIn }) }).risk).toBe("high");
    expect(assessRisk({ action: "click", pageUrl: page, requested: "low", target: button("Delete my account") }).risk).toBe("high");
    const raised = assessRisk({ action: "click", pageUrl: page, requested: "high", target: button("Show details") });
    expect(raised).toMatchObject({ risk: "high", kind: "requested" });
    expect(raised.sentence).toMatch(/marked this high risk/);
    expect(assessRisk({ action: "snapshot", pageUrl: page, requested: "medium" }).risk).toBe("medium");
  });
});

describe("needsConfirmation", () => {
  const a = assessRisk({ action: "click", pageUrl: page, target: button("Delete my account") });
  it("asks for high risk unless approved for this action or granted on the site", () => {
    expect(needsConfirmation(a, [], [])).toBe(true);
    expect(needsConfirmation(a, ["destructive"], [])).toBe(false);
    expect(needsConfirmation(a, [], [{ site: "example.com", kind: "destructive" }])).toBe(false);
    expect(needsConfirmation(a, [], [{ site: "other.org", kind: "destructive" }])).toBe(true);
    expect(needsConfirmation(a, [], [{ site: "example.com", kind: "submit" }])).toBe(true);
    expect(needsConfirmation(assessRisk({ action: "snapshot", pageUrl: page }), [], [])).toBe(false);
  });
});

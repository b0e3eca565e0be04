// The e2e app: a React-controlled field and a button that changes the page and its URL
// (history.pushState, like a single-page app), plus a form whose submit is a high-risk action.
import { createElement as h, useState } from "react";
import { createRoot } from "react-dom/client";

function App() {
  const [name, setName] = useState("");
  const [details, setDetails] = useState(false);
  const [ordered, setOrdered] = useState("");
  const show = () => {
    setDetails(true);
    history.pushState({}, "", "?view=details");
    document.title = "Crumbs shop - details";
  };
  return h(
    "main",
    null,
    h("h1", null, "Crumbs shop"),
    h("h2", null, "Welcome"),
    h("label", null, "Your name ", h("input", { value: name, onChange: (e) => setName(e.target.value) })),
    h("p", { role: "status" }, `Hello ${name || "stranger"}`),
    h("button", { type: "button", onClick: show }, "Show details"),
    details && h("section", { "aria-label": "Details" }, h("h2", null, "Details"), h("p", null, "Shipping takes two days.")),
    h(
      "form",
      { "aria-label": "Order", onSubmit: (e) => (e.preventDefault(), setOrdered(`ordered by ${name || "stranger"}`)) },
      h("button", { type: "submit" }, "Place order"),
    ),
    ordered && h("p", { id: "ordered" }, ordered),
    h("a", { href: "/page2.html" }, "Second page"),
  );
}

createRoot(document.getElementById("root")).render(h(App));

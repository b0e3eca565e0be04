// A React-controlled form: values live in React state, so a write that skips React's value tracker is lost.
import { createElement as h, useState } from "react";
import { createRoot } from "react-dom/client";

function Form() {
  const [name, setName] = useState("Ada");
  const [agree, setAgree] = useState(false);
  const [plan, setPlan] = useState("pro");
  const [sent, setSent] = useState("");
  return h(
    "form",
    { "aria-label": "Signup", onSubmit: (e) => (e.preventDefault(), setSent(`${name}/${plan}/${agree}`)) },
    h("label", null, "Full name ", h("input", { value: name, onChange: (e) => setName(e.target.value) })),
    h("label", null, h("input", { type: "checkbox", checked: agree, onChange: (e) => setAgree(e.target.checked) }), " I agree"),
    h("select", { "aria-label": "Plan", value: plan, onChange: (e) => setPlan(e.target.value) },
      h("option", { value: "free" }, "Free"), h("option", { value: "pro" }, "Pro")),
    h("button", { type: "submit" }, "Sign up"),
    h("p", { role: "status" }, sent ? `Sent: ${sent}` : `Typed: ${name}`),
  );
}

createRoot(document.getElementById("root")).render(h(Form));

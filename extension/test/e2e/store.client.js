// The e2e store: products, and a cart React mounts anew (a new key) when window.rerenderCart() is
// called, as a re-render that swaps components does: the same "Shipping options" button as new DOM nodes.
import { createElement as h, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";

function Cart({ onShipping }) {
  return h("aside", { "aria-label": "Cart" }, h("h2", null, "Your cart"), h("p", null, "2 items"), h("button", { type: "button", onClick: onShipping }, "Shipping options"));
}

function Store() {
  const [rev, setRev] = useState(0);
  const [shipping, setShipping] = useState("");
  useEffect(() => {
    window.rerenderCart = () => setRev((r) => r + 1);
  }, []);
  return h(
    "div",
    null,
    h("header", null, h("nav", { "aria-label": "Main" }, h("a", { href: "/page2.html" }, "Second page"))),
    h(
      "main",
      null,
      h("h1", null, "Crumbs store"),
      h("ul", { "aria-label": "Products" }, ...["Tea", "Mug", "Kettle"].map((n) => h("li", { key: n }, `${n} `, h("button", { type: "button" }, "Add to cart")))),
      h(Cart, { key: rev, onShipping: () => setShipping(`Standard shipping: 2 days (render ${rev})`) }),
      shipping && h("p", { id: "shipping" }, shipping),
    ),
  );
}

createRoot(document.getElementById("root")).render(h(Store));

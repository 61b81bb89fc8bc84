// Small DOM helpers. Text always goes in as text (textContent), never as
// HTML, so a username or a chat line such as <img src=x onerror=...> is shown
// as it was typed.

/** `h("button", {class: "x", onclick: f}, "text", child)`: an element with attributes and children. */
export function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.append(child);
    else el.append(document.createTextNode(String(child)));
  }
}

/** Empty `el` and put `children` in it. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

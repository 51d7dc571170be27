// Small helpers of the page. Whatever an engine answers is shown as text, never parsed
// as HTML; the board's SVG is parsed as SVG (an XML document, where no script runs) and
// checked before it is shown.

export const $ = (id) => document.getElementById(id);
export const NAMES = { r: "Red", b: "Black" };
export const SVG_NS = "http://www.w3.org/2000/svg";
export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
export const signed = (value) => (value === null || value === undefined ? "?" : `${value > 0 ? "+" : ""}${value}`);
export const percent = (chance) => (chance === null || chance === undefined ? "?" : `${(100 * chance).toFixed(1)}%`);
export const other = (side) => (side === "r" ? "b" : "r");

// h("p", {id: "x"}, "text", child): an element whose children are text or elements.
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined)
    .map((child) => (child instanceof Node ? child : String(child))));
  return element;
}

// s("circle", {r: 3}): an SVG element.
export function s(tag, attributes, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, String(value));
  element.append(...children.map((child) => (child instanceof Node ? child : String(child))));
  return element;
}

// The SVG text of a board as an element of this document: parsed as image/svg+xml,
// refused if it is not an <svg> or holds a script, an event handler or a foreign object.
export function parseSvg(text) {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.nodeName !== "svg" || parsed.getElementsByTagName("parsererror").length) {
    throw new Error("the engine's board is not an SVG drawing");
  }
  for (const element of root.querySelectorAll("*")) {
    const name = element.localName.toLowerCase();
    if (name === "script" || name === "foreignobject") element.remove();
    for (const attribute of [...element.attributes]) {
      const value = attribute.value.trim().toLowerCase();
      if (attribute.name.toLowerCase().startsWith("on") || value.startsWith("javascript:")) {
        element.removeAttribute(attribute.name);
      }
    }
  }
  return document.importNode(root, true);
}

// A live region's text, announced to screen readers.
export function say(id, text) {
  const element = $(id);
  if (element.textContent !== text) element.textContent = text;
}

// Scrolls `element` into view: smoothly, unless the system asks for less motion (then at
// once, as the board's animations are left out by style.css).
export function reveal(element, options = {}) {
  const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  element.scrollIntoView({ ...options, behavior: still ? "auto" : "smooth" });
}

export function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
}

export function clearError() {
  $("error").hidden = true;
}

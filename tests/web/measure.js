// Measures the page for tests/web/layout.py (run by selenium's execute_script).
const slack = 1.5;
const visible = (el) => {
  const style = getComputedStyle(el);
  if (style.visibility === "hidden" || style.display === "none") return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
  (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/).join(".") : "");
// the nearest ancestor that has a box of its own (display: contents has none)
const container = (el) => {
  let parent = el.parentElement;
  while (parent && getComputedStyle(parent).display === "contents") parent = parent.parentElement;
  return parent;
};
const overflows = [];
const hidden = [];
const all = [...document.body.querySelectorAll("*")].filter((el) => !(el instanceof SVGElement) || el.tagName === "svg");
for (const el of all) {
  if (!visible(el)) continue;
  const r = el.getBoundingClientRect();
  const position = getComputedStyle(el).position;
  if (r.left < -slack || r.right > innerWidth + slack) overflows.push(`${name(el)} leaves the window sideways`);
  const parent = container(el);
  if (parent && parent !== document.body && position !== "fixed") {
    const p = parent.getBoundingClientRect();
    if (r.left < p.left - slack || r.right > p.right + slack || r.top < p.top - slack || r.bottom > p.bottom + slack) {
      overflows.push(`${name(el)} spills out of ${name(parent)}`);
    }
  }
  const style = getComputedStyle(el);
  if (el.scrollHeight > el.clientHeight + slack && ["auto", "scroll", "hidden"].includes(style.overflowY)) {
    hidden.push(`${name(el)} hides ${el.scrollHeight - el.clientHeight} px`);
  }
  if (el.scrollWidth > el.clientWidth + slack && ["auto", "scroll", "hidden"].includes(style.overflowX)) {
    hidden.push(`${name(el)} hides ${el.scrollWidth - el.clientWidth} px sideways`);
  }
}
// the smallest text as drawn (SVG text scaled by its drawing)
let smallest = [Infinity, ""];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode;
  const el = node.parentElement;
  if (!node.textContent.trim() || !el || !visible(el)) continue;
  let size = parseFloat(getComputedStyle(el).fontSize);
  if (el instanceof SVGElement) size *= el.getScreenCTM().a;
  if (size < smallest[0]) smallest = [size, `${name(el)} "${node.textContent.trim().slice(0, 30)}"`];
}
let tap = [Infinity, ""];
for (const el of document.body.querySelectorAll("button, input, select, a[href], summary, [data-move], [role=button]")) {
  if (!visible(el) || el.disabled) continue;
  const r = el.getBoundingClientRect();
  const size = Math.min(r.width, r.height);
  if (size < tap[0]) tap = [size, `${name(el)} ${Math.round(r.width)}x${Math.round(r.height)}`];
}
const doc = document.scrollingElement;
return {
  overflows, hidden, smallest, tap,
  scroll: [doc.scrollWidth - innerWidth, doc.scrollHeight - innerHeight],
  size: [innerWidth, innerHeight],
};

// el builds an element with attributes and children (text or nodes):
// nothing from the server ever becomes markup. Shared by the pages'
// scripts, which load after it.
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

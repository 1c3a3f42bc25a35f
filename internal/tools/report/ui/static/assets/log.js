"use strict";
// A step's log as the run page shows it, as a terminal would have: SGR
// colours and bold as styled spans, every other escape sequence dropped,
// a carriage return as a redraw (a progress bar's last state wins), one
// numbered, linkable row per line, and a search that marks its matches.
// Text goes in as text nodes only: a log is data, never markup.

// ansiState is the SGR state: fg and bg are null (default), 0..15 (the
// palette's classes, ansi-fg-N / ansi-bg-N in styles.css) or an "rgb(…)"
// string (256-colour and 24-bit colours, set through the CSSOM: the
// page's CSP forbids style attributes, not el.style).
function ansiState() {
  return { fg: null, bg: null, bold: false, dim: false, italic: false, underline: false, strike: false, inverse: false };
}

// c256 is colour n of the xterm 256-colour palette: 0..15 stay palette
// indexes, the rest are the 6×6×6 cube and the grey ramp.
function c256(n) {
  if (!(n >= 0 && n <= 255)) return null;
  if (n < 16) return n;
  if (n >= 232) {
    const g = 8 + 10 * (n - 232);
    return `rgb(${g}, ${g}, ${g})`;
  }
  const lv = [0, 95, 135, 175, 215, 255];
  const i = n - 16;
  return `rgb(${lv[Math.floor(i / 36)]}, ${lv[Math.floor(i / 6) % 6]}, ${lv[i % 6]})`;
}

function byte(v) {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 && n <= 255 ? n : null;
}

// sgr applies one Select Graphic Rendition sequence's parameters ("1;31",
// "38;5;196", "38:2:1:2:3", "" = reset) to st.
function sgr(st, params) {
  const p = params === "" ? [0] : params.split(/[;:]/).map((x) => (x === "" ? 0 : Number(x)));
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === 0) Object.assign(st, ansiState());
    else if (c === 1) st.bold = true;
    else if (c === 2) st.dim = true;
    else if (c === 3) st.italic = true;
    else if (c === 4) st.underline = true;
    else if (c === 7) st.inverse = true;
    else if (c === 9) st.strike = true;
    else if (c === 22) st.bold = st.dim = false;
    else if (c === 23) st.italic = false;
    else if (c === 24) st.underline = false;
    else if (c === 27) st.inverse = false;
    else if (c === 29) st.strike = false;
    else if (c >= 30 && c <= 37) st.fg = c - 30;
    else if (c === 39) st.fg = null;
    else if (c >= 40 && c <= 47) st.bg = c - 40;
    else if (c === 49) st.bg = null;
    else if (c >= 90 && c <= 97) st.fg = c - 90 + 8;
    else if (c >= 100 && c <= 107) st.bg = c - 100 + 8;
    else if (c === 38 || c === 48) {
      let col = null;
      if (p[i + 1] === 5) {
        col = c256(p[i + 2]);
        i += 2;
      } else if (p[i + 1] === 2) {
        const [r, g, b] = [byte(p[i + 2]), byte(p[i + 3]), byte(p[i + 4])];
        if (r != null && g != null && b != null) col = `rgb(${r}, ${g}, ${b})`;
        i += 4;
      } else {
        break; // malformed: the rest cannot be read
      }
      if (col != null) {
        if (c === 38) st.fg = col; else st.bg = col;
      }
    }
  }
}

// escapeEnd is where the escape sequence at s[i] (an ESC) ends, and the
// parameters of an SGR one (else null): CSI (ESC [ … final byte), OSC
// (ESC ] … BEL or ESC \), DCS/SOS/PM/APC strings (… ESC \), a charset
// designation (ESC ( B), or ESC and one more character.
function escapeEnd(s, i) {
  const n = s[i + 1];
  if (n === undefined) return { end: i + 1, sgr: null };
  if (n === "[") {
    let j = i + 2;
    while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x3f) j++;
    if (j >= s.length) return { end: s.length, sgr: null }; // cut short: drop it
    const fin = s.charCodeAt(j);
    if (fin < 0x40 || fin > 0x7e) return { end: j, sgr: null }; // not a CSI after all
    const params = s.slice(i + 2, j);
    return { end: j + 1, sgr: s[j] === "m" && /^[0-9;:]*$/.test(params) ? params : null };
  }
  if (n === "]" || n === "P" || n === "X" || n === "^" || n === "_") {
    for (let j = i + 2; j < s.length; j++) {
      if (n === "]" && s[j] === "\x07") return { end: j + 1, sgr: null };
      if (s[j] === "\x1b" && s[j + 1] === "\\") return { end: j + 2, sgr: null };
    }
    return { end: s.length, sgr: null };
  }
  if ("()*+-./#%".includes(n)) return { end: Math.min(s.length, i + 3), sgr: null };
  return { end: i + 2, sgr: null };
}

// ansiLine turns one line (no "\n") into styled segments [{text, st}],
// updating st for the lines after it. A carriage return starts the line
// over (the segments before it are dropped, the colours it set stay), as
// a terminal redrawing a progress bar shows it in the end; a last one
// (a CRLF line ending, a bar that ends on \r) changes nothing. Plain text
// is cut out in slices between escapes, not read character by character:
// a long log is mostly plain.
function ansiLine(line, st) {
  let segs = [];
  let style = { ...st };
  const push = (text) => {
    if (!text) return;
    const last = segs[segs.length - 1];
    if (last && last.st === style) last.text += text;
    else segs.push({ text, st: style });
  };
  for (let i = 0; i < line.length;) {
    let j = i;
    for (let c = line.charCodeAt(j); j < line.length && c !== 27 && c !== 13; c = line.charCodeAt(++j));
    push(line.slice(i, j));
    if (j >= line.length) break;
    if (line.charCodeAt(j) === 27) {
      const e = escapeEnd(line, j);
      if (e.sgr != null) {
        sgr(st, e.sgr);
        style = { ...st };
      }
      i = e.end;
      continue;
    }
    let k = j;
    while (line.charCodeAt(k) === 13) k++;
    if (k < line.length) segs = [];
    i = k;
  }
  return segs;
}

// ansiText is what a line shows, for tests and search: its segments'
// text.
function ansiText(line) {
  return ansiLine(line, ansiState()).map((s) => s.text).join("");
}

function segNode(seg) {
  const s = seg.st;
  let fg = s.fg;
  let bg = s.bg;
  if (s.inverse) [fg, bg] = [bg, fg];
  const cls = [];
  if (s.bold) cls.push("ansi-bold");
  if (s.dim) cls.push("ansi-dim");
  if (s.italic) cls.push("ansi-italic");
  if (s.underline) cls.push("ansi-underline");
  if (s.strike) cls.push("ansi-strike");
  if (s.inverse && fg == null) cls.push("ansi-inverse-fg");
  if (s.inverse && bg == null) cls.push("ansi-inverse-bg");
  if (typeof fg === "number") cls.push(`ansi-fg-${fg}`);
  if (typeof bg === "number") cls.push(`ansi-bg-${bg}`);
  if (!cls.length && fg == null && bg == null) return document.createTextNode(seg.text);
  const span = document.createElement("span");
  if (cls.length) span.className = cls.join(" ");
  span.textContent = seg.text;
  if (typeof fg === "string") span.style.color = fg;
  if (typeof bg === "string") span.style.backgroundColor = bg;
  return span;
}

// MAX_ROWS is how many lines a log pane holds: the last ones, numbered
// as in the whole log, after a note that the earlier ones are only in the
// raw download. A browser lays out tens of thousands of rows slowly, and
// the end of a log is where a running step's output and a failure are.
const MAX_ROWS = 10000;

// LogView shows one stream's text in a <pre>: row n is
// <span class="line" id="<stream>-L<n>"><a class="ln" href="#<stream>-L<n>"
// data-n="n"> (the number is CSS content, so a copy takes the text
// only) and <span class="lt"> the line. Text that only grew (a running
// step's log) renders only its new lines.
class LogView {
  constructor(pre, stream) {
    this.pre = pre;
    this.stream = stream;
    this.reset();
  }

  reset() {
    this.done = ""; // the text of the complete lines read
    this.st = ansiState(); // the SGR state after them
    this.n = 0; // complete lines read
    this.shown = 0; // rows in the pane
    this.cut = 0; // lines before them, not shown
    this.note = null; // the note that says so
    this.partial = null; // the row of a last line without its "\n"
    this.pre.replaceChildren();
  }

  // row is built with plain DOM calls: a log can have thousands of rows.
  row(line) {
    const n = ++this.n;
    this.shown++;
    const id = `${this.stream}-L${n}`;
    const row = document.createElement("span");
    row.className = "line";
    row.id = id;
    const a = document.createElement("a");
    a.className = "ln";
    a.href = `#${id}`;
    a.dataset.n = n;
    a.setAttribute("aria-label", `line ${n}`);
    const lt = document.createElement("span");
    lt.className = "lt";
    for (const seg of ansiLine(line, this.st)) lt.append(segNode(seg));
    row.append(a, lt, "\n"); // the "\n" collapses (white-space: normal); textContent keeps a line per line
    return row;
  }

  // set shows text; true when the rows changed.
  set(text) {
    if (!text.startsWith(this.done)) this.reset();
    if (this.partial) {
      this.partial.remove();
      this.partial = null;
      this.n--;
      this.shown--;
    }
    const rest = text.slice(this.done.length);
    const lines = rest.split("\n");
    const last = lines.pop();
    // Lines that would be cut at once are only read for their colours.
    const rows = lines.length + (last !== "" ? 1 : 0);
    let i = 0;
    for (; i < lines.length && rows - i > MAX_ROWS; i++) {
      ansiLine(lines[i], this.st);
      this.n++;
      this.cut++;
    }
    const frag = document.createDocumentFragment();
    for (; i < lines.length; i++) frag.append(this.row(lines[i]));
    this.done = text.slice(0, text.length - last.length);
    if (last !== "") {
      const keep = { ...this.st };
      this.partial = this.row(last);
      frag.append(this.partial);
      this.st = keep; // the line is read again once it is complete
    }
    this.pre.append(frag);
    while (this.shown > MAX_ROWS) {
      (this.note ? this.note.nextSibling : this.pre.firstChild).remove();
      this.shown--;
      this.cut++;
    }
    if (this.cut) {
      if (!this.note) this.note = this.pre.insertBefore(el("span", { class: "log-cut" }), this.pre.firstChild);
      this.note.textContent = `⋯ ${this.cut} earlier line${this.cut === 1 ? "" : "s"} not shown: the raw log has them all\n`;
    }
    return rows > 0;
  }
}

// LogSearch marks the matches of a term in the log panes it is given
// (pres: the page sets them to those shown) as <mark class="hit">,
// case-insensitively, and moves between them; the current one is
// "hit current", scrolled into view.
class LogSearch {
  constructor(pres, count) {
    this.pres = pres;
    this.count = count;
    this.term = "";
    this.hits = []; // each: the marks of one match (a match may span styled spans)
    this.at = -1;
  }

  clear() {
    for (const pre of document.querySelectorAll("pre.log")) { // the panes searched before too
      const touched = new Set();
      for (const m of pre.querySelectorAll("mark.hit")) {
        touched.add(m.parentNode);
        m.replaceWith(...m.childNodes);
      }
      for (const p of touched) p.normalize();
    }
    this.hits = [];
  }

  // run marks term anew (after the logs changed too), keeping the current
  // match's place when it can.
  run(term) {
    const keep = term === this.term ? this.at : 0;
    this.term = term;
    this.clear();
    if (term) {
      for (const pre of this.pres) {
        for (const lt of pre.querySelectorAll(".lt")) this.hits.push(...markLine(lt, term));
      }
    }
    this.at = this.hits.length ? Math.min(Math.max(keep, 0), this.hits.length - 1) : -1;
    this.show(false);
  }

  move(d) {
    if (!this.hits.length) return;
    this.at = (this.at + d + this.hits.length) % this.hits.length;
    this.show(true);
  }

  show(scroll) {
    for (const m of document.querySelectorAll("mark.current")) m.classList.remove("current");
    if (!this.term) {
      this.count.textContent = "";
      return;
    }
    if (this.at < 0) {
      this.count.textContent = "no match";
      return;
    }
    for (const m of this.hits[this.at]) m.classList.add("current");
    this.count.textContent = `${this.at + 1} of ${this.hits.length}`;
    if (scroll) this.hits[this.at][0].scrollIntoView({ block: "center" });
  }
}

// markLine wraps each match of term in lt's text in marks and returns
// them, one list per match, in order.
function markLine(lt, term) {
  const text = lt.textContent;
  let hay = text.toLowerCase();
  let needle = term.toLowerCase();
  if (hay.length !== text.length || needle.length !== term.length) [hay, needle] = [text, term]; // lower case changed lengths
  const found = [];
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) found.push(i);
  if (!found.length) return [];
  const nodes = [];
  const walk = document.createTreeWalker(lt, NodeFilter.SHOW_TEXT);
  for (let off = 0, n = walk.nextNode(); n; n = walk.nextNode()) {
    nodes.push({ n, off });
    off += n.data.length;
  }
  const out = found.map(() => []);
  // From the last match back: splitting a node keeps its start in place,
  // so the earlier matches' offsets stay right.
  for (let k = found.length - 1; k >= 0; k--) {
    const a = found[k];
    const b = a + needle.length;
    for (let j = nodes.length - 1; j >= 0; j--) {
      const { n, off } = nodes[j];
      const len = n.data.length;
      if (off >= b || off + len <= a) continue;
      const s = Math.max(a, off) - off;
      const e = Math.min(b, off + len) - off;
      if (e < len) n.splitText(e);
      const mid = s > 0 ? n.splitText(s) : n;
      const mark = el("mark", { class: "hit" });
      mid.replaceWith(mark);
      mark.append(mid);
      out[k].unshift(mark);
    }
  }
  return out;
}

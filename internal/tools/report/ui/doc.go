// Package ui is the browser UI of `jaiph report`: static HTML, CSS and
// vanilla JavaScript embedded in the binary (no framework, no build step,
// no CDN, so it works offline). FS holds index.html (the run list),
// run.html (one run's steps, output, inbox and files) and assets/
// (assets/log.js renders a step's log: ANSI colours, redrawn lines,
// numbered lines, search); the report server serves it and the UI reads
// only the server's /api endpoints. Pages put data in as text, never as
// markup, and run under a CSP without inline script or style.
package ui

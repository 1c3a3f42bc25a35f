// Package ui is the browser UI of `jaiph report`: static HTML, CSS and
// vanilla JavaScript embedded in the binary (no framework, no build step,
// no CDN, so it works offline). FS holds index.html (the run list),
// run.html (one run's steps, output and inbox) and assets/; the report
// server serves it and the UI reads only the server's /api endpoints.
package ui

// Package inlets is the operator's configuration of what starts served
// runs besides a client's request (`jaiph serve --inlets FILE`): webhooks
// whose signed deliveries are routed to workflows, and schedules that
// start workflows on a cron expression. It reads and checks the file
// (every mistake located as FILE:LINE:COL), verifies and routes a
// delivery, and fires schedules; the HTTP endpoints and the runs are
// internal/tools/serve's. It links no HTTP server so that `jaiph
// schedules`, in the default build, costs the start-up of every other
// command nothing noticeable.
package inlets

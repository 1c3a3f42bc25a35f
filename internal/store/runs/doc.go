// Package runs owns what a run leaves in its run directory for later
// commands (`jaiph runs`, and `jaiph resume` to come): the metadata file
// written when the run starts, the lock the live process holds, the end
// record written when it ends, and reading all of them back from disk to
// list a workspace's runs with their status.
//
// It must not import runtime: it reads run directories of processes that
// are gone (or still alive) without running anything.
package runs

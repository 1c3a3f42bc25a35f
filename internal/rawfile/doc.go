// Package rawfile writes and reads small regular files with plain system
// calls. An *os.File registers its descriptor with Go's poller, which on
// Linux costs five system calls more per file (fcntl four times and an
// epoll_ctl that regular files refuse): for the inbox, which writes and
// reads a file per message, a fifth of its system calls.
package rawfile

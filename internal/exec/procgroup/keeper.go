package procgroup

// keeperScript is the keeper's whole life: hold the group until jaiph says
// "q" or is gone (its end of the pipe closed: read fails), and in the
// second case end the group: SIGTERM to every member, SIGKILL 2 s later
// (KillDelay). Signals jaiph forwards to the group are for the programs,
// so the keeper ignores them. A POSIX shell is enough, and starts faster
// and smaller than a copy of jaiph would.
const keeperScript = `trap '' HUP INT QUIT TERM USR1 USR2 PIPE
IFS= read -r line
[ "$line" = q ] && exit 0
kill -TERM 0
sleep 2
kill -KILL 0
`

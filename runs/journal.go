package runs

// JournalFile is the run's call journal (runtime/journal.go writes it,
// `jaiph resume` replays from it; docs/durability.md "Journal and resume").
const JournalFile = ".journal"

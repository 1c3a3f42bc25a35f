// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found restating Oils' spec background file
// (testdata/bashcompat/oils_background.txtar in jaiph-go).
package interp_test

import "testing"

// TestJaiphJobSpecByName: %name names the job whose command starts with
// name, %?name the one whose command holds name in any case; a second
// match is bash's ambiguous job spec, said by each builtin as bash says it.
func TestJaiphJobSpecByName(t *testing.T) {
	runCases(t, []string{
		// prefix and substring, the status of the job named
		"sleep 0.05 &\n(exit 3) &\n{ exit 4; } &\nf() { sleep 0.05; return 5; }\nf 2>/dev/null &\nwait %sleep; echo \"sleep $?\"\nwait %f; echo \"f $?\"",
		"sleep 0.05 &\nwait %?0.05; echo \"sub $?\"\nsleep 0.05 &\nwait %?LEEP; echo \"case $?\"\nsleep 0.05 &\nwait %SLEEP; echo \"prefix case $?\"; wait",
		// arguments and assignments are part of the text; redirections
		// follow the words in bash's layout
		"x=1 sleep 0.05 > /dev/null &\nwait '%x=1 sleep 0.05 > /dev'; echo \"a $?\"\n>/dev/null 2>&1 sleep 0.05 &\nwait '%?sleep 0.05 > /dev/null 2>&1'; echo \"b $?\"\nsleep 0.05 <&- 2>/dev/null &\nwait '%sleep 0.05 0>&- 2> /dev/null'; echo \"c $?\"",
		"env printf '%s\\n' \"a  b\" &\nwait \"%env printf '%s\\n' \\\"a  b\\\"\"; echo \"quoted $?\"",
		// ambiguous specs: kill says so; wait -n, disown and jobs add
		// no such job
		"sleep 0.1 &\nsleep 0.1 &\nkill %sleep; echo \"kill $?\"\ndisown %sleep; echo \"disown $?\"\njobs -p %sleep; echo \"jobs $?\"\nwait -n %sleep; echo \"wait -n $?\"\nwait %?ee; echo \"wait $?\"\nwait",
		// no match: no such job, with the % and the ?
		"sleep 0.05 &\nwait %slp; echo \"w $?\"\nwait %?zz; echo \"q $?\"\nkill %nope; echo \"k $?\"\ndisown %?no; echo \"d $?\"\njobs -p %x; echo \"j $?\"\nwait",
		// kill by name, then the job's status
		"sleep 5 &\np=$!\nkill %sleep\nwait $p; echo \"status $?\"",
		"sleep 5 &\np=$!\nkill -s TERM %?'p 5'\nwait $p; echo \"status $?\"",
		// bash meets a match on a later element of a pipeline twice, so
		// the spec is ambiguous; a match on the first element is not
		"true | sleep 0.05 &\nwait %true; echo \"first $?\"\ntrue | sleep 0.05 &\nwait %sleep; echo \"second $?\"\nwait %?'sleep 0'; echo \"sub $?\"\nwait",
		// after the %: digits are a number
		"(exit 5) &\n(exit 6) &\nsleep 0.1\nwait %01; echo \"one $?\"",
		// a job wait saw end leaves the table at once
		"(exit 3) &\nsleep 0.1 &\nwait %sleep; echo \"a $?\"\nwait %?e; echo \"b $?\"",
		// subshells and brace groups of simple commands, in bash's layout
		"(exit 3) &\n{ exit 4; } &\n(true; exit 5) &\nwait '%( exit 3 )'; echo \"a $?\"\nwait '%{ exit 4; }'; echo \"b $?\"\nwait '%?true; exit 5 )'; echo \"c $?\"",
		// compound commands and substitutions: matched on how bash's
		// text starts
		"for i in 1 2; do sleep 0.05; done &\nwhile false; do :; done &\ncase x in x) (exit 3);; esac &\n[[ -n x ]] &\ntrue && (exit 4) &\necho $(echo  hi) >/dev/null &\nwait '%for i in 1 2;'; echo \"for $?\"\nwait %while; echo \"while $?\"\nwait '%case x in'; echo \"case $?\"\nwait '%[['; echo \"test $?\"\nwait '%true && '; echo \"and $?\"\nwait '%echo '; echo \"echo $?\"\nwait %until; echo \"until $?\"",
		// a job wait reported by its spec leaves the table when the next
		// job starts, which takes its number
		"(exit 3) &\nwait %1; echo \"a $?\"\n(exit 4) &\nwait %1; echo \"b $?\"\nwait %2; echo \"c $?\"",
	})
}

// TestJaiphSignalShellFromJob: a job or subshell that signals $$ reaches
// the shell: a trapped signal interrupts a wait (128+signal) after its
// trap ran, or runs its trap once the shell's current command has ended;
// an ignored one does nothing. (An untrapped one ends the shell with
// 128+signal, where bash dies of the signal: compareWithBash sees no status.)
func TestJaiphSignalShellFromJob(t *testing.T) {
	runCases(t, []string{
		"trap 'echo trap USR1' USR1\nsleep 30 &\n( sleep 0.5; kill -USR1 $$ ) &\nwait %1; echo \"status $?\"\nkill %1; wait; echo \"status $?\"",
		"trap 'echo trap USR2' USR2\nsleep 3 &\np=$!\n( sleep 0.5; kill -s USR2 $$ ) &\nwait $p; echo \"status $?\"\nwait $p; echo \"again $?\"",
		"trap 'echo trap USR1' USR1\nsleep 30 &\n( sleep 0.5; kill -USR1 $$ ) &\nwait -n %1; echo \"status $?\"\nkill %1; wait",
		// INT, TERM and HUP trapped the same way
		"trap 'echo trap INT' INT\ntrap 'echo trap TERM' TERM\ntrap 'echo trap HUP' HUP\nsleep 30 &\n( sleep 0.5; kill -INT $$; sleep 0.5; kill $$; sleep 0.5; kill -HUP $$ ) &\nwait %1; echo \"int $?\"\nwait %1; echo \"term $?\"\nwait %1; echo \"hup $?\"\nkill %1; wait",
		// not in a wait: the trap runs once the command ends
		"trap 'echo trap USR1' USR1\n( kill -USR1 $$; echo sub )\necho after",
		"trap 'echo trap USR1; got=1' USR1\nkill -USR1 $$ &\nuntil [ -n \"$got\" ]; do sleep 0.05; done\necho after",
		"trap 'echo trap TERM' TERM\n( kill $$ ); echo after $?",
		// the trap can exit the shell
		"trap 'echo bye; kill %1; exit 7' USR1\nsleep 30 &\n( sleep 0.5; kill -USR1 $$ ) &\nwait %1\necho never",
		// ignored: the wait goes on
		"trap '' USR1\n( sleep 0.1; kill -USR1 $$ ) &\nsleep 0.3 &\nwait $!; echo \"status $?\"",
		"( sleep 0.1; kill -WINCH $$ ) &\nsleep 0.3 &\nwait $!; echo \"status $?\"",
	})
}

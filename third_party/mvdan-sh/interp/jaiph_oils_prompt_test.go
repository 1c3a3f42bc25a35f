package interp_test

import "testing"

// ${x@P} decodes prompt escapes as bash's decode_prompt_string (host,
// user, directory, time and date escapes, \D{…}, backslashes and \$), then
// expands the result as a double-quoted string (Oils' spec/prompt).
func TestJaiphPromptExpand(t *testing.T) {
	runCases(t, []string{
		`for p in '$' '\$' '\\$' '\\\$' '\\\\$' '\' '\\' '[\x55]' '\1004$' '[\045]' '\555$' '[\0455]'; do PS1=$p; echo "${PS1@P}"; done`,
		`x='\'; y='h'; PS1='$x$y'; echo "${PS1@P}"; v=val; PS1='[$v] $(echo sub) $((1+2)) \\$v'; echo "${PS1@P}"`,
		`mkdir '$foo'; cd '$foo'; foo=X; PS1='\w|\W'; echo "${PS1@P}" | sed "s|$(dirname "$PWD")|D|"; HOME=$PWD; echo "${PS1@P}"`,
		`PS1='\h|\H|\u|\s|\v|\V|\l'; [[ ${PS1@P} == "$(hostname -s)|$(hostname)|$(id -un)|bash|5.2|5.2."* ]] && echo ok`,
		// The clock is read before and after the expansion, and again
		// when a minute turned in between, so no boundary can fail it.
		`export TZ=UTC; PS1='\D{%Y-%m-%d %H:%M}|\A|\t'; for i in 1 2 3; do s=$(date '+%Y-%m-%d %H:%M'); p=${PS1@P}; [[ $s == "$(date '+%Y-%m-%d %H:%M')" ]] && break; done; [[ $p == "$s|${s#* }|${s#* }:"* ]] && echo ok`,
		`PS1='\d|\D{}|\D{%a %b %e %j %p %%}|\T|\@'; f='+%a %b %d|%H:%M|%a %b %e %j %p %%'; for i in 1 2 3; do s=$(date "$f"); p=${PS1@P}; [[ $s == "$(date "$f")" ]] && break; done; IFS='|' read -r d hm rest <<< "$s"; [[ $p == "$d|$hm:"*"|$rest|"*" "[AP]M ]] && echo ok`,
	})
}

// \j is the number of jobs in the table (the jobs jobs -p lists).
func TestJaiphPromptJobs(t *testing.T) {
	runCases(t, []string{
		`PS1='\j'; echo "${PS1@P}"; sleep 5 & echo "${PS1@P}"; sleep 5 & ( echo "sub ${PS1@P}" ); kill %1 %2; wait; echo "${PS1@P}"`,
		`PS1='[\j]'; true & wait $!; echo "${PS1@P}"; false & sleep 0.2; echo "${PS1@P}"; wait; echo "${PS1@P}"`,
	})
}

// \! is the history number: 1, since a shell off a terminal keeps no
// history (bash's history_number).
func TestJaiphPromptHistoryNumber(t *testing.T) {
	runCases(t, []string{
		`PS1='\!'; echo "${PS1@P}"; f() { local p='[\!] \\! \\\!'; echo "${p@P}"; }; f; ( echo "${PS1@P}" ); x=$(echo "${PS1@P}"); echo "$x"`,
	})
}

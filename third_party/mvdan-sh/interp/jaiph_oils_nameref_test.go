package interp_test

import "testing"

// Namerefs as bash 5.2 (Oils' spec/nameref, restated).
func TestJaiphOilsNamerefScope(t *testing.T) {
	runCases(t, []string{
		`setit() { local -n out=$1; out=x; }; middle() { setit "$@"; }; top() { local V=V; middle V; echo V=$V; }; top`,
		`setit() { local -n out=$1; out=x; }; top() { local V=V; setit V; echo V=$V; }; top`,
		`setit() { local -n out=$1; out=x; }; V=V; setit V; echo V=$V`,
		`f() { x=X; typeset -n r=x; unset r; echo "r=$r x=$x"; declare -p x r; }; f`,
		`x=X; typeset -n r=x; unset r; echo "r=$r x=$x"; declare -p x r`,
		`f() { x=XX; y=YY; typeset -n r=x; typeset -n r=y; echo "r=$r x=$x y=$y"; r=z; echo "r=$r x=$x y=$y"; }; f`,
		`x=XX; y=YY; typeset -n r=x; typeset -n r=y; echo "r=$r x=$x y=$y"; r=z; echo "r=$r x=$x y=$y"`,
	})
}

// A nameref without a value takes the name assigned to it.
func TestJaiphOilsNamerefEmpty(t *testing.T) {
	runCases(t, []string{
		`f() { typeset -n r; echo "r=$r"; x=XX; r=x; echo "r=$r"; r=other; echo "r=$r x=$x other=$other"; }; f`,
		`f() { a=AA; r=a; typeset -n r; echo "r=$r"; r=changed; echo "r=$r a=$a"; }; f`,
		`typeset -n r; r=x; x=1; echo "r=$r"; declare -p r`,
		`f() { typeset -n r2=nothing; echo "r2=$r2"; r2=x; echo "r2=$r2 nothing=$nothing"; }; f`,
	})
}

// declare -n checks the name it is given; an exported nameref passes its
// value to commands.
func TestJaiphOilsNamerefDeclare(t *testing.T) {
	runCases(t, []string{
		`declare -n s=s; echo $?; typeset -n t=@; echo $?; declare -n u="a[1]"; echo $?; declare -n v="a b"; echo $?; f() { local -n w=1; echo $?; }; f; declare -p u; declare -p s t v 2>&1 | wc -l`,
		`x=val; typeset -n -x r=x; printenv x || echo no x; printenv r; export x; printenv x; printenv r`,
	})
}

// A readonly nameref assigns its target; a readonly target stops it.
func TestJaiphOilsNamerefReadonly(t *testing.T) {
	runCases(t, []string{
		`f() { x=XX; typeset -n -r r=x; r=YY; echo $? $x; declare -p r x; typeset -r x; r=Z; echo not reached; }; f`,
		`x=XX; declare -rn r=x; r=YY; declare -p x`,
	})
}

// A list given to a nameref naming nothing drops the attribute, warning.
func TestJaiphOilsNamerefList(t *testing.T) {
	runCases(t, []string{
		`f() { typeset -n r; r=(x y); echo "r=$r"; declare -p r; typeset -n s=q; s=(1 2); declare -p s q; }; f`,
	})
}

// A subscript or a list through a nameref to an element is an assignment
// error that discards the command.
func TestJaiphOilsNamerefElemAssign(t *testing.T) {
	runCases(t, []string{
		`arr=(X Y Z); typeset -n r='arr[0]'; r[0]=foo || echo st; echo next; { r[1]=foo; echo same; }; echo ${arr[@]}`,
		`a=(p q); typeset -n r='a[@]'; r=(X Y) || echo st; echo next; printf '<%s>' "${a[@]}"; echo`,
	})
}

// "$r" of a nameref to a[@] is the list's fields.
func TestJaiphOilsNamerefAllElems(t *testing.T) {
	runCases(t, []string{
		`typeset -n r='a[@]'; a=('A B' C); printf '<%s>' r "$r"; echo; echo $r; s="$r"; echo "$s"; typeset -n q='a[*]'; printf '<%s>' "$q"; echo`,
	})
}

// unset follows a nameref; unset -n removes the nameref itself.
func TestJaiphOilsNamerefUnset(t *testing.T) {
	runCases(t, []string{
		`x=5; declare -n r=x; unset -n r; echo "${r-none} $x"`,
		`x=5; declare -n r=x; unset r; echo "${r-none} ${x-none}"; declare -p r`,
		`f() { echo f; }; declare -n r=x; unset -n f; f`,
	})
}

// Namerefs naming each other read as empty, with bash's warning.
func TestJaiphOilsNamerefLoopRead(t *testing.T) {
	runCases(t, []string{
		`f() { typeset -n c1=c2; typeset -n c2=c1; echo made; echo "c1=$c1"; echo c2=$c2; }; f`,
		`typeset -n c1=c2; typeset -n c2=c1; echo "c1=$c1"`,
	})
}

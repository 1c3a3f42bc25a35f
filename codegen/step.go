package codegen

import "fmt"

// addStep records a step and returns the id word that stands for it.
func (l *lowerer) addStep(s Step) string {
	s.ID = len(l.tab) + 1
	l.tab = append(l.tab, s)
	return fmt.Sprint(s.ID)
}

// table writes the step table as comments after the body, so `jaiph build`
// output says what each step id is. (A comment beside the call itself would
// comment out what follows it on the line: `)`, `; then`, a joined recover.)
func (l *lowerer) table() {
	for i := range l.tab {
		l.put(fmt.Sprintf("# step %d: %s", l.tab[i].ID, l.tab[i].String()), Origin{Line: l.next()})
	}
}

package parser_test

import (
	"fmt"

	"github.com/jaiph-go/jaiph/parser"
)

// Parse turns one file's text into its syntax tree; nothing is resolved
// across files (that is validate's job). Every node keeps its position.
func ExampleParse() {
	src := []byte(`channel findings

workflow default {
  findings <- echo "found it"
  findings -> review
}

workflow review {
  echo "reviewing $1"
}
`)
	file, diags := parser.Parse("/work/flow.jh", src)
	fmt.Println("diagnostics:", len(diags))
	fmt.Println("channel:", file.Channels[0].Name)
	for _, w := range file.Workflows {
		fmt.Printf("workflow %s at line %d: %d steps, %d routes\n", w.Name, w.Line, len(w.Steps), len(w.Routes))
	}
	// Output:
	// diagnostics: 0
	// channel: findings
	// workflow default at line 3: 1 steps, 1 routes
	// workflow review at line 8: 1 steps, 0 routes
}

// A problem is a diagnostic at the file's line and column, not an error
// value: the parser goes on and reports what else it finds.
func ExampleParse_diagnostic() {
	_, diags := parser.Parse("/work/flow.jh", []byte("workflow default {\n  echo hi\n"))
	for _, d := range diags {
		fmt.Println(d.Line, d.Code)
	}
	// Output:
	// 1 E_PARSE
}

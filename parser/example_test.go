package parser_test

import (
	"fmt"

	"github.com/jaiph-go/jaiph/ast"
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

// The tree is lossless enough for a formatter and a language server:
// File.Items holds the declarations, comments and blank runs in source
// order, every node has an End (just after its last character), and each
// reference carries the position where its REF starts.
func ExampleParse_lossless() {
	src := []byte(`#!/usr/bin/env jaiph
# Reviews findings.
channel findings


workflow default {
  ensure lib.ready "$1"
  findings -> review, lib.archive
}
`)
	file, _ := parser.Parse("/work/flow.jh", src)
	for _, it := range file.Items {
		start := it.ItemPos()
		switch it := it.(type) {
		case *ast.Comment:
			fmt.Printf("comment %d:%d-%d:%d %s\n", start.Line, start.Col, it.End.Line, it.End.Col, it.Text)
		case *ast.Blank:
			fmt.Printf("blank   %d-%d (%d lines)\n", start.Line, it.End.Line, it.Lines)
		case *ast.Channel:
			fmt.Printf("channel %d:%d-%d:%d %s\n", start.Line, start.Col, it.End.Line, it.End.Col, it.Name)
		case *ast.Workflow:
			fmt.Printf("workflow %d:%d-%d:%d %s\n", start.Line, start.Col, it.End.Line, it.End.Col, it.Name)
			e := it.Steps[0].(*ast.Ensure)
			fmt.Printf("  ensure %s at %d:%d, ends %d:%d\n", e.Ref, e.RefPos.Line, e.RefPos.Col, e.End.Line, e.End.Col)
			for _, t := range it.Routes[0].Targets {
				fmt.Printf("  route target %s at %d:%d\n", t.Ref, t.RefPos.Line, t.RefPos.Col)
			}
		}
	}
	// Output:
	// comment 1:1-1:21 #!/usr/bin/env jaiph
	// comment 2:1-2:20 # Reviews findings.
	// channel 3:1-3:17 findings
	// blank   4-5 (2 lines)
	// workflow 6:1-9:2 default
	//   ensure lib.ready at 7:10, ends 7:24
	//   route target review at 8:15
	//   route target lib.archive at 8:23
}

// Package ast is the plain-data model of a parsed Jaiph module (.jh/.jph) or
// test file (.test.jh). It holds no behaviour beyond small accessors: the parser
// builds it, the validator checks it, codegen lowers it, the runtime never
// re-parses Jaiph text.
//
// It must not be mutated after parsing (validate keeps resolved imports in
// its own table) and must not import any other stage.
package ast

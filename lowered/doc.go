// Package lowered holds what codegen hands to the runtime: lowered bodies
// (shell source, line maps, typed step records) and the resolved facts of
// each module (imports, config settings, locals, routes). It has no logic
// beyond accessors and must not import the AST or the validator: the runtime
// depends on these types only.
package lowered

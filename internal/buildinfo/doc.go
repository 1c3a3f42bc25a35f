// Package buildinfo tells which jaiph-go this binary is. It must not
// depend on the rest of the project.
package buildinfo

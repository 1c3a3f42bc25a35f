module mvdan.cc/sh/v3

go 1.26.0

require (
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.45.0
)

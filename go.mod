module github.com/jaiph-go/jaiph

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/fatih/color v1.19.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/spf13/cobra v1.10.2 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)

module github.com/jaiph-go/jaiph

go 1.26.0

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/chromedp/chromedp v0.23.0
	github.com/fatih/color v1.19.0
	github.com/rogpeppe/go-internal v1.16.0
	github.com/sourcegraph/jsonrpc2 v0.2.3
	github.com/spf13/cobra v1.10.2
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.45.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	golang.org/x/tools v0.38.0 // indirect
)

replace mvdan.cc/sh/v3 => ./third_party/mvdan-sh

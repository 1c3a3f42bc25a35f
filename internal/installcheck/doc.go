// Package installcheck holds TestGoInstall, which `make install-check`
// runs (JAIPH_INSTALL_CHECK=1; skipped otherwise, it compiles the module
// twice): the module, zipped as a module proxy serves it, installs with
// `go install github.com/jaiph-go/jaiph/cmd/jaiph@VERSION`, with and
// without `-tags full`, from a file:// proxy, offline. The check keeps
// go.mod free of what `go install pkg@version` refuses (replace and
// exclude directives) and the module's file set valid for a module zip.
package installcheck

package ast

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
)

// Dump renders a node as indented text for golden files and debugging:
// one field per line, zero values omitted, positions as line:col, file
// paths reduced to their base name so dumps do not depend on the checkout;
// fields tagged `dump:"-"` (a file's source lines) are left out.
func Dump(node any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(node), 0)
	return b.String()
}

var posType = reflect.TypeOf(Pos{})

func dumpValue(b *strings.Builder, v reflect.Value, indent int) {
	pad := strings.Repeat("  ", indent)
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil\n")
			return
		}
		dumpValue(b, v.Elem(), indent)
	case reflect.Struct:
		if v.Type() == posType {
			p := v.Interface().(Pos)
			fmt.Fprintf(b, "%d:%d\n", p.Line, p.Col)
			return
		}
		fmt.Fprintf(b, "%s\n", v.Type().Name())
		for i := 0; i < v.NumField(); i++ {
			f, fv := v.Type().Field(i), v.Field(i)
			if fv.IsZero() || f.Tag.Get("dump") == "-" {
				continue
			}
			name := f.Name
			if f.Anonymous && f.Type == posType {
				name = "Pos"
			}
			if f.Name == "Items" {
				dumpItems(b, fv, pad)
				continue
			}
			if f.Name == "Path" {
				fmt.Fprintf(b, "%s  %s: %q\n", pad, name, filepath.Base(fv.String()))
				continue
			}
			fmt.Fprintf(b, "%s  %s: ", pad, name)
			dumpValue(b, fv, indent+1)
		}
	case reflect.Slice:
		if v.Len() == 0 {
			b.WriteString("[]\n")
			return
		}
		b.WriteString("\n")
		for i := 0; i < v.Len(); i++ {
			fmt.Fprintf(b, "%s  - ", pad)
			dumpValue(b, v.Index(i), indent+2)
		}
	case reflect.String:
		fmt.Fprintf(b, "%q\n", v.String())
	default:
		fmt.Fprintf(b, "%v\n", v.Interface())
	}
}

// dumpItems shows File.Items one line each (kind and span), since every
// item is also dumped in full in its typed list.
func dumpItems(b *strings.Builder, v reflect.Value, pad string) {
	fmt.Fprintf(b, "%s  Items:\n", pad)
	for i := 0; i < v.Len(); i++ {
		it := v.Index(i).Elem()
		start := it.Interface().(Item).ItemPos()
		end := it.Elem().FieldByName("End").Interface().(Pos)
		fmt.Fprintf(b, "%s    - %s %d:%d-%d:%d\n", pad, it.Elem().Type().Name(), start.Line, start.Col, end.Line, end.Col)
	}
}

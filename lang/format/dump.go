package format

// This file prints syntax trees without positions, to compare the tree of a
// text with the tree of its formatted version.

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
)

// Dump returns a position-free, comment-free rendering of the tree rooted
// at n: node type names and every field except extents (the embedded
// [ast.Range] and offset fields such as OpPos), doc comments and the file's
// comment list. Two texts that differ only in layout dump the same.
func Dump(n ast.Node) string {
	var b strings.Builder
	dump(&b, reflect.ValueOf(n), 0)
	return b.String()
}

var rangeType = reflect.TypeOf(ast.Range{})

func dump(b *strings.Builder, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Kind() == reflect.Pointer {
			b.WriteString("*")
		}
		dump(b, v.Elem(), depth)
	case reflect.Struct:
		t := v.Type()
		b.WriteString(t.Name())
		b.WriteString("{")
		n := 0
		for i := range t.NumField() {
			f := t.Field(i)
			if skipField(f) {
				continue
			}
			if n > 0 {
				b.WriteString(" ")
			}
			n++
			b.WriteString(f.Name)
			b.WriteString(":")
			dump(b, v.Field(i), depth+1)
		}
		b.WriteString("}")
	case reflect.Slice:
		b.WriteString("[")
		for i := range v.Len() {
			if i > 0 {
				b.WriteString(" ")
			}
			dump(b, v.Index(i), depth+1)
		}
		b.WriteString("]")
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if s, ok := v.Interface().(fmt.Stringer); ok && v.Type().PkgPath() != "" {
			b.WriteString(s.String())
			return
		}
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}

// skipField leaves out positions and comments.
func skipField(f reflect.StructField) bool {
	if f.Type == rangeType || !f.IsExported() {
		return true
	}
	switch f.Name {
	case "Doc", "Comments":
		return true
	}
	if f.Type.Kind() == reflect.Int && (strings.HasSuffix(f.Name, "Pos") || strings.HasSuffix(f.Name, "End")) {
		return true
	}
	return false
}

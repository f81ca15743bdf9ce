package lsp

// This file checks the params of the requests about a place: a document
// and a position or range in it (docRequest), or a call or type hierarchy
// item (itemRequest, typeItemRequest). Params that are missing, null, not
// an object, without the members that say where, or that do not decode are
// invalid params (-32602), and the message says what was expected and what
// was found (`params: expected an object with textDocument and position,
// found null`); call adds the method. Only a well-formed request about a
// document that is not open, or an item whose file cannot be read, is
// RequestFailed (-32803): before, params that named no document were
// answered "document  is not open".

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// A shape is what the params of a request about a place must hold.
type shape struct {
	want   string  // "an object with textDocument and position", for messages
	places []place // the members that say where, in the order of the params' fields
}

// A place is a member of the params that says where the request is about.
type place struct {
	name  string // its JSON name
	index []int  // its field in the params' struct
	uri   []int  // its uri's field in it, for a document or an item; nil for a position or range
}

// placeTypes are the types of the members that say where: the document
// (or the item) a request is about, and the position or range in it.
var placeTypes = map[reflect.Type]bool{
	reflect.TypeFor[protocol.TextDocumentIdentifier](): true,
	reflect.TypeFor[protocol.CallHierarchyItem]():      true,
	reflect.TypeFor[protocol.TypeHierarchyItem]():      true,
	reflect.TypeFor[protocol.Position]():               true,
	reflect.TypeFor[protocol.Range]():                  true,
}

// shapeOf finds the places of the params type P, a struct; it runs once
// per request kind, when the table of methods is made.
func shapeOf[P any]() shape {
	var sh shape
	collectPlaces(reflect.TypeFor[P](), nil, &sh)
	names := make([]string, len(sh.places))
	for i, pl := range sh.places {
		names[i] = pl.name
	}
	sh.want = "an object"
	if len(names) > 0 {
		sh.want += " with " + andList(names)
	}
	return sh
}

// collectPlaces adds the places among t's fields, those of embedded
// structs (TextDocumentPositionParams) included.
func collectPlaces(t reflect.Type, index []int, sh *shape) {
	for i := range t.NumField() {
		f := t.Field(i)
		at := append(index[:len(index):len(index)], i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			collectPlaces(f.Type, at, sh)
			continue
		}
		if !placeTypes[f.Type] {
			continue
		}
		pl := place{name: jsonName(f), index: at}
		if u, ok := f.Type.FieldByName("URI"); ok {
			pl.uri = u.Index
		}
		sh.places = append(sh.places, pl)
	}
}

// jsonName is the member a struct field is read from.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// andList joins names as a sentence does: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// decode decodes params into p (a pointer to a struct of the shape): an
// InvalidParams error when they are not an object holding its places, or
// do not decode. A position or range that decodes to its zero value is
// looked for in the params, so that a missing one is told from line 0,
// character 0 (the only case where the params are read twice).
func (sh shape) decode(params jsonrpc2.RawMessage, p any) error {
	if found := kindOf(params); found != "" {
		return sh.invalid(found)
	}
	if err := unmarshal(params, p); err != nil {
		if why := mismatch(params, reflect.TypeOf(p).Elem()); why != "" {
			return jsonrpc2.NewError(jsonrpc2.InvalidParams, "params: "+why)
		}
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "params: expected %s: %v", sh.want, err)
	}
	v := reflect.ValueOf(p).Elem()
	var members map[string]json.RawMessage
	for _, pl := range sh.places {
		f := v.FieldByIndex(pl.index)
		if pl.uri != nil && f.FieldByIndex(pl.uri).String() != "" || pl.uri == nil && !f.IsZero() {
			continue
		}
		if members == nil && json.Unmarshal(params, &members) != nil {
			return sh.invalid("an object that does not decode")
		}
		if raw, ok := members[pl.name]; !ok || string(bytes.TrimSpace(raw)) == "null" {
			return sh.invalid("an object without " + pl.name)
		}
		if pl.uri != nil {
			return sh.invalid(pl.name + " without a uri")
		}
	}
	return nil
}

// invalid is the InvalidParams error of params of the shape that are
// what found says.
func (sh shape) invalid(found string) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "params: expected %s, found %s", sh.want, found)
}

// kindOf names what params are when they are not an object, or returns
// "". The message they came in was valid JSON (the stream checked it), so
// its first byte says what the value is. jsonrpc2 hands params that are
// absent and params that are null alike, as none: both are null.
func kindOf(params []byte) string {
	params = bytes.TrimSpace(params)
	if len(params) == 0 {
		return "null"
	}
	switch params[0] {
	case '{':
		return ""
	case 'n':
		return "null"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// mismatch says where params that did not decode into a value of type t
// differ from it, as "position: expected an object, found a string", or
// returns "" when it finds no difference (the protocol's decoder refused
// something this walk does not model: a union's value, an enum's). It
// runs only after decoding failed.
func mismatch(params []byte, t reflect.Type) string {
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return ""
	}
	return differs(v, t, "")
}

// lspAny is the type of the members that hold any JSON value (data).
var lspAny = reflect.TypeFor[protocol.LSPAny]()

// differs compares a decoded JSON value with the Go type it is read into:
// structs are objects (their unknown members ignored), slices arrays, and
// the scalar kinds strings, numbers and booleans; null is an absent
// value; interfaces (the protocol's unions), maps and LSPAny hold anything.
// path is the value's place in the params, for the message.
func differs(v any, t reflect.Type, path string) string {
	if v == nil {
		return ""
	}
	if t == lspAny {
		return ""
	}
	switch t.Kind() {
	case reflect.Pointer:
		return differs(v, t.Elem(), path)
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return expected(path, "an object", v)
		}
		return structDiffers(obj, t, path)
	case reflect.Slice, reflect.Array:
		arr, ok := v.([]any)
		if !ok {
			return expected(path, "an array", v)
		}
		for i, e := range arr {
			if why := differs(e, t.Elem(), path+"["+strconv.Itoa(i)+"]"); why != "" {
				return why
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return expected(path, "a string", v)
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return expected(path, "true or false", v)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n, ok := v.(json.Number); !ok || !fits(n, t) {
			return expected(path, "a whole number", v)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, ok := v.(json.Number); !ok || !fits(n, t) {
			return expected(path, "a whole number, 0 or more", v)
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return expected(path, "a number", v)
		}
	}
	return ""
}

// structDiffers compares an object's members with the fields of the
// struct t (and of the structs it embeds).
func structDiffers(obj map[string]any, t reflect.Type, path string) string {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if why := structDiffers(obj, f.Type, path); why != "" {
				return why
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		name := jsonName(f)
		if e, ok := obj[name]; ok {
			sub := name
			if path != "" {
				sub = path + "." + name
			}
			if why := differs(e, f.Type, sub); why != "" {
				return why
			}
		}
	}
	return ""
}

// fits reports whether a JSON number is a whole number that a value of
// the integer type t holds.
func fits(n json.Number, t reflect.Type) bool {
	if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
		u, err := strconv.ParseUint(string(n), 10, 64)
		return err == nil && !reflect.New(t).Elem().OverflowUint(u)
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	return err == nil && !reflect.New(t).Elem().OverflowInt(i)
}

// expected is the message of a value that is not what its type wants.
func expected(path, want string, v any) string {
	return fmt.Sprintf("%s: expected %s, found %s", path, want, foundJSON(v))
}

// foundJSON names a decoded JSON value: its kind, or a number itself.
func foundJSON(v any) string {
	switch v := v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return string(v)
	}
	return "null"
}

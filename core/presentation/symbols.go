package presentation

// This file answers document symbols: the outline of a document as a tree of
// its declarations: actions (with their parameters and nested actions),
// containers (with properties, methods and events), interfaces, top-level
// variables, constants, lists, maps, patterns, and describe/test blocks.

import (
	"strconv"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// OutlineKind says what a document symbol is.
type OutlineKind int

const (
	OutlineAction OutlineKind = iota + 1
	OutlineMethod
	OutlineParameter
	OutlineContainer
	OutlineInterface
	OutlineProperty
	OutlineEvent
	OutlineVariable
	OutlineConstant
	OutlineList
	OutlineMap
	OutlinePattern
	OutlineDescribe
	OutlineTest
)

var outlineKindNames = [...]string{
	OutlineAction: "action", OutlineMethod: "method", OutlineParameter: "parameter",
	OutlineContainer: "container", OutlineInterface: "interface", OutlineProperty: "property",
	OutlineEvent: "event", OutlineVariable: "variable", OutlineConstant: "constant",
	OutlineList: "list", OutlineMap: "map", OutlinePattern: "pattern",
	OutlineDescribe: "describe", OutlineTest: "test",
}

func (k OutlineKind) String() string {
	if k > 0 && int(k) < len(outlineKindNames) {
		return outlineKindNames[k]
	}
	return "?"
}

// A DocumentSymbol is one entry of a document's outline.
type DocumentSymbol struct {
	Name     string
	Detail   string // e.g. a type, a parameter list, "extends Base"
	Kind     OutlineKind
	Span     token.Span // the whole declaration
	NameSpan token.Span // the name, inside Span
	Children []DocumentSymbol
}

// DocumentSymbols returns the document's outline.
func DocumentSymbols(a *core.Analysis) []DocumentSymbol {
	if a.File == nil {
		return nil
	}
	return outliner(func(d *ast.VarDecl) string { return typeDetail(a, d.Value) }).top(a.File.Stmts)
}

// An outliner makes an outline; it returns the detail of a top-level
// store (the checked type of its value), the only fact of the outline the
// tree does not hold.
type outliner func(*ast.VarDecl) string

// maxOutlineDepth bounds how deep an outline nests: the symbols below it
// are listed, in order, as children of their ancestor at that depth. An
// outline's answer nests two JSON levels and more a symbol, and 500
// actions nested one in another made one deeper than some clients decode
// (Python's json module and Neovim's stop at about 1,000 levels).
const maxOutlineDepth = 64

// top returns the outline of a file's statements, nested at most
// maxOutlineDepth deep.
func (o outliner) top(stmts []ast.Stmt) []DocumentSymbol {
	return bounded(o.outline(stmts, true), 1)
}

// bounded returns syms, at depth, with the symbols below maxOutlineDepth
// lifted to their ancestor at that depth.
func bounded(syms []DocumentSymbol, depth int) []DocumentSymbol {
	for i := range syms {
		if depth+1 < maxOutlineDepth {
			syms[i].Children = bounded(syms[i].Children, depth+1)
			continue
		}
		var flat []DocumentSymbol
		var lift func([]DocumentSymbol)
		lift = func(kids []DocumentSymbol) {
			for _, k := range kids {
				below := k.Children
				k.Children = nil
				flat = append(flat, k)
				lift(below)
			}
		}
		lift(syms[i].Children)
		syms[i].Children = flat
	}
	return syms
}

func (o outliner) outline(stmts []ast.Stmt, top bool) []DocumentSymbol {
	var out []DocumentSymbol
	add := func(n ast.Node, name *ast.Ident, kind OutlineKind, detail string, children []DocumentSymbol) {
		if name == nil || name.Name == "" {
			return
		}
		out = append(out, DocumentSymbol{Name: name.Name, Detail: detail, Kind: kind,
			Span: core.NodeSpan(n), NameSpan: core.NodeSpan(name), Children: children})
	}
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.ActionDecl:
			kind := OutlineAction
			if s.Method {
				kind = OutlineMethod
			}
			add(s, s.Name, kind, paramDetail(s.Params, s.ReturnType), o.actionChildren(s))
		case *ast.ContainerDecl:
			detail := ""
			if s.Extends != nil {
				detail = "extends " + s.Extends.Name
			}
			add(s, s.Name, OutlineContainer, detail, o.outline(s.Members, false))
		case *ast.InterfaceDecl:
			var kids []DocumentSymbol
			for _, sig := range s.Actions {
				if sig.Name != nil {
					kids = append(kids, DocumentSymbol{Name: sig.Name.Name, Kind: OutlineMethod,
						Detail: paramDetail(sig.Params, sig.ReturnType), Span: core.NodeSpan(sig), NameSpan: core.NodeSpan(sig.Name)})
				}
			}
			add(s, s.Name, OutlineInterface, "", kids)
		case *ast.PropertyDecl:
			detail := ""
			if s.Type != nil {
				detail = core.TypeExprString(s.Type)
			}
			add(s, s.Name, OutlineProperty, detail, nil)
		case *ast.EventDecl:
			add(s, s.Name, OutlineEvent, paramDetail(s.Params, nil), nil)
		case *ast.DescribeStmt:
			out = append(out, o.testBlock(s, s.Desc, OutlineDescribe, s.Body))
		case *ast.TestStmt:
			out = append(out, o.testBlock(s, s.Desc, OutlineTest, s.Body))
		}
		if !top {
			continue
		}
		switch s := s.(type) {
		case *ast.VarDecl:
			kind := OutlineVariable
			if s.Constant {
				kind = OutlineConstant
			}
			add(s, s.Name, kind, o(s), nil)
		case *ast.CreateListStmt:
			add(s, s.Name, OutlineList, "", nil)
		case *ast.CreateMapStmt:
			add(s, s.Name, OutlineMap, "", nil)
		case *ast.CreateDateStmt:
			detail := "date"
			if s.Time {
				detail = "time"
			}
			add(s, s.Name, OutlineVariable, detail, nil)
		case *ast.PatternDecl:
			add(s, s.Name, OutlinePattern, "", nil)
		case *ast.NewStmt:
			detail := ""
			if s.Container != nil {
				detail = "new " + s.Container.Name
			}
			add(s, s.Name, OutlineVariable, detail, nil)
		}
	}
	return out
}

// actionChildren lists an action's parameters and the actions it declares.
func (o outliner) actionChildren(d *ast.ActionDecl) []DocumentSymbol {
	var kids []DocumentSymbol
	for _, p := range d.Params {
		if p.Name == nil || p.Name.Name == "" {
			continue
		}
		detail := ""
		if p.Type != nil {
			detail = core.TypeExprString(p.Type)
		}
		kids = append(kids, DocumentSymbol{Name: p.Name.Name, Detail: detail, Kind: OutlineParameter,
			Span: core.NodeSpan(p), NameSpan: core.NodeSpan(p.Name)})
	}
	if d.Body != nil {
		for _, k := range o.outline(d.Body.Stmts, false) {
			if k.Kind == OutlineAction {
				kids = append(kids, k)
			}
		}
	}
	return kids
}

func (o outliner) testBlock(n ast.Node, desc *ast.BasicLit, kind OutlineKind, body *ast.Block) DocumentSymbol {
	sym := DocumentSymbol{Name: kind.String(), Kind: kind, Span: core.NodeSpan(n), NameSpan: core.NodeSpan(n)}
	if desc != nil {
		sym.Name = desc.Value
		if strings.TrimSpace(desc.Value) == "" {
			// An outline's names are never empty or blank (LSP; VS Code
			// drops the whole outline): the description as written.
			sym.Name = strconv.Quote(desc.Value)
		}
		sym.NameSpan = core.NodeSpan(desc)
	}
	if body != nil {
		sym.Children = o.outline(body.Stmts, false)
	}
	return sym
}

func paramDetail(ps []*ast.Param, ret *ast.TypeExpr) string {
	var b strings.Builder
	for i, p := range ps {
		if p.Name == nil {
			continue
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name.Name)
		if p.Type != nil {
			b.WriteString(" as " + core.TypeExprString(p.Type))
		}
	}
	if ret != nil {
		b.WriteString(" -> " + core.TypeExprString(ret))
	}
	return b.String()
}

// typeDetail is the checked type of an initializer, or "".
func typeDetail(a *core.Analysis, e ast.Expr) string {
	if e == nil || a.Info == nil {
		return ""
	}
	if t := a.Info.TypeOf(e); core.Known(t) {
		return t.String()
	}
	return ""
}

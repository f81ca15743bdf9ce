package completion

// This file answers signature help: inside a call, the signatures of what
// it calls and which parameter the cursor is on. A call being typed does
// not parse yet (`substring of s and |`), so the call is found in the
// tokens of the line before the cursor: `call NAME with …`, `NAME of …`,
// a builtin's `NAME with …`, `VALUE.NAME(…)`, innermost first. Actions
// (every version of an overloaded one, the one that fits the arguments
// typed so far active), container methods and builtins.

import (
	"wfl-lsp/core"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// A Signature is one way to call the callee.
type Signature struct {
	Label  string
	Params []string // each a substring of Label
	// Spans are the byte offsets of each of Params in Label (a parameter's
	// text may occur in Label before it: `action f with x and a`); nil
	// when they are not known.
	Spans [][2]int
	Doc   string
}

// SignatureInfo is the answer to signature help.
type SignatureInfo struct {
	Signatures  []Signature
	ActiveSig   int // the signature that fits the arguments typed so far
	ActiveParam int // index of the parameter at the cursor
}

// openCall is a call whose arguments the cursor may be among.
type openCall struct {
	name   string
	method bool // VALUE.NAME(…): NAME is a container's action
	of     bool // NAME of …: ends at a `with`
	depth  int  // parentheses open when it began
	args   int  // separators seen: the cursor is on argument args
	start  int  // offset of the callee's name
	// first are the tokens of the first argument, once it is followed by
	// a separator (the cursor is past it).
	first []token.Token
	from  int // index in the line's tokens where the arguments start
}

// SignatureHelp returns the signatures of the innermost call around
// offset, or nil outside calls.
func SignatureHelp(a *core.Analysis, offset int) *SignatureInfo {
	if a.Lines == nil || a.Info == nil {
		return nil
	}
	lineStart := a.Lines.LineStart(a.Lines.Line(offset))
	c, ok := innermostCall(a.LineTokens(lineStart, offset))
	if !ok {
		return nil
	}
	info := &SignatureInfo{ActiveParam: c.args}
	if c.method {
		if m := methodNamed(a, c); m != nil {
			info.Signatures = append(info.Signatures, actionSignatures(m)...)
		}
	} else if sym := a.Info.ScopeAt(offset).Resolve(c.name); sym != nil && (sym.Kind == check.SymAction || sym.Kind == check.SymMethod) {
		info.Signatures = actionSignatures(sym)
		for i, d := range sym.Versions() {
			if len(d.Params) > c.args {
				info.ActiveSig = i
				break
			}
		}
	} else if b := builtins.Lookup(c.name); b != nil {
		for i, s := range b.Signatures {
			sig := Signature{Label: b.Label(i), Doc: b.Doc}
			// Label is `NAME(P1, P2, …) -> RESULT`.
			at, spans := len(b.Name)+len("("), true
			for j, p := range s.Params {
				text := p.Name + " as " + p.Type.String()
				if j > 0 {
					at += len(", ")
				}
				sig.Params = append(sig.Params, text)
				if spans = spans && at+len(text) <= len(sig.Label) && sig.Label[at:at+len(text)] == text; spans {
					sig.Spans = append(sig.Spans, [2]int{at, at + len(text)})
				}
				at += len(text)
			}
			if !spans {
				sig.Spans = nil
			}
			info.Signatures = append(info.Signatures, sig)
		}
		// The first signature with room for the argument at the cursor
		// whose first parameter takes the first argument, when its type
		// is known (`index_of of "abc" and …`: the Text version).
		var firstType *types.Type
		if len(c.first) == 1 {
			firstType = typeOfToken(a, c.first[0], offset)
		}
		active := -1
		for i, s := range b.Signatures {
			if len(s.Params) <= c.args {
				continue
			}
			if active < 0 {
				active = i
			}
			if core.Known(firstType) && len(s.Params) > 0 && types.BuiltinCompatible(s.Params[0].Type, firstType) {
				active = i
				break
			}
		}
		info.ActiveSig = max(active, 0)
	}
	if len(info.Signatures) == 0 {
		return nil
	}
	return info
}

// innermostCall finds, in the tokens of a line up to the cursor, the call
// whose arguments the cursor is among.
func innermostCall(toks []token.Token) (openCall, bool) {
	var stack []openCall
	depth := 0
	name := func(i int) (string, bool) {
		if i >= 0 && i < len(toks) && toks[i].Kind == token.Identifier {
			return toks[i].Text, true
		}
		if i >= 0 && i < len(toks) && toks[i].Kind.IsKeyword() && builtins.IsBuiltin(toks[i].Kind.Spelling()) {
			return toks[i].Kind.Spelling(), true // `push with …`: a keyword that is a builtin's name
		}
		return "", false
	}
	for i, t := range toks {
		switch t.Kind {
		case token.KeywordWith:
			if n, ok := name(i - 1); ok && i >= 2 && toks[i-2].Kind == token.KeywordCall {
				stack = append(stack, openCall{name: n, depth: depth, start: toks[i-1].Start, from: i + 1})
				continue
			}
			if n, ok := name(i - 1); ok && builtins.IsBuiltin(n) && (i < 2 || toks[i-2].Kind != token.Dot) {
				stack = append(stack, openCall{name: n, depth: depth, start: toks[i-1].Start, from: i + 1}) // `typeof with x`
				continue
			}
			// `f of a with b`: the `with` joins text to the call's value.
			for len(stack) > 0 && stack[len(stack)-1].of && stack[len(stack)-1].depth == depth {
				stack = stack[:len(stack)-1]
			}
		case token.KeywordOf:
			if n, ok := name(i - 1); ok {
				stack = append(stack, openCall{name: n, of: true, depth: depth, start: toks[i-1].Start, from: i + 1})
			}
		case token.LeftParen:
			if n, ok := name(i - 1); ok && i >= 2 && toks[i-2].Kind == token.Dot {
				stack = append(stack, openCall{name: n, method: true, depth: depth + 1, start: toks[i-1].Start, from: i + 1})
			}
			depth++
		case token.RightParen:
			for len(stack) > 0 && stack[len(stack)-1].depth >= depth {
				stack = stack[:len(stack)-1]
			}
			depth--
		case token.KeywordAnd, token.Comma, token.KeywordFrom, token.KeywordBy:
			if len(stack) > 0 && stack[len(stack)-1].depth == depth {
				top := &stack[len(stack)-1]
				if t.Kind == token.Comma && !top.method || t.Kind != token.Comma && top.method {
					continue
				}
				if (t.Kind == token.KeywordFrom || t.Kind == token.KeywordBy) && !top.of {
					continue
				}
				if top.args == 0 && top.from <= i {
					top.first = toks[top.from:i]
				}
				top.args++
			}
		case token.KeywordIs, token.KeywordOr:
			// A comparison ends the arguments of an `of` call (they absorb
			// arithmetic only).
			for len(stack) > 0 && stack[len(stack)-1].of && stack[len(stack)-1].depth == depth {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return openCall{}, false
	}
	return stack[len(stack)-1], true
}

// methodNamed finds the container action a method call names: the one its
// identifier resolves to when the line parses, else the one container
// action of that name.
func methodNamed(a *core.Analysis, c openCall) *check.Symbol {
	if r, ok := a.IdentAt(c.start); ok && r.Ident.Pos() == c.start && r.Sym != nil && r.Sym.Kind == check.SymMethod {
		return r.Sym
	}
	var found *check.Symbol
	for _, k := range a.Info.Containers {
		if m := k.Members()[c.name]; m != nil && m.Kind == check.SymMethod {
			if found != nil {
				return nil
			}
			found = m
		}
	}
	return found
}

// actionSignatures are the signatures of every version of an action or
// method.
func actionSignatures(sym *check.Symbol) []Signature {
	var out []Signature
	for _, d := range sym.Versions() {
		label, spans := core.ActionSignatureSpans(sym, d)
		sig := Signature{Label: label, Spans: spans, Doc: d.Doc.Text()}
		for _, s := range spans {
			sig.Params = append(sig.Params, label[s[0]:s[1]])
		}
		out = append(out, sig)
	}
	return out
}

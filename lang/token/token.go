package token

import "strconv"

// A Token is one lexical token: its kind, its byte extent in the source and,
// for identifiers and literals, its text.
type Token struct {
	Kind  Kind
	Start int    // offset of the first byte
	End   int    // offset one past the last byte (for a multi-word identifier, the end of its last word)
	Text  string // Identifier: the words joined by single spaces; StringLiteral: the decoded text; numbers: the digits; BooleanLiteral: "true"/"false"
}

// Span returns the token's extent.
func (t Token) Span() Span { return Span{t.Start, t.End} }

// String names the token the way the reference front end's messages do:
// KeywordStore, Identifier("x"), StringLiteral("a"), IntLiteral(3), Eol.
func (t Token) String() string {
	switch t.Kind {
	case Identifier, StringLiteral:
		return t.Kind.String() + "(" + strconv.Quote(t.Text) + ")"
	case IntLiteral, FloatLiteral, BooleanLiteral:
		return t.Kind.String() + "(" + t.Text + ")"
	}
	return t.Kind.String()
}

// String returns the kind's name, e.g. "KeywordStore" or "Eol".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// IsKeyword reports whether k is one of the keyword kinds.
func (k Kind) IsKeyword() bool { return k > keywordBase && k < kindCount }

// Spelling returns a keyword's source spelling ("store", "divided by"), or ""
// for kinds that are not keywords.
func (k Kind) Spelling() string {
	if k.IsKeyword() {
		return spellings[k]
	}
	return ""
}

var (
	// keywordsBy[len][first letter] lists the keywords of that length and
	// initial; lookups compare a handful of strings instead of hashing.
	keywordsBy   [16][26][]Kind
	isStructural [kindCount]bool
	isContextual [kindCount]bool
)

func init() {
	for k := keywordBase + 1; k < kindCount; k++ {
		w := spellings[k]
		if w == "divided by" {
			continue // made by the lexer from two words
		}
		keywordsBy[len(w)][w[0]-'a'] = append(keywordsBy[len(w)][w[0]-'a'], k)
	}
	for _, k := range structural {
		isStructural[k] = true
	}
	for _, k := range contextual {
		isContextual[k] = true
	}
}

// Lookup returns the keyword kind spelled word, or Identifier.
// Keywords are case-sensitive.
func Lookup(word string) Kind {
	if len(word) < 2 || len(word) >= len(keywordsBy) || word[0] < 'a' || word[0] > 'z' {
		return Identifier
	}
	for _, k := range keywordsBy[len(word)][word[0]-'a'] {
		if spellings[k] == word {
			return k
		}
	}
	return Identifier
}

// IsStructural reports whether k is a reserved structural keyword (it cannot
// name a variable).
func (k Kind) IsStructural() bool { return int(k) < len(isStructural) && isStructural[k] }

// IsContextual reports whether k is a contextual keyword (usable as a
// variable name in declarations and expressions). Five words (any, push,
// skip, than, zero) are both structural and contextual.
func (k Kind) IsContextual() bool { return int(k) < len(isContextual) && isContextual[k] }

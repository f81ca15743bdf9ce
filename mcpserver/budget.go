package mcpserver

// This file sizes the tools' answers for a model. A client hands a tool's
// answer to its model whole (Claude Code takes at most 25,000 tokens of
// one), so every list a tool returns is a page: at most `limit` items from
// `offset`, and no more than fit in the answer's budget of bytes. An answer
// that leaves items out says how many (`omitted`) and where the next page
// starts (`nextOffset`), in its fields and in its summary.

import (
	"encoding/json"
	"strconv"
)

// answerBudget is the most bytes the JSON of one tool answer holds (that
// JSON is also its text block): about 20,000 tokens of JSON. A page of a
// list stops before the item that would pass it; a whole program's text
// is replaced by edits or a diff when it would.
const answerBudget = 60_000

// maxLimit is the largest page a call may ask for.
const maxLimit = 1000

// A page is the part of a list one answer carries: the items from offset
// on, at most limit of them, whose JSON holds at most budget bytes. The
// first item of a page is always listed, whatever its size, so that
// paging moves on.
type page struct {
	offset, limit, budget int
}

// pageProps are the paging arguments of a tool whose list is of what.
func pageProps(props map[string]*Schema, what string, defLimit int) map[string]*Schema {
	lim := integer("list at most this many "+what+" (default "+itoa(defLimit)+"); an answer also stops before "+
		"passing about "+itoa(answerBudget/1000)+" KB", 1)
	mx := float64(maxLimit)
	lim.Maximum = &mx
	off := integer("skip this many "+what+": the nextOffset of the previous answer, to get the next page (default 0)", 0)
	mo := float64(1 << 30)
	off.Maximum = &mo
	props["limit"] = lim
	props["offset"] = off
	return props
}

// pageArgs reads the paging arguments (checked by pageProps' schema).
func pageArgs(args map[string]any, defLimit int) page {
	p := page{limit: defLimit, budget: answerBudget - 4096} // room for the rest of the answer
	if n, ok := intArg(args, "limit"); ok {
		p.limit = n
	}
	if n, ok := intArg(args, "offset"); ok {
		p.offset = n
	}
	return p
}

// A pageOut is what a paged answer says about its list.
type pageOut struct {
	Omitted    int  `json:"omitted,omitempty"`    // items not in this answer, before or after it
	NextOffset *int `json:"nextOffset,omitempty"` // where the next page starts, when items follow
}

// paged picks the page of n items: size(i) is the size of item i's JSON.
// It returns the index just past the last item listed (from p.offset, or
// n when the offset is past the end), and what the answer says of the rest.
func paged(n int, p page, size func(i int) int) (end int, out pageOut) {
	start := min(p.offset, n)
	end, used := start, 0
	for end < n && end-start < p.limit {
		s := size(end) + 1 // and its comma
		if end > start && used+s > p.budget {
			break
		}
		used += s
		end++
	}
	out.Omitted = n - (end - start)
	if end < n {
		next := end
		out.NextOffset = &next
	}
	return end, out
}

// jsonSize is the length of v's JSON.
func jsonSize(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// note is what a summary adds about a page: "" when it lists everything.
func (o pageOut) note(listed int, what string) string {
	if o.Omitted == 0 {
		return ""
	}
	s := " (" + strconv.Itoa(listed) + " " + what + " listed here, " + strconv.Itoa(o.Omitted) + " not"
	if o.NextOffset != nil {
		s += "; call again with offset " + strconv.Itoa(*o.NextOffset) + " for the next ones"
	}
	return s + ")"
}

// pageSchema adds the members a paged answer may carry to props, for a
// list of what.
func pageSchema(props map[string]*Schema, what string) map[string]*Schema {
	props["omitted"] = integer(what+" not listed in this answer (paging, or its size budget)", 0)
	props["nextOffset"] = integer("present when more "+what+" follow: give it as offset to get them", 0)
	return props
}

// addPage adds what a page left out to an answer built as a map.
func addPage(out map[string]any, po pageOut) {
	if po.Omitted > 0 {
		out["omitted"] = po.Omitted
	}
	if po.NextOffset != nil {
		out["nextOffset"] = *po.NextOffset
	}
}

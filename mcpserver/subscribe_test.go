package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"wfl-lsp/internal/testfiles"
)

// TestSubscriptionUpdates drives the resource watcher one poll at a time
// (no timers): creating, changing and removing *.wfl files updates the
// workspace resources; a file resource follows its file, even through a
// rewrite of the same size; other files change nothing; an unsubscribed
// resource gets nothing.
func TestSubscriptionUpdates(t *testing.T) {
	ticks := make(chan time.Time)
	polled := make(chan struct{})
	h := start(t, Options{PollTicks: ticks, Polled: func() { polled <- struct{}{} }})
	h.Initialize("2025-11-25")
	id := 1
	for _, u := range []string{"workspace://files", "workspace://diagnostics", "workspace://file/hello.wfl", "workspace://config"} {
		if w := h.Call(id, "resources/subscribe", fmt.Sprintf(`{"uri":%q}`, u)); w.Error != nil {
			t.Fatalf("subscribe %s: %s", u, w.Raw)
		}
		id++
	}
	// round runs one poll and returns the resources reported updated by it:
	// the notifications are written before the answer to the ping that
	// follows the poll, as one writer emits the lines in order.
	round := func(what string) string {
		t.Helper()
		for _, ch := range []func() bool{
			func() bool { ticks <- time.Now(); return true },
			func() bool { <-polled; return true },
		} {
			done := make(chan bool)
			go func() { done <- ch() }()
			select {
			case <-done:
			case <-time.After(guard):
				t.Fatalf("%s: the watcher did not poll", what)
			}
		}
		h.Call(id, "ping", "")
		id++
		var uris []string
		for _, w := range h.TakeHeld(func(w *wire) bool { return w.Method == "notifications/resources/updated" }) {
			var p struct{ URI string }
			if err := json.Unmarshal(w.Params, &p); err != nil {
				t.Fatal(err)
			}
			uris = append(uris, p.URI)
		}
		sort.Strings(uris)
		return strings.Join(uris, " ")
	}
	write := func(name, text string) {
		t.Helper()
		testfiles.Write(t, h.Root, name, text)
	}
	hello := filepath.Join(h.Root, "hello.wfl")
	before, err := os.Stat(hello)
	if err != nil {
		t.Fatal(err)
	}

	if got := round("nothing changed"); got != "" {
		t.Errorf("nothing changed: updates %q", got)
	}
	write("deep/er/new.wfl", "display 1\n")
	if got := round("created"); got != "workspace://diagnostics workspace://files" {
		t.Errorf("created a .wfl file: updates %q", got)
	}
	write("deep/er/new.wfl", "display 22\n")
	if got := round("changed"); got != "workspace://diagnostics workspace://files" {
		t.Errorf("changed a .wfl file: updates %q", got)
	}
	write("notes.txt", "more notes, a different size\n")
	write("deep/readme.md", "# not WFL\n")
	if got := round("other files"); got != "" {
		t.Errorf("changed files that are not .wfl: updates %q", got)
	}
	// Same size, same modification time: only the bytes differ.
	old, _ := os.ReadFile(hello)
	changed := []byte(strings.Replace(string(old), "d", "D", 1))
	if string(changed) == string(old) || len(changed) != len(old) {
		t.Fatalf("hello.wfl %q cannot be changed in place", old)
	}
	write("hello.wfl", string(changed))
	os.Chtimes(hello, before.ModTime(), before.ModTime())
	if got := round("same size"); !strings.Contains(got, "workspace://file/hello.wfl") {
		t.Errorf("rewrote hello.wfl with the same size and time: updates %q", got)
	}
	write(".wflcfg", "max_line_length = 80\n")
	if got := round("config"); got != "workspace://config" {
		t.Errorf("created .wflcfg: updates %q", got)
	}
	if err := os.Remove(hello); err != nil {
		t.Fatal(err)
	}
	if got := round("removed"); got != "workspace://diagnostics workspace://file/hello.wfl workspace://files" {
		t.Errorf("removed hello.wfl: updates %q", got)
	}
	h.Call(id, "resources/unsubscribe", `{"uri":"workspace://files"}`)
	id++
	write("another.wfl", "display 3\n")
	if got := round("unsubscribed"); got != "workspace://diagnostics" {
		t.Errorf("after unsubscribing workspace://files: updates %q", got)
	}
	// Re-subscribing starts from the state seen then: no stale update.
	h.Call(id, "resources/subscribe", `{"uri":"workspace://files"}`)
	id++
	if got := round("resubscribed"); got != "" {
		t.Errorf("after subscribing again: updates %q", got)
	}
	h.Finish()
}

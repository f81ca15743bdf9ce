package typingbench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"time"
)

// Floor measures what no server can answer under on this machine at this
// moment: the round trip of a hover request through `cat`, a process that
// does no work at all, written and read as Run writes a request and reads
// an answer. It is sent n times, each after a pause (slept, as a server
// sleeps between keystrokes while its client waits for the answers: give
// it a keystroke's median length in the run it is the floor of). What it
// measures is the pipes, the processes' wake-ups and the scheduler, on a
// virtual machine the host's too: the part of every latency in the tables
// that no server's code can take away.
//
// It returns the round trips, sorted; it fails if `cat` cannot be started.
func Floor(n int, pause time.Duration) (Stat, error) {
	var st Stat
	path, err := exec.LookPath("cat")
	if err != nil {
		return st, err
	}
	t := newTypist(Doc{Path: "/floor.wfl", Text: "display x\n", At: 9, Hover: 8})
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": kindInfo[Hover].method, "params": t.params(Hover)})
	if err != nil {
		return st, err
	}
	c, err := start(Server{Name: "cat", Cmd: exec.Command(path)})
	if err != nil {
		return st, err
	}
	msg := frame(body)
	for range n {
		time.Sleep(pause)
		sent := time.Now()
		if _, err := c.in.Write(msg); err != nil {
			return st, errors.Join(fmt.Errorf("writing to cat: %w", err), c.close())
		}
		// Read as Run reads an answer, but from the messages themselves:
		// the request echoed is a request, which next would answer.
		select {
		case m, ok := <-c.msgs:
			if !ok || m.err != nil {
				return st, errors.Join(fmt.Errorf("reading from cat: %v", m.err), c.close())
			}
			st.Samples = append(st.Samples, m.at.Sub(sent))
		case <-time.After(10 * time.Second):
			return st, errors.Join(errors.New("cat did not echo the request within 10s"), c.close())
		}
	}
	slices.Sort(st.Samples)
	return st, c.close()
}

// KeystrokeMedian returns the median length of the run's keystrokes, the
// pause to give Floor: the median of its publishDiagnostics, the last
// thing a keystroke waits for, or, without them (at rest), of its slowest
// request.
func (r *Result) KeystrokeMedian() time.Duration {
	if d := &r.Stats[Diagnostics]; len(d.Samples) > 0 {
		return d.Percentile(0.5)
	}
	var m time.Duration
	for _, k := range Kinds {
		m = max(m, r.Stats[k].Percentile(0.5))
	}
	return m
}

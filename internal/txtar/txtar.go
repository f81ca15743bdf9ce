// Package txtar reads and writes the archives the golden tests keep under
// testdata/: a comment, then files, each introduced by a line "-- name --".
// Tests import it; the binary does not.
package txtar

import "strings"

// An Archive is a comment and files, in order.
type Archive struct {
	Comment string
	Files   []File
}

// A File is one named file of an archive.
type File struct {
	Name string
	Data string
}

// Parse reads an archive. Text before the first file is the comment.
func Parse(s string) *Archive {
	a := &Archive{}
	var b strings.Builder
	flush := func() {
		if len(a.Files) == 0 {
			a.Comment = b.String()
		} else {
			a.Files[len(a.Files)-1].Data = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(s, "\n") {
		t := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			a.Files = append(a.Files, File{Name: strings.TrimSpace(t[3 : len(t)-3])})
			continue
		}
		b.WriteString(line)
	}
	flush()
	return a
}

// Get returns the data of the file named name.
func (a *Archive) Get(name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return "", false
}

// Set replaces the data of the file named name, or adds the file.
func (a *Archive) Set(name, data string) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}

// Format writes the archive back; a file's data that does not end a line
// gets a line break, so that the next file's header starts one.
func (a *Archive) Format() string {
	var b strings.Builder
	b.WriteString(a.Comment)
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.WriteString(f.Data)
		if f.Data != "" && !strings.HasSuffix(f.Data, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

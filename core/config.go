package core

// This file finds and reads the `.wflcfg` files that configure the linter and
// the formatter, where WFL finds them: the global file, then the nearest
// `.wflcfg` walking up from the program's folder, whose values win. Each is
// `key = value` lines with `#` comment lines.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"wfl-lsp/lang/config"
)

// ConfigFileName is the name of a per-project configuration file.
const ConfigFileName = ".wflcfg"

// GlobalConfigPaths returns the global configuration files to try, in order:
// $WFL_GLOBAL_CONFIG_PATH when set, else the platform's default and, on Unix,
// the legacy name. The first one that exists is used.
func GlobalConfigPaths() []string {
	if p := os.Getenv("WFL_GLOBAL_CONFIG_PATH"); p != "" {
		return []string{p}
	}
	if runtime.GOOS == "windows" {
		return []string{`C:\wfl\config`}
	}
	return []string{"/etc/wfl/wfl.cfg", "/etc/wfl/.wflcfg"}
}

// ConfigProblem is a problem found in a configuration file.
type ConfigProblem struct {
	File string
	Err  *config.Error
}

// Error reads like a compiler's message: `FILE:LINE: key: message`.
func (p ConfigProblem) Error() string {
	msg := p.Err.Msg
	if p.Err.Key != "" {
		msg = p.Err.Key + ": " + msg
	}
	if p.Err.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Err.Line, msg)
	}
	return p.File + ": " + msg
}

// LoadConfig returns the configuration in force for a script in folder dir:
// the defaults, overridden by the global file, overridden by the nearest
// `.wflcfg` found walking up from dir (only that one: the closest wins). It
// also returns the files it read and the problems found in them. Files that
// do not exist are skipped; a file that exists but cannot be read is a
// problem too. An empty dir reads only the global file.
func LoadConfig(dir string) (cfg config.Config, files []string, problems []ConfigProblem) {
	return loadConfig(dir, "")
}

// loadConfig is LoadConfig with `.wflcfg` lines (a client's settings of
// rank 3, see settings.go) layered between the global and the nearest file.
func loadConfig(dir, under string) (cfg config.Config, files []string, problems []ConfigProblem) {
	cfg = config.Default()
	read := func(path string) bool {
		data, err := disk.ReadFile(path) // a regular file of bounded size
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) && !isDirErr(path) {
				problems = append(problems, ConfigProblem{File: path, Err: &config.Error{Msg: readProblem(err)}})
			}
			return false
		}
		var errs []*config.Error
		cfg, errs = config.Parse(cfg, string(data))
		for _, e := range errs {
			problems = append(problems, ConfigProblem{File: path, Err: e})
		}
		files = append(files, path)
		return true
	}
	for _, p := range GlobalConfigPaths() {
		if read(p) {
			break
		}
	}
	if under != "" {
		cfg, _ = config.Parse(cfg, under) // validated when the settings were read
	}
	if dir == "" {
		return cfg, files, problems
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	for {
		if read(filepath.Join(dir, ConfigFileName)) {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return cfg, files, problems
}

// readProblem says why a configuration file could not be read, without
// its name (a ConfigProblem says it).
func readProblem(err error) string {
	var fe *FileError
	if errors.As(err, &fe) {
		return "the file " + fe.Reason()
	}
	return err.Error()
}

func isDirErr(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// ConfigFor returns the configuration in force for a document: looked up
// from the folder of a file:// URI, the global file alone for other URIs.
// Problems in the files are dropped; use [LoadConfig] to report them.
// Settings a client registered with [SetSettings] for the document's folder
// are layered in as settings.go describes.
func ConfigFor(uri URI) config.Config {
	path, dir := uri.Path(), ""
	if path != "" {
		dir = filepath.Dir(path)
	}
	s := settingsFor(path)
	key := configKey{dir, s.Under, s.Over}
	cfg, gen, ok := configs.get(key)
	if ok {
		return cfg
	}
	cfg, _, _ = loadConfig(dir, s.Under)
	if s.Over != "" {
		cfg, _ = config.Parse(cfg, s.Over)
	}
	configs.put(key, cfg, gen)
	return cfg
}

// configs is what ConfigFor found, kept for a while when CacheConfig says
// so: finding the nearest `.wflcfg` opens a file in every folder up to the
// root, and a document's configuration is asked for on every keystroke
// (its diagnostics are derived only while it is the same).
var configs configCache

type configKey struct{ dir, under, over string }

type configCache struct {
	mu   sync.Mutex
	ttl  time.Duration // 0: nothing is kept
	gen  uint64        // counts ForgetConfig's calls
	seen map[configKey]configSeen
}

type configSeen struct {
	cfg  config.Config
	read time.Time
}

// CacheConfig makes ConfigFor keep what it reads of the disk for ttl at
// most (0: read it every time, the default), for a process that learns of
// the configuration files' changes (ForgetConfig), as the language server
// does through the editor's file watching: the ttl bounds how long a change
// it was not told of goes unseen.
func CacheConfig(ttl time.Duration) {
	configs.mu.Lock()
	defer configs.mu.Unlock()
	configs.ttl, configs.seen = ttl, nil
}

// ForgetConfig drops what ConfigFor kept: a configuration file changed.
func ForgetConfig() {
	configs.mu.Lock()
	defer configs.mu.Unlock()
	configs.seen = nil
	configs.gen++
}

// get returns what is kept for k, or the generation to put what is read
// under.
func (c *configCache) get(k configKey) (config.Config, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.seen[k]
	if !ok || time.Since(e.read) > c.ttl {
		return config.Config{}, c.gen, false
	}
	return e.cfg, c.gen, true
}

// put keeps cfg for k, unless the files were forgotten since it was read
// (gen): it may be what they said before.
func (c *configCache) put(k configKey, cfg config.Config, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ttl == 0 || gen != c.gen {
		return
	}
	if c.seen == nil || len(c.seen) > 1024 {
		c.seen = map[configKey]configSeen{}
	}
	c.seen[k] = configSeen{cfg, time.Now()}
}

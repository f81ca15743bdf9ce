package cli

import (
	"flag"
	"slices"
)

// parseArgs parses the flags of fs wherever they stand among the paths,
// as people write them (`check a.wfl --json`); what follows `--` is paths
// only. It returns the paths, and flag.ErrHelp after -h or --help (the
// usage printed: exit 0) or the flag package's error (exit 2).
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, rest = args[:i], args[i+1:]
	}
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(paths, rest...), nil
		}
		paths = append(paths, args[0])
		args = args[1:]
	}
}

// exitOf is the exit code of parseArgs' error.
func exitOf(err error) int {
	if err == flag.ErrHelp {
		return 0
	}
	return 2
}

package builtins

//lint:ignore ST1001 the table below is data, and reads as data without a package name on each type
import . "wfl-lsp/lang/types"

// This file is the data: every recognized builtin, grouped by module.

func p(name string, t *Type) Param { return Param{Name: name, Type: t} }

func sig(result *Type, params ...Param) Signature { return Signature{Params: params, Result: result} }

var (
	anyList = NewList(Any)
	textMap = NewMap(Text, Text)
	anyMap  = NewMap(Text, Any)
)

// group makes one entry per name, all sharing the description and signatures.
// The accepted argument range is derived from the signatures.
func group(module string, names []string, doc string, sigs ...Signature) []*Builtin {
	min, max := -1, 0
	for _, s := range sigs {
		n := len(s.Params)
		if min < 0 || n < min {
			min = n
		}
		if n > max {
			max = n
		}
	}
	out := make([]*Builtin, len(names))
	for i, n := range names {
		d := doc
		if i > 0 {
			d += " (same as " + names[0] + ")"
		}
		out[i] = &Builtin{Name: n, Module: module, Doc: d, Implemented: true,
			MinArgs: min, MaxArgs: max, arity: min, Signatures: sigs}
	}
	return out
}

// reserved makes entries for names the reference recognizes but does not
// implement; arity is the reference's nominal argument count.
func reserved(module string, arity int, doc string, names ...string) []*Builtin {
	out := make([]*Builtin, len(names))
	for i, n := range names {
		out[i] = &Builtin{Name: n, Module: module, Doc: doc + " (reserved: not implemented by the runtime)",
			MinArgs: arity, MaxArgs: arity, arity: arity}
	}
	return out
}

func with(bs []*Builtin, f func(*Builtin)) []*Builtin {
	for _, b := range bs {
		f(b)
	}
	return bs
}

func cat(groups ...[]*Builtin) []*Builtin {
	var out []*Builtin
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

var table = cat(
	// core
	with(group("core", []string{"print"}, "Writes its arguments to standard output.", sig(Nothing)),
		func(b *Builtin) { b.MinArgs, b.MaxArgs, b.arity, b.Variadic = 0, -1, 1, Any }),
	group("core", []string{"typeof", "type_of"}, "Returns the name of the value's type as text.", sig(Text, p("value", Any))),
	group("core", []string{"isnothing", "is_nothing"}, "Tells whether the value is nothing.", sig(Boolean, p("value", Any))),

	// math
	group("math", []string{"abs"}, "Returns the absolute value of a number.", sig(Number, p("number", Number))),
	group("math", []string{"round"}, "Rounds a number to the nearest whole number.", sig(Number, p("number", Number))),
	group("math", []string{"floor"}, "Rounds a number down to a whole number.", sig(Number, p("number", Number))),
	group("math", []string{"ceil"}, "Rounds a number up to a whole number.", sig(Number, p("number", Number))),
	group("math", []string{"sqrt"}, "Returns the square root of a number.", sig(Number, p("number", Number))),
	group("math", []string{"sin"}, "Returns the sine of an angle in radians.", sig(Number, p("radians", Number))),
	group("math", []string{"cos"}, "Returns the cosine of an angle in radians.", sig(Number, p("radians", Number))),
	group("math", []string{"tan"}, "Returns the tangent of an angle in radians.", sig(Number, p("radians", Number))),
	group("math", []string{"min"}, "Returns the smaller of two numbers.", sig(Number, p("a", Number), p("b", Number))),
	group("math", []string{"max"}, "Returns the larger of two numbers.", sig(Number, p("a", Number), p("b", Number))),
	group("math", []string{"power"}, "Raises a base to an exponent.", sig(Number, p("base", Number), p("exponent", Number))),
	group("math", []string{"clamp"}, "Limits a number to the range from low to high.", sig(Number, p("value", Number), p("low", Number), p("high", Number))),

	// random
	group("random", []string{"random"}, "Returns a random number from 0 up to 1.", sig(Number)),
	group("random", []string{"random_boolean"}, "Returns yes or no at random.", sig(Boolean)),
	group("random", []string{"generate_uuid"}, "Returns a new random UUID as text.", sig(Text)),
	group("random", []string{"random_between"}, "Returns a random number between low and high.", sig(Number, p("low", Number), p("high", Number))),
	group("random", []string{"random_int"}, "Returns a random whole number between low and high, inclusive.", sig(Number, p("low", Number), p("high", Number))),
	group("random", []string{"random_from"}, "Returns a randomly chosen element of a list.", sig(Any, p("list", anyList))),
	group("random", []string{"random_seed"}, "Seeds the random generator so results repeat (not for security code).", sig(Nothing, p("seed", Number))),

	// text
	group("text", []string{"touppercase", "to_uppercase"}, "Returns the text in upper case.", sig(Text, p("text", Text))),
	group("text", []string{"tolowercase", "to_lowercase"}, "Returns the text in lower case.", sig(Text, p("text", Text))),
	group("text", []string{"trim"}, "Removes leading and trailing whitespace.", sig(Text, p("text", Text))),
	group("text", []string{"capitalize"}, "Returns the text with its first letter in upper case.", sig(Text, p("text", Text))),
	group("text", []string{"reverse", "reverse_text"}, "Returns the characters of the text in reverse order.", sig(Text, p("text", Text))),
	group("text", []string{"substring"}, "Returns length characters of the text starting at start.", sig(Text, p("text", Text), p("start", Number), p("length", Number))),
	group("text", []string{"string_split", "split"}, "Splits the text at each occurrence of the delimiter.", sig(NewList(Text), p("text", Text), p("delimiter", Text))),
	group("text", []string{"starts_with", "startswith"}, "Tells whether the text begins with the prefix.", sig(Boolean, p("text", Text), p("prefix", Text))),
	group("text", []string{"ends_with", "endswith"}, "Tells whether the text ends with the suffix.", sig(Boolean, p("text", Text), p("suffix", Text))),
	group("text", []string{"replace"}, "Replaces every occurrence of old in the text with new.", sig(Text, p("text", Text), p("old", Text), p("new", Text))),
	group("text", []string{"last_index_of", "lastindexof"}, "Returns the position of the last occurrence of the search text, or -1.", sig(Number, p("text", Text), p("search", Text))),
	group("text", []string{"padleft"}, "Pads the text on the left with spaces to the given width.", sig(Text, p("text", Text), p("width", Number))),
	group("text", []string{"padright"}, "Pads the text on the right with spaces to the given width.", sig(Text, p("text", Text), p("width", Number))),
	group("text", []string{"format_number"}, "Formats a number with the given count of decimal places.", sig(Text, p("number", Number), p("decimals", Number))),
	group("text", []string{"parse_query_string"}, "Parses a URL query string into a map of names to values.", sig(textMap, p("query", Text))),
	group("text", []string{"parse_cookies"}, "Parses a Cookie header into a map of names to values.", sig(textMap, p("header", Text))),
	group("text", []string{"parse_form_urlencoded"}, "Parses a form-urlencoded body into a map of names to values.", sig(textMap, p("body", Text))),

	// list (some also work on text or binary)
	group("list", []string{"length", "size"}, "Returns the number of elements of a list, characters of a text or bytes of binary data.",
		sig(Number, p("value", anyList)), sig(Number, p("value", Text)), sig(Number, p("value", Binary))),
	group("list", []string{"contains", "includes"}, "Tells whether the list holds the value, or the text holds the search text.",
		sig(Boolean, p("collection", anyList), p("value", Any)), sig(Boolean, p("collection", Text), p("value", Text))),
	group("list", []string{"indexof", "index_of", "find_index"}, "Returns the position of the value in the list or text, or -1.",
		sig(Number, p("collection", anyList), p("value", Any)), sig(Number, p("collection", Text), p("value", Text))),
	group("list", []string{"push"}, "Appends the value to the end of the list.", sig(Nothing, p("list", anyList), p("value", Any))),
	group("list", []string{"unshift"}, "Inserts the value at the front of the list.", sig(Nothing, p("list", anyList), p("value", Any))),
	group("list", []string{"insert_at", "insertat"}, "Inserts the value into the list at the index.", sig(Nothing, p("list", anyList), p("index", Number), p("value", Any))),
	group("list", []string{"clear"}, "Removes every element of the list.", sig(Nothing, p("list", anyList))),
	group("list", []string{"sort"}, "Sorts the list in place.", sig(Nothing, p("list", anyList))),
	group("list", []string{"reverse_list"}, "Reverses the list in place.", sig(Nothing, p("list", anyList))),
	group("list", []string{"fill"}, "Sets every element of the list to the value.", sig(Nothing, p("list", anyList), p("value", Any))),
	group("list", []string{"pop"}, "Removes and returns the last element of the list.", sig(Any, p("list", anyList))),
	group("list", []string{"shift"}, "Removes and returns the first element of the list.", sig(Any, p("list", anyList))),
	group("list", []string{"remove_at", "removeat"}, "Removes and returns the element at the index.", sig(Any, p("list", anyList), p("index", Number))),
	group("list", []string{"slice"}, "Returns the elements from start up to end as a new list.", sig(anyList, p("list", anyList), p("start", Number), p("end", Number))),
	group("list", []string{"concat"}, "Returns a new list with the elements of both lists.", sig(anyList, p("first", anyList), p("second", anyList))),
	group("list", []string{"unique"}, "Returns a new list without duplicate elements.", sig(anyList, p("list", anyList))),
	group("list", []string{"join"}, "Joins the elements of the list into text with the separator between them.", sig(Text, p("list", anyList), p("separator", Text))),
	group("list", []string{"count"}, "Counts how many elements of the list equal the value.", sig(Number, p("list", anyList), p("value", Any))),
	group("list", []string{"find"}, "Returns the first element of the list equal to the value, or nothing.", sig(NewOptional(Any), p("list", anyList), p("value", Any))),
	group("list", []string{"every"}, "Tells whether every element of the list equals the value.", sig(Boolean, p("list", anyList), p("value", Any))),
	group("list", []string{"some"}, "Tells whether some element of the list equals the value.", sig(Boolean, p("list", anyList), p("value", Any))),

	// pattern
	group("pattern", []string{"pattern_matches"}, "Tells whether the pattern matches somewhere in the text.", sig(Boolean, p("text", Text), p("pattern", Pattern))),
	group("pattern", []string{"pattern_find"}, "Returns the first match of the pattern in the text with its captures, or nothing.", sig(NewOptional(anyMap), p("text", Text), p("pattern", Pattern))),
	group("pattern", []string{"pattern_find_all"}, "Returns every match of the pattern in the text with its captures.", sig(NewList(anyMap), p("text", Text), p("pattern", Pattern))),

	// json
	group("json", []string{"parse_json"}, "Parses JSON text into a value.", sig(Any, p("json", Text))),
	group("json", []string{"stringify_json"}, "Formats a value as compact JSON text.", jsonSigs()...),
	group("json", []string{"stringify_json_pretty"}, "Formats a value as indented JSON text.", jsonSigs()...),

	// toml
	group("toml", []string{"parse_toml"}, "Parses TOML text into a value.", sig(Any, p("toml", Text))),
	group("toml", []string{"stringify_toml"}, "Formats a map as TOML text.", sig(Text, p("table", anyMap))),
	group("toml", []string{"stringify_toml_pretty"}, "Formats a map as indented TOML text.", sig(Text, p("table", anyMap))),

	// web
	group("web", []string{"path_params"}, "Matches a request path against a template like /users/:id and returns the captured parts, or nothing.", sig(NewOptional(textMap), p("path", Text), p("template", Text))),
	group("web", []string{"path_matches"}, "Tells whether a request path matches a template like /users/:id.", sig(Boolean, p("path", Text), p("template", Text))),
	group("web", []string{"mime_type"}, "Returns the MIME type for a file name or extension.", sig(Text, p("name", Text))),
	group("web", []string{"parse_multipart"}, "Parses a multipart/form-data body into its parts.",
		sig(NewList(anyMap), p("body", Text), p("content_type", Text)), sig(NewList(anyMap), p("body", Binary), p("content_type", Text))),

	// crypto
	group("crypto", []string{"wflhash256"}, "Returns the 256-bit WFLHASH digest of the text.", sig(Text, p("text", Text))),
	group("crypto", []string{"wflhash512"}, "Returns the 512-bit WFLHASH digest of the text.", sig(Text, p("text", Text))),
	group("crypto", []string{"sha256"}, "Returns the SHA-256 digest of the text in hex.", sig(Text, p("text", Text))),
	group("crypto", []string{"wflhash256_with_salt"}, "Returns the salted 256-bit WFLHASH digest of the text.", sig(Text, p("text", Text), p("salt", Text))),
	group("crypto", []string{"wflmac256"}, "Returns a WFLHASH message authentication code of the text under the key.", sig(Text, p("key", Text), p("message", Text))),
	group("crypto", []string{"hmac_sha256"}, "Returns the HMAC-SHA256 of the message under the key.", sig(Text, p("key", Text), p("message", Text))),
	group("crypto", []string{"generate_csrf_token"}, "Returns a new random token for CSRF protection.", sig(Text)),
	group("crypto", []string{"pbkdf2_hmac_sha256"}, "Derives a key from a password with PBKDF2-HMAC-SHA256.", sig(Text, p("password", Text), p("salt", Text), p("iterations", Number), p("length", Number))),
	group("crypto", []string{"constant_time_equals"}, "Compares two texts in constant time.", sig(Boolean, p("a", Text), p("b", Text))),
	group("crypto", []string{"secure_random_bytes"}, "Returns the given count of cryptographically secure random bytes, encoded as text.", sig(Text, p("count", Number))),
	group("crypto", []string{"seal"}, "Encrypts and authenticates the text under the key, with optional associated context.",
		sig(Text, p("plaintext", Text), p("key", Text)), sig(Text, p("plaintext", Text), p("key", Text), p("context", Text))),
	group("crypto", []string{"unseal"}, "Decrypts text sealed under the key, with the same optional context.",
		sig(Text, p("sealed", Text), p("key", Text)), sig(Text, p("sealed", Text), p("key", Text), p("context", Text))),
	group("crypto", []string{"hash_password"}, "Hashes a password for storage with the default algorithm.", sig(Text, p("password", Text))),
	group("crypto", []string{"argon2_hash"}, "Hashes a password with Argon2.", sig(Text, p("password", Text))),
	group("crypto", []string{"bcrypt_hash"}, "Hashes a password with bcrypt.", sig(Text, p("password", Text))),
	group("crypto", []string{"scrypt_hash"}, "Hashes a password with scrypt.", sig(Text, p("password", Text))),
	group("crypto", []string{"pbkdf2_hash"}, "Hashes a password with PBKDF2.", sig(Text, p("password", Text))),
	group("crypto", []string{"verify_password"}, "Checks a password against a stored hash.", sig(Boolean, p("password", Text), p("hash", Text))),
	group("crypto", []string{"argon2_verify"}, "Checks a password against an Argon2 hash.", sig(Boolean, p("password", Text), p("hash", Text))),
	group("crypto", []string{"bcrypt_verify"}, "Checks a password against a bcrypt hash.", sig(Boolean, p("password", Text), p("hash", Text))),
	group("crypto", []string{"scrypt_verify"}, "Checks a password against an scrypt hash.", sig(Boolean, p("password", Text), p("hash", Text))),
	group("crypto", []string{"pbkdf2_verify"}, "Checks a password against a PBKDF2 hash.", sig(Boolean, p("password", Text), p("hash", Text))),

	// filesystem
	group("filesystem", []string{"list_dir"}, "Returns the names of the entries of a directory.", sig(NewList(Text), p("path", Text))),
	group("filesystem", []string{"glob"}, "Returns the paths in a directory that match a glob pattern.", sig(NewList(Text), p("pattern", Text), p("directory", Text))),
	group("filesystem", []string{"rglob"}, "Returns the paths under a directory, recursively, that match a glob pattern.", sig(NewList(Text), p("pattern", Text), p("directory", Text))),
	with(group("filesystem", []string{"path_join"}, "Joins path parts with the platform separator.", sig(Text, p("part", Text))),
		func(b *Builtin) { b.MinArgs, b.MaxArgs, b.arity, b.Variadic = 1, -1, 2, Text }),
	group("filesystem", []string{"path_basename"}, "Returns the last element of a path.", sig(Text, p("path", Text))),
	group("filesystem", []string{"path_dirname"}, "Returns a path without its last element.", sig(Text, p("path", Text))),
	group("filesystem", []string{"path_extension"}, "Returns the extension of a path, without the dot.", sig(Text, p("path", Text))),
	group("filesystem", []string{"path_stem"}, "Returns the last element of a path without its extension.", sig(Text, p("path", Text))),
	group("filesystem", []string{"makedirs"}, "Creates a directory and any missing parents.", sig(Nothing, p("path", Text))),
	group("filesystem", []string{"remove_file", "delete_file"}, "Deletes a file.", sig(Nothing, p("path", Text))),
	group("filesystem", []string{"file_mtime"}, "Returns a file's modification time as a Unix timestamp.", sig(Number, p("path", Text))),
	group("filesystem", []string{"count_lines"}, "Returns the number of lines in a file.", sig(Number, p("path", Text))),
	group("filesystem", []string{"file_size"}, "Returns the size of a file in bytes.", sig(Number, p("path", Text))),
	group("filesystem", []string{"path_exists"}, "Tells whether a file or directory exists at the path.", sig(Boolean, p("path", Text))),
	group("filesystem", []string{"is_file"}, "Tells whether the path is a regular file.", sig(Boolean, p("path", Text))),
	group("filesystem", []string{"is_dir"}, "Tells whether the path is a directory.", sig(Boolean, p("path", Text))),
	group("filesystem", []string{"copy_file"}, "Copies a file.", sig(Nothing, p("source", Text), p("destination", Text))),
	group("filesystem", []string{"move_file"}, "Moves or renames a file.", sig(Nothing, p("source", Text), p("destination", Text))),
	group("filesystem", []string{"file_mode"}, "Returns a file's permission bits as octal text.", sig(Text, p("path", Text))),
	group("filesystem", []string{"set_file_mode"}, "Sets a file's permission bits from octal text.", sig(Text, p("path", Text), p("mode", Text))),
	group("filesystem", []string{"remove_dir"}, "Deletes a directory, recursively when the flag is yes.",
		sig(Nothing, p("path", Text)), sig(Nothing, p("path", Text), p("recursive", Boolean))),

	// time
	group("time", []string{"today"}, "Returns today's date.", sig(Date)),
	group("time", []string{"now"}, "Returns the current time of day.", sig(Time)),
	group("time", []string{"datetime_now"}, "Returns the current local date and time.", sig(DateTime)),
	group("time", []string{"utc_now"}, "Returns the current date and time in UTC.", sig(DateTime)),
	group("time", []string{"current_date"}, "Returns today's date as text.", sig(Text)),
	group("time", []string{"format_date"}, "Formats a date with a format string.", sig(Text, p("date", Date), p("format", Text))),
	group("time", []string{"format_time"}, "Formats a time with a format string.", sig(Text, p("time", Time), p("format", Text))),
	group("time", []string{"format_datetime"}, "Formats a date and time with a format string.", sig(Text, p("datetime", DateTime), p("format", Text))),
	group("time", []string{"parse_date"}, "Parses text into a date using a format string.", sig(Date, p("text", Text), p("format", Text))),
	group("time", []string{"parse_time"}, "Parses text into a time using a format string.", sig(Time, p("text", Text), p("format", Text))),
	group("time", []string{"create_time"}, "Makes a time from hours, minutes and optional seconds.",
		sig(Time, p("hour", Number), p("minute", Number)), sig(Time, p("hour", Number), p("minute", Number), p("second", Number))),
	group("time", []string{"create_date"}, "Makes a date from year, month and day.", sig(Date, p("year", Number), p("month", Number), p("day", Number))),
	group("time", []string{"create_datetime"}, "Makes a date and time from year, month, day and optional hour, minute and second.", datetimeSigs()...),
	group("time", []string{"add_days"}, "Returns the date the given count of days later.", sig(Date, p("date", Date), p("days", Number))),
	group("time", []string{"subtract_days"}, "Returns the date the given count of days earlier.", sig(Date, p("date", Date), p("days", Number))),
	group("time", []string{"days_between"}, "Returns the count of days from one date to another.", sig(Number, p("from", Date), p("to", Date))),
	group("time", []string{"date_part"}, "Returns the date of a date and time.", sig(Date, p("datetime", DateTime))),
	group("time", []string{"time_part"}, "Returns the time of day of a date and time.", sig(Time, p("datetime", DateTime))),
	group("time", []string{"year"}, "Returns the year of a date.", dateSigs("date")...),
	group("time", []string{"month"}, "Returns the month (1-12) of a date.", dateSigs("date")...),
	group("time", []string{"day"}, "Returns the day of the month of a date.", dateSigs("date")...),
	group("time", []string{"dayofweek", "day_of_week"}, "Returns the day of the week of a date.", dateSigs("date")...),
	group("time", []string{"dayofyear", "day_of_year"}, "Returns the day of the year of a date.", dateSigs("date")...),
	group("time", []string{"week_of_year"}, "Returns the ISO week number of a date.", dateSigs("date")...),
	group("time", []string{"hour"}, "Returns the hour of a time.", timeSigs()...),
	group("time", []string{"minute"}, "Returns the minute of a time.", timeSigs()...),
	group("time", []string{"second"}, "Returns the second of a time.", timeSigs()...),
	group("time", []string{"is_leap_year", "isleapyear"}, "Tells whether a year, or the year of a date, is a leap year.",
		sig(Boolean, p("year", Number)), sig(Boolean, p("date", Date)), sig(Boolean, p("date", DateTime))),
	group("time", []string{"days_in_month"}, "Returns the number of days in a month of a year.", sig(Number, p("year", Number), p("month", Number))),
	with(group("time", []string{"timestamp"}, "Returns the Unix timestamp of now or of a date, time or date and time.",
		sig(Number), sig(Number, p("value", Date)), sig(Number, p("value", Time)), sig(Number, p("value", DateTime))),
		func(b *Builtin) { b.arity = 1 }),
	group("time", []string{"datetime_from_timestamp"}, "Makes a date and time from a Unix timestamp.", sig(DateTime, p("timestamp", Number))),
	group("time", []string{"time_diff"}, "Returns the difference between two times in seconds.",
		sig(Number, p("a", Time), p("b", Time)), sig(Number, p("a", Time), p("b", DateTime)),
		sig(Number, p("a", DateTime), p("b", Time)), sig(Number, p("a", DateTime), p("b", DateTime))),

	// reserved names
	reserved("list", 2, "Higher-order list operation", "filter", "map", "reduce", "foreach"),
	reserved("time", 1, "Pauses the program", "sleep"),
	reserved("time", 0, "Current time or date", "time", "date"),
	reserved("time", 2, "Date and time arithmetic", "adddays", "addmonths", "add_months", "addyears", "add_years",
		"addhours", "add_hours", "addminutes", "add_minutes", "addseconds", "add_seconds",
		"formatdate", "formattime", "parsedate", "daysbetween", "monthsbetween", "months_between",
		"yearsbetween", "years_between"),
	reserved("pattern", 1, "Pattern compilation", "compile_pattern"),
	reserved("pattern", 2, "Pattern matching", "match_pattern", "pattern", "match", "test", "extract", "ismatch", "is_match"),
	reserved("pattern", 3, "Pattern search and replace", "replace_pattern", "findall", "find_all"),
	reserved("filesystem", 1, "File access", "read_file", "file_exists", "create_directory", "list_directory", "is_directory"),
	reserved("filesystem", 2, "File access", "write_file"),
	reserved("test", 1, "Name reserved for the reference's own test programs", "helper_function", "nested_function"),
)

func jsonSigs() []Signature {
	var out []Signature
	for _, t := range []*Type{Nothing, Boolean, Number, Text, anyList, anyMap} {
		out = append(out, sig(Text, p("value", t)))
	}
	return out
}

func datetimeSigs() []Signature {
	names := []string{"year", "month", "day", "hour", "minute", "second"}
	var out []Signature
	for n := 3; n <= 6; n++ {
		var ps []Param
		for _, nm := range names[:n] {
			ps = append(ps, p(nm, Number))
		}
		out = append(out, sig(DateTime, ps...))
	}
	return out
}

func dateSigs(name string) []Signature {
	return []Signature{sig(Number, p(name, Date)), sig(Number, p(name, DateTime))}
}

func timeSigs() []Signature {
	return []Signature{sig(Number, p("time", Time)), sig(Number, p("time", DateTime))}
}

# The programs a bash script (or make -n's output) runs, for tests/tools/setup.
# Prints one line per finding:
#   cmd WORD       the first word of a simple command
#   script PATH    a script of the sources run as a command (scripts/..., tests/...)
#   make TARGET    a target of a make run
#   deps [GROUP]   a scripts/deps run and its groups (none: all)
#   func NAME      a shell function defined here (not a program)
# A rough reader, not a shell parser: heredoc bodies and the arguments of
# echo and printf are skipped, comments cut, lines split at ; | & ( ) { }
# $( and backquotes. A word it misreads is no program on the machine and
# is left out by the caller (command -v).
function emit_words(part,    n, w, i, first, kind) {
	n = split(part, w, /[ \t]+/)
	i = 1
	while (i <= n && w[i] == "")
		i++
	# Shell keywords and prefixes that run the next word.
	while (i <= n && (w[i] ~ /^(then|do|else|elif|if|while|until|!|exec|command|time|sudo|env)$/ ||
			  w[i] ~ /^[A-Za-z_][A-Za-z0-9_]*=/)) {
		if (w[i] ~ /^(exec|command|sudo|env)$/)
			print "cmd " w[i]
		i++
	}
	# nice -n 19 CMD, timeout [-s SIG] N CMD, flock N: the program is later.
	while (i <= n && w[i] ~ /^(nice|timeout|flock)$/) {
		print "cmd " w[i]
		i++
		while (i <= n && (w[i] ~ /^-/ || w[i] ~ /^[0-9.]+[smh]?$/ || w[i] ~ /^"?\$[a-z_]+"?$/))
			i++
	}
	if (i > n)
		return
	first = w[i]
	gsub(/["']/, "", first)
	# ${KFT_VM_QEMU:-qemu-system-x86_64}: the default program
	if (first ~ /^\$<[A-Za-z_]+:-[A-Za-z0-9_.+-]+>$/) {
		sub(/^\$<[A-Za-z_]+:-/, "", first)
		sub(/>$/, "", first)
	}
	sub(/^(\$top|\$\{top\}|\$\(top\)|\.)\//, "", first)
	if (first ~ /^(scripts|tests)\/[A-Za-z0-9_.\/-]+$/) {
		print "script " first
		if (first == "scripts/deps") {
			kind = ""
			for (i++; i <= n; i++) {
				if (w[i] ~ /^[a-z]+$/)
					kind = kind " " w[i]
				else if (w[i] !~ /^-/)
					break
			}
			print "deps" kind
		}
		return
	}
	if (first == "make" || first == "$(MAKE)") {
		print "cmd make"
		for (i++; i <= n; i++) {
			if (w[i] ~ /^-[CfIo]$/)
				i++
			else if (w[i] !~ /^-/ && w[i] !~ /[=$"]/ && w[i] ~ /^[a-z][a-z0-9_-]*$/)
				print "make " w[i]
		}
		return
	}
	if (first ~ /^[A-Za-z_][A-Za-z0-9_.+-]*$/)
		print "cmd " first
}

# The line without the text of single-quoted strings (awk and sed programs,
# patterns; they may span lines: in_single stays set) and comments. Double
# quotes are kept with their text: bash -c "..." runs it.
function unquote(line,    out, i, j, c, prev) {
	out = ""
	prev = " "
	gsub(/'"'"'/, "", line)	# a quote inside single quotes: the usual idiom
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (in_single) {
			if (c == "'") {
				in_single = 0
				out = out "'"
			}
			continue
		}
		if (c == "\\") {
			out = out substr(line, i, 2)
			i++
			prev = "x"
			continue
		}
		if (c == "'" && in_double) {
			# bash -c "... 'x|y' ...": a quote closed on the line;
			# an apostrophe ("kd's") is none.
			j = index(substr(line, i + 1), "'")
			if (j) {
				out = out "''"
				i += j
				prev = c
				continue
			}
		}
		if (c == "\"")
			in_double = !in_double
		else if (c == "'" && !in_double) {
			in_single = 1
			out = out "'"
			prev = c
			continue
		} else if (c == "#" && !in_double && prev ~ /[ \t]/) {
			break
		}
		out = out c
		prev = c
	}
	return out
}

heredoc != "" {
	line = $0
	sub(/^\t+/, "", line)
	if (line == heredoc)
		heredoc = ""
	next
}

{
	line = $0
	if (match(line, /<<-?[ \t]*['"]?[A-Za-z_]+['"]?/)) {
		heredoc = substr(line, RSTART, RLENGTH)
		gsub(/<<-?[ \t]*|['"]/, "", heredoc)
	}
	if (match(line, /^[ \t]*(function[ \t]+)?[A-Za-z_][A-Za-z0-9_]*[ \t]*\(\)/)) {
		name = substr(line, RSTART, RLENGTH)
		sub(/^[ \t]*(function[ \t]+)?/, "", name)
		sub(/[ \t]*\(\)$/, "", name)
		print "func " name
	}
	line = unquote(line)
	gsub(/(echo|printf)([ \t]+("[^"]*"|'[^']*'|[^ \t;|&)"']+))*/, "echo", line)
	# ${VAR...} is no group: ${ and } become $< and >.
	while (match(line, /\$\{[^{}]*\}/))
		line = substr(line, 1, RSTART) "<" substr(line, RSTART + 2, RLENGTH - 3) ">" \
			substr(line, RSTART + RLENGTH)
	gsub(/\$\(|`|&&|\|\||[;|&(){}]/, "\n", line)
	n = split(line, parts, "\n")
	for (k = 1; k <= n; k++)
		emit_words(parts[k])
}

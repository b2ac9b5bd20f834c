# gen_man.awk - turns one help text (help/cmd/NAME.txt, help/topics/NAME.txt,
# a summary) into man(7) roff for help/gen_man.sh; run with LC_ALL=C.
# Unindented lines are prose and are filled (a blank line starts a paragraph,
# "Label:" lines and lines ending in ':' stand on their own line); indented
# lines and a "Synopsis:" line are kept as they are (.nf), and one wider than
# W columns is wrapped: a command line at a space outside its quotes, with a
# shell continuation (\), other lines under their second column.
# Variables: W, the width of preformatted text (man's line at 80 columns,
# 78, less the 7 of the section's indent).  From the environment (taken as
# they are, unlike -v): E2L_MAN_HEAD, a subsection's name to start with,
# and E2L_MAN_SUMMARY, a line of prose to put under it.

BEGIN {
	if (!W)
		W = 71
	for (i = 1; i < 256; i++)
		ord[sprintf("%c", i)] = i
	if (ENVIRON["E2L_MAN_HEAD"] != "")
		print ".SS " roff(ENVIRON["E2L_MAN_HEAD"])
	if (ENVIRON["E2L_MAN_SUMMARY"] != "") {
		print roff(ENVIRON["E2L_MAN_SUMMARY"])
		print ".PP"
	}
	mode = ""		# "", "fill" or "nf"
	insyn = 0		# the .nf block is a synopsis
	nrow = 0
	started = 0
	para = 0
}

# roff for one line of text: backslashes, minus signs, a leading control
# character, and UTF-8 sequences as \[uXXXX] (groff -ww accepts these);
# control bytes and ill-formed UTF-8 as U+FFFD.
function roff(s,    out, i, n, c, b, more, cp, ok, least) {
	out = ""
	if (s ~ /^[.']/)
		out = "\\&"
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		b = ord[c]
		if (b >= 128) {
			more = b >= 240 ? 3 : b >= 224 ? 2 : b >= 192 ? 1 : -1
			if (b >= 248)
				more = -1
			least = more == 1 ? 128 : more == 2 ? 2048 : 65536
			cp = more == 3 ? b - 240 : more == 2 ? b - 224 : b - 192
			ok = more > 0
			for (; ok && more > 0; more--) {
				b = ord[substr(s, i + 1, 1)]
				if (b < 128 || b >= 192) {
					ok = 0
					break
				}
				cp = cp * 64 + b - 128
				i++
			}
			# well-formed only: no overlong form, surrogate or
			# code point past U+10FFFF (groff refuses them)
			if (cp < least || cp > 1114111 ||
			    (cp >= 55296 && cp < 57344))
				ok = 0
			out = out sprintf("\\[u%04X]", ok ? cp : 65533)
		} else if (b < 32 && c != "\t" || b == 127)
			out = out "\\[uFFFD]"	# a control byte
		else if (c == "\\")
			out = out "\\e"
		else if (c == "-")
			out = out "\\-"
		else
			out = out c
	}
	return out
}

function spaces(n,    s) {
	s = ""
	while (n-- > 0)
		s = s " "
	return s
}

# tabs to the next multiple of 8, as a terminal shows them
function untab(s,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\t")
			out = out spaces(8 - length(out) % 8)
		else
			out = out c
	}
	return out
}

# the last space at or before column lim (1-based index, 0 if none) after
# column from; when q, outside quotes (and after a pipe) where there is one
function cut(s, from, lim, q,    i, c, sq, dq, any, outq, pipe) {
	sq = dq = 0
	any = outq = pipe = 0
	for (i = 1; i <= length(s) && i <= lim + 1; i++) {
		c = substr(s, i, 1)
		if (c == "'" && !dq)
			sq = !sq
		else if (c == "\"" && !sq)
			dq = !dq
		else if (c == " " && i > from && substr(s, i - 1, 1) != " ") {
			any = i
			if (!sq && !dq)
				outq = i
			if (!sq && !dq && substr(s, i - 1, 1) == "|")
				pipe = i
		}
	}
	return q && pipe ? pipe : q && outq ? outq : any
}

# a preformatted line, wrapped to W columns; cont: the continuation's
# indent, or -1 to choose one
function pre(s, cont,    ind, body, shell, p, head) {
	match(s, /[^ ]/)
	ind = RSTART - 1
	body = substr(s, ind + 1)
	shell = body ~ /^(e2layout|printf|debugfs|e2fsck|mke2fs|sudo|sh|echo) /
	if (cont >= 0)
		;
	else if (shell)
		cont = ind + 4
	else
		cont = ind + 4
	while (length(s) > W) {
		p = cut(s, cont + 1, shell ? W - 2 : W, shell)
		if (!p) {
			# one word: moved left as far as it must go
			match(s, /^ */)
			p = length(s) - W
			s = substr(s, (p < RLENGTH ? p : RLENGTH) + 1)
			break
		}
		head = substr(s, 1, p - 1)
		sub(/ +$/, "", head)
		print roff(head) (shell ? " \\e" : "")
		s = substr(s, p + 1)
		sub(/^ +/, "", s)
		s = spaces(cont) s
	}
	print roff(s)
}

# the column a row's text goes on under (a table's second column, a list
# item's text), or -1
function hang(s,    ind, body) {
	match(s, /[^ ]/)
	ind = RSTART - 1
	body = substr(s, ind + 1)
	if (body ~ /^[-*] /)
		return ind + 2
	if (match(body, /[^ ]  +[^ ]/) && ind + RSTART + RLENGTH - 2 <= W - 25)
		return ind + RSTART + RLENGTH - 2
	return -1
}

# a synopsis line's continuation: under the request's first argument
function syncol(s,    ind, body) {
	match(s, /[^ ]/)
	ind = RSTART - 1
	body = substr(s, ind + 1)
	if (body ~ /^[[|]/)
		return ind
	if (match(body, /^(Synopsis: |\([a-z]+\) )?[^ ]+ /) && ind + RLENGTH <= W - 25)
		return ind + RLENGTH
	return ind + 4
}

# A row of preformatted text: a line and the lines under its hanging column.
# Printed as it is when it fits; else its text is filled again under the
# hanging column, or, without one, each line is wrapped.
function flush(    i, wide, text, n, w, out, col) {
	if (!nrow)
		return
	wide = 0
	for (i = 1; i <= nrow; i++)
		if (length(row[i]) > W)
			wide = 1
	if (!wide)
		for (i = 1; i <= nrow; i++)
			print roff(row[i])
	else if (rowhang < 0)
		for (i = 1; i <= nrow; i++)
			pre(row[i], insyn ? syncol(row[i]) : -1)
	else {
		out = substr(row[1], 1, rowhang)
		text = substr(row[1], rowhang + 1)
		for (i = 2; i <= nrow; i++)
			text = text " " substr(row[i], rowhang + 1)
		n = split(text, w, / +/)
		col = length(out)
		for (i = 1; i <= n; i++) {
			if (col > rowhang && col + 1 + length(w[i]) > W) {
				print roff(out)
				out = spaces(rowhang)
				col = rowhang
			}
			if (col > rowhang && substr(out, col, 1) != " ")
				out = out " "
			out = out w[i]
			col = length(out)
		}
		print roff(out)
	}
	nrow = 0
}

function addnf(s,    ind) {
	match(s, /[^ ]/)
	ind = RSTART - 1
	if (nrow && rowhang >= 0 && ind == rowhang) {
		row[++nrow] = s
		return
	}
	flush()
	nrow = 1
	row[1] = s
	rowhang = insyn ? -1 : hang(s)
}

{
	line = untab($0)
	sub(/[ \r]+$/, "", line)
}

line == "" {
	if (mode == "nf") {
		flush()
		print ".fi"
	}
	mode = ""
	insyn = 0
	para = started
	next
}

line ~ /^ / || line ~ /^Synopsis:/ {
	if (mode != "nf") {
		if (para)
			print ".PP"
		print ".nf"
		mode = "nf"
		insyn = line ~ /^Synopsis:/
	}
	addnf(line)
	started = 1
	para = 0
	next
}

{
	if (mode == "nf") {
		flush()
		print ".fi"
	} else if (para)
		print ".PP"
	else if (mode == "fill" && line ~ /^(Options|Reads|Writes|Live|Examples?)[: (]/)
		print ".br"
	print roff(line)
	if (line ~ /:$/)
		print ".br"
	mode = "fill"
	started = 1
	para = 0
}

END {
	if (mode == "nf") {
		flush()
		print ".fi"
	}
}

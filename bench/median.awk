# bench/median.awk: the median, min and max of each key's values, for the
# summaries of bench/figures.sh and bench/contention.sh. Input: one value a
# line, KEY<TAB>VALUE or KEY<TAB>VALUE<TAB>UNIT (a key's last unit is
# printed after its figures). Output: one line a key, in the order the keys
# first come: the key in a column of width characters (-v width=N, default
# 70), the median in one of vwidth (-v vwidth=N, default 14), then
# "(min .. max, N rounds)".
BEGIN {
	FS = "\t"
	if (width == "") width = 70
	if (vwidth == "") vwidth = 14
}
{
	if (!($1 in n)) order[++k] = $1
	v[$1, ++n[$1]] = $2 + 0
	u[$1] = $3
}
END {
	format = "%-" width "s %" vwidth ".0f  (%.0f .. %.0f, %d rounds)"
	for (j = 1; j <= k; j++) {
		key = order[j]; m = n[key]
		for (a = 1; a <= m; a++) s[a] = v[key, a]
		for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (s[b] < s[a]) { t = s[a]; s[a] = s[b]; s[b] = t }
		med = (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
		printf format, key, med, s[1], s[m], m
		if (u[key] != "") printf " %s", u[key]
		printf "\n"
	}
}

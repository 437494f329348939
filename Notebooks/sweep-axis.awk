# The swept column of a holdlab sweep CSV, for sweep-axis.gpi: with -v mode=values each value of column c on its own
# line (in row order, CSV quotes removed, then in double quotes, as gnuplot's word() takes a value with spaces); with -v mode=count the number of values that are not numbers (0: the
# column is numeric). Comment lines (#) and empty lines are skipped, the first other line is the header; a UTF-8
# byte-order mark and CRLF line ends are accepted; a quoted field may hold commas ("bezier(0.2,0,0,1)").
#   awk -v c=param_fill_curve -v mode=values -f Notebooks/sweep-axis.awk sweep.csv
function fields(line, out,    i, ch, quoted, n, value) {
    n = 1
    value = ""
    for (i = 1; i <= length(line); i++) {
        ch = substr(line, i, 1)
        if (ch == "\"") {
            if (quoted && substr(line, i + 1, 1) == "\"") { value = value ch; i++ } else { quoted = !quoted }
        } else if (ch == "," && !quoted) {
            out[n++] = value
            value = ""
        } else {
            value = value ch
        }
    }
    out[n] = value
    return n
}
FNR == 1 { sub(/^\357\273\277/, "") }
{ sub(/\r$/, "") }
/^#/ || $0 == "" { next }
!header {
    header = 1
    count = fields($0, names)
    for (i = 1; i <= count; i++) if (names[i] == c) k = i
    next
}
k {
    fields($0, row)
    if (mode == "values") { gsub(/"/, "'", row[k]); print "\"" row[k] "\"" }
    else if (row[k] !~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/) n++
}
END { if (mode != "values") print n + 0 }

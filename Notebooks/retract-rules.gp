# One early release under the three interruption rules (DOMAIN §5), from three `holdlab trace` CSVs: above, the
# model's progress (under additive the fill runs on underneath the retract and the value dips below 0, drawn as an
# empty bar); below, what the screen shows, frame by frame.
#
#   for rule in swiftui additive fromCurrent; do
#     holdlab trace --profile hig-linear-bar --release-at 0.6 --set retract.interruption=$rule --out $rule.csv
#   done
#   holdlab plot retract-rules --data swiftui.csv additive.csv fromCurrent.csv --out retract-rules.png
#   gnuplot -e "data='swiftui.csv additive.csv fromCurrent.csv'; out='retract-rules.png'" Notebooks/retract-rules.gp
#
# Variables: data (trace CSVs separated by spaces, usually three), out (.png or .svg), rules (the curves' titles
# when a file's '# command:' line has no --set retract.interruption=RULE; default 'swiftui additive fromCurrent').
if (!exists("data")) data = 'swiftui.csv additive.csv fromCurrent.csv'
if (!exists("out")) out = 'retract-rules.png'
if (!exists("rules")) rules = 'swiftui additive fromCurrent'
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot's own errors never reach the screen for a wrong file.
_need = 't_ms model_progress displayed_progress event'
_writer = 'holdlab trace --release-at 0.6 --set retract.interruption=RULE --out RULE.csv (one per rule)'
do for [_f in data] {
    if (system("[ -f '" . _f . "' ] && [ -r '" . _f . "' ] && echo yes") ne 'yes') { print sprintf("%s: cannot read the file; this notebook reads a CSV written by: %s", _f, _writer); exit status 65 }
    _h = system("awk '!/^#/ && NF { print; exit }' '" . _f . "' 2>/dev/null")
    _rows = system("awk '!/^#/ && NF { n++ } END { print (n > 0 ? n - 1 : 0) }' '" . _f . "' 2>/dev/null") + 0
    _missing = ''
    do for [_c in _need] {
        if (strstrt(',' . _h . ',', ',' . _c . ',') == 0) { _missing = _missing . (_missing eq '' ? '' : ', ') . _c }
    }
    if (_missing ne '') { print sprintf("%s: missing column(s) %s; this notebook reads a CSV written by: %s", _f, _missing, _writer); exit status 65 }
    if (_rows == 0) { print sprintf("%s: no data rows; this notebook reads a CSV written by: %s", _f, _writer); exit status 65 }
}
if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 960,680 dynamic noenhanced font 'Sans,12'
} else {
    set terminal pngcairo size 960,680 noenhanced font 'Sans,11'
}
set output out
# The provenance footer: footer.gpi beside this script.
_notebooks = (exists("ARG0") && strstrt(ARG0, '/') > 0) ? system("dirname '" . ARG0 . "'") : 'Notebooks'
# A script copied out of its folder draws no footer.
if (system("[ -f '" . _notebooks . "/footer.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/footer.gpi' }
set datafile separator comma
set datafile missing 'NaN'

array colours[8] = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf']
colour(i) = colours[(i - 1) % 8 + 1]
is(name) = strcol('event') eq name
# The rule named on the file's command line (--set retract.interruption=RULE), else the i-th word of `rules`.
ruleOf(f) = system("awk '/^# command: / { for (i = 3; i < NF; i++) if ($i == \"--set\" && index($(i+1), \"retract.interruption=\") == 1) r = substr($(i+1), 22) } END { if (r ~ /^[A-Za-z]+$/) print r }' '" . f . "' 2>/dev/null")
title(f, i) = (_rule = ruleOf(f), _rule ne '' ? _rule : (i <= words(rules) ? word(rules, i) : f))
# A title goes into a double-quoted string of the plot command built below and run by eval: its backslashes, double
# quotes and backquotes are escaped (a title in single quotes there let rules=a'.system("…").'b run a command, and
# it's broke the command; gnuplot runs a backquoted text in a double-quoted string, in this script too: hence "\`").
_escaped(s, c) = (_e = strstrt(s, c), _e == 0 ? s : s[1:_e-1] . "\\" . c . _escaped(s[_e+1:], c))

n = words(data)
array releases[n]
tmax = 0; pmin = 0; pmax = 1
do for [i = 1:n] {
    f = word(data, i)
    stats f using 't_ms':'model_progress' nooutput name 'S'
    tmax = S_max_x > tmax ? S_max_x : tmax
    pmin = S_min_y < pmin ? S_min_y : pmin
    pmax = S_max_y > pmax ? S_max_y : pmax
    # The release time (0 when the file has no release: held to the end).
    stats f using (is('release') ? column('t_ms') : 0) nooutput name 'R'
    releases[i] = R_max
}

set multiplot
set lmargin at screen 0.09
set rmargin at screen 0.80
set xrange [0:tmax]
set grid
set key outside right top Left reverse spacing 1.3
do for [i = 1:n] {
    if (releases[i] > 0) { set arrow from releases[i], graph 0 to releases[i], graph 1 nohead dt 2 lc rgb '#555555' }
}

# Above: the model's value.
set tmargin at screen 0.93
set bmargin at screen 0.55
set title 'An early release under three interruption rules'
set format x ''
set ylabel 'model progress (0–1)'
set yrange [pmin - 0.08:pmax + 0.05]
set ytics 0.25
if (pmin < 0) {
    set object 1 rectangle from graph 0, first pmin - 0.08 to graph 1, first 0 fillcolor rgb '#eeeeee' fillstyle solid noborder behind
    set label 1 'below 0: drawn as an empty bar' at graph 0.015, first (pmin - 0.08) / 2 left front textcolor rgb '#555555'
}
set arrow 100 from 0, 0 to tmax, 0 nohead lc rgb '#888888'
series = ''
do for [i = 1:n] {
    f = word(data, i)
    series = series . sprintf("'%s' using 't_ms':'model_progress' with lines lw 2 lc rgb '%s' title \"%s\", ", f, colour(i), _escaped(_escaped(_escaped(title(f, i), "\\"), "\""), "\`"))
}
series = series . "keyentry with lines dt 2 lc rgb '#555555' title 'release'"
eval 'plot ' . series

# Below: what the screen shows.
unset object 1
unset label 1
unset label 99
unset arrow 100
unset title
set tmargin at screen 0.50
set bmargin at screen 0.10
set format x '%g'
set xlabel 'time after touch-down (ms)'
set ylabel 'displayed progress (0–1)'
set yrange [-0.05:1.05]
unset key
series = ''
do for [i = 1:n] {
    f = word(data, i)
    series = series . sprintf("'%s' using 't_ms':'displayed_progress' with steps lw 2 lc rgb '%s' notitle", f, colour(i)) . (i < n ? ', ' : '')
}
eval 'plot ' . series
unset multiplot

# Mismatch against fill.duration (from a `holdlab sweep` CSV): how long before the action fires the bar already
# looks full (trigger time − first frame displayed full, over completed holds): mean, median and 95th percentile.
# Above the zero line the bar looks full and nothing happens yet; below it the action fires before the bar fills.
#
#   holdlab sweep --profile hig-linear-bar --vary fill.duration=0.6:1.4:0.05 --out mismatch.csv
#   holdlab plot mismatch-vs-duration --data mismatch.csv --out mismatch-vs-duration.png
#   gnuplot -e "data='mismatch.csv'; out='mismatch-vs-duration.png'" Notebooks/mismatch-vs-duration.gp
#
# Variables: data (the sweep CSV), out (.png or .svg), x (the swept column on the x axis; default
# 'param_fill_duration'), xlabel (default: the key path and its unit).
if (!exists("data")) data = 'mismatch.csv'
if (!exists("out")) out = 'mismatch-vs-duration.png'
if (!exists("x")) x = 'param_fill_duration'
# Inside plot commands `x` is gnuplot's dummy variable, so the column name is kept under another name.
xcol = x
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot's own errors never reach the screen for a wrong file.
_need = xcol . ' mismatch_mean_ms mismatch_p50_ms mismatch_p95_ms'
_writer = 'holdlab sweep --vary fill.duration=0.6:1.4:0.1 --out mismatch.csv'
# One CSV: several --data files are for fill-curves and retract-rules (a name with spaces is several words here).
if (words(data) != 1) { print sprintf("this notebook draws one CSV (%d given); run it once per file, or plot several with fill-curves or retract-rules", words(data)); exit status 65 }
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
    # One key against the metrics: another swept key (a grid of two) would join its rows into one zig-zag line.
    _also = system("awk -F, -v x='" . xcol . "' '/^#/ || !NF { next } !h { for (i = 1; i <= NF; i++) if ($i ~ /^param_/ && $i != x) c[i] = $i; h = 1; next } { for (i in c) { if (!(i in v)) v[i] = $i; else if (v[i] != $i) { print c[i]; exit } } }' '" . _f . "' 2>/dev/null")
    if (_also ne '') { print sprintf("%s: column %s varies as well as x = %s (a sweep of several keys); this notebook draws one swept key: plot heatmap --var x=%s --var y=%s, or sweep one key", _f, _also, xcol, xcol, _also); exit status 65 }
}
if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 960,540 dynamic noenhanced font 'Sans,12'
} else {
    set terminal pngcairo size 960,540 noenhanced font 'Sans,11'
}
set output out
# The provenance footer: footer.gpi beside this script.
_notebooks = (exists("ARG0") && strstrt(ARG0, '/') > 0) ? system("dirname '" . ARG0 . "'") : 'Notebooks'
# A script copied out of its folder draws no footer.
if (system("[ -f '" . _notebooks . "/footer.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/footer.gpi' }
set datafile separator comma
set datafile missing 'NaN'

# 'param_fill_duration' -> 'fill.duration (s)'.
dots(s) = (_u = strstrt(s, '_')) > 0 ? s[1:_u-1] . '.' . dots(s[_u+1:]) : s
leaf(s) = (_d = strstrt(s, '.')) > 0 ? leaf(s[_d+1:]) : s
seconds(l) = l eq 'minimumDuration' || l eq 'duration' || l eq 'delay' || l eq 'offset' || l eq 'minInterval' || l eq 'tick'
unit(k) = seconds(leaf(k)) ? ' (s)' : leaf(k) eq 'maximumDistance' ? ' (pt)' : leaf(k) eq 'refreshRate' ? ' (Hz)' : (leaf(k) eq 'threshold' || leaf(k) eq 'resolution') ? ' (progress 0–1)' : ''
key(c) = strlen(c) > 6 && c[1:6] eq 'param_' ? dots(c[7:]) : c
if (!exists("xlabel")) xlabel = key(xcol) . unit(key(xcol))
provenance(f) = system("awk '/^# sweep_profile: / { p = $3 } /^# sweep_population: / { q = $3 } /^# sweep_users: / { u = $3 } END { if (p != \"\") printf \"%s × %s population%s\", p, (q == \"\" ? \"?\" : q), (u == \"\" ? \"\" : \", \" u \" users per point\") }' '" . data . "' 2>/dev/null")
known(c) = column(c) == column(c)

# Ranges and which series have data (no completed hold, or no fill to look full, gives NaN; an empty series would
# make gnuplot warn).
# The x axis (numbers at their values, names and booleans one place apart): sweep-axis.gpi beside this script; a
# script copied out of its folder draws numbers only.
if (system("[ -f '" . _notebooks . "/sweep-axis.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/sweep-axis.gpi' } else {
    categorical = 0; joined = 'linespoints'; xat(d) = column(xcol)
    stats data using (xat(0)) nooutput name 'X'
    pad = X_max > X_min ? 0.03 * (X_max - X_min) : (X_min != 0 ? 0.1 * abs(X_min) : 1)
}
array columns[3] = ['mismatch_mean_ms', 'mismatch_p50_ms', 'mismatch_p95_ms']
array titles[3] = ['mean', 'median (p50)', '95th percentile']
array colours[3] = ['#1f77b4', '#ff7f0e', '#d62728']
array styles[3] = ['lw 2 pt 7 ps 0.8', 'lw 2 dt 2 pt 6 ps 0.8', 'lw 2 dt 4 pt 9 ps 0.8']
array counts[3]
ymin = 0; ymax = 0
do for [i = 1:3] {
    stats data using (known(columns[i]) ? 1 : 0) nooutput name 'K'
    counts[i] = K_sum
    if (K_sum > 0) {
        stats data using (column(columns[i])) nooutput name 'M'
        ymin = M_min < ymin ? M_min : ymin
        ymax = M_max > ymax ? M_max : ymax
    }
}
span = ymax - ymin > 0 ? ymax - ymin : 100
ylo = ymin - 0.08 * span
yhi = ymax + 0.08 * span

subtitle = provenance(data)
set title 'Mismatch against ' . key(xcol) . (subtitle ne '' ? "\n" . subtitle : '')
set xlabel xlabel
set ylabel 'mismatch: action time − first full frame (ms)'
set xrange [X_min - pad:X_max + pad]
set yrange [ylo:yhi]
set grid
set key top right opaque box
# The two meanings of the sign, as tinted halves.
set object 1 rectangle from graph 0, first 0 to graph 1, graph 1 fillcolor rgb '#fdecea' fillstyle solid noborder behind
set object 2 rectangle from graph 0, graph 0 to graph 1, first 0 fillcolor rgb '#eaf2fb' fillstyle solid noborder behind
if (yhi > 0) { set label 1 '> 0: the bar looks full, nothing happens yet' at graph 0.015, graph 0.96 left front textcolor rgb '#a02020' }
if (ylo < 0) { set label 2 '< 0: the action fires before the bar looks full' at graph 0.015, graph 0.04 left front textcolor rgb '#1f4e8c' }
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lw 1.5 lc rgb 'black' front

series = ''
do for [i = 1:3] {
    if (counts[i] > 0) {
        series = series . sprintf("data using (xat(0)):'%s' with %s %s lc rgb '%s' title '%s', ", columns[i], joined, styles[i], colours[i], titles[i])
    }
}
if (series eq '') { series = "NaN notitle, "; unset key; set label 3 'no completed hold looked full: no mismatch data' at graph 0.5, graph 0.62 center front }
eval 'plot ' . series[1:strlen(series)-2]

# Haptic pulses against haptics.threshold (from a `holdlab sweep` CSV): the mean number of pulses a completed hold
# plays (left axis) and the peak pulse rate, 1 / the shortest gap between two played pulses (right axis).
# A threshold of 0 turns progress pulses off (only a completion pulse, if any, is left).
#
#   holdlab sweep --profile kikocard-accelerating --vary haptics.threshold=0.005,0.01,0.02,0.03,0.05,0.075,0.1,0.15,0.2 --out pulses.csv
#   holdlab plot pulses-vs-threshold --data pulses.csv --out pulses-vs-threshold.png
#   gnuplot -e "data='pulses.csv'; out='pulses-vs-threshold.png'" Notebooks/pulses-vs-threshold.gp
#
# Variables: data (the sweep CSV), out (.png or .svg), x (the swept column on the x axis; default
# 'param_haptics_threshold'), xlabel (default: the key path and its unit).
if (!exists("data")) data = 'pulses.csv'
if (!exists("out")) out = 'pulses-vs-threshold.png'
if (!exists("x")) x = 'param_haptics_threshold'
# Inside plot commands `x` is gnuplot's dummy variable, so the column name is kept under another name.
xcol = x
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot's own errors never reach the screen for a wrong file.
_need = xcol . ' pulses_mean peak_pulse_rate_hz'
_writer = 'holdlab sweep --profile kikocard-accelerating --vary haptics.threshold=0.005,0.01,0.02,0.05 --out pulses.csv'
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

# 'param_haptics_threshold' -> 'haptics.threshold (progress 0–1)'.
dots(s) = (_u = strstrt(s, '_')) > 0 ? s[1:_u-1] . '.' . dots(s[_u+1:]) : s
leaf(s) = (_d = strstrt(s, '.')) > 0 ? leaf(s[_d+1:]) : s
seconds(l) = l eq 'minimumDuration' || l eq 'duration' || l eq 'delay' || l eq 'offset' || l eq 'minInterval' || l eq 'tick'
unit(k) = seconds(leaf(k)) ? ' (s)' : leaf(k) eq 'maximumDistance' ? ' (pt)' : leaf(k) eq 'refreshRate' ? ' (Hz)' : (leaf(k) eq 'threshold' || leaf(k) eq 'resolution') ? ' (progress 0–1)' : ''
key(c) = strlen(c) > 6 && c[1:6] eq 'param_' ? dots(c[7:]) : c
if (!exists("xlabel")) xlabel = key(xcol) . unit(key(xcol))
provenance(f) = system("awk '/^# sweep_profile: / { p = $3 } /^# sweep_population: / { q = $3 } /^# sweep_users: / { u = $3 } END { if (p != \"\") printf \"%s × %s population%s\", p, (q == \"\" ? \"?\" : q), (u == \"\" ? \"\" : \", \" u \" users per point\") }' '" . data . "' 2>/dev/null")
known(c) = column(c) == column(c)

# Ranges and which series have data (a series with no points would make gnuplot warn).
# The x axis (numbers at their values, names and booleans one place apart): sweep-axis.gpi beside this script; a
# script copied out of its folder draws numbers only.
if (system("[ -f '" . _notebooks . "/sweep-axis.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/sweep-axis.gpi' } else {
    categorical = 0; joined = 'linespoints'; xat(d) = column(xcol)
    stats data using (xat(0)) nooutput name 'X'
    pad = X_max > X_min ? 0.03 * (X_max - X_min) : (X_min != 0 ? 0.1 * abs(X_min) : 1)
}
stats data using (known('pulses_mean') ? 1 : 0) nooutput name 'P'
stats data using (known('peak_pulse_rate_hz') ? 1 : 0) nooutput name 'R'
# A threshold of 0 is another mode (no progress pulses), so its point is not joined to the others by a line.
on(c) = categorical || column(xcol) > 0 ? column(c) : NaN
off(c) = categorical || column(xcol) > 0 ? NaN : column(c)
stats data using (known('pulses_mean') && (categorical || column(xcol) > 0) ? 1 : 0) nooutput name 'PON'
stats data using (known('pulses_mean') && !categorical && column(xcol) <= 0 ? 1 : 0) nooutput name 'POFF'
stats data using (known('peak_pulse_rate_hz') && (categorical || column(xcol) > 0) ? 1 : 0) nooutput name 'RON'
stats data using (known('peak_pulse_rate_hz') && !categorical && column(xcol) <= 0 ? 1 : 0) nooutput name 'ROFF'
pmax = 0; rmax = 0
if (P_sum > 0) { stats data using 'pulses_mean' nooutput name 'PM'; pmax = PM_max }
if (R_sum > 0) { stats data using 'peak_pulse_rate_hz' nooutput name 'RM'; rmax = RM_max }

pulses = '#2ca02c'
rate = '#9467bd'
subtitle = provenance(data)
set title 'Haptic pulses against ' . key(xcol) . (subtitle ne '' ? "\n" . subtitle : '')
set xlabel xlabel
set xrange [X_min - pad:X_max + pad]
set ylabel 'pulses per completed hold (mean)' textcolor rgb pulses
set yrange [0:(pmax > 0 ? 1.1 * pmax : 1)]
set ytics textcolor rgb pulses nomirror
set y2label 'peak pulse rate (Hz)' textcolor rgb rate
set y2range [0:(rmax > 0 ? 1.1 * rmax : 1)]
set y2tics textcolor rgb rate
set grid xtics ytics
set key top right
if (!categorical && X_min == 0) { set label 1 'threshold 0: no progress pulses' at first 0, graph 0.04 offset 1, 0 left textcolor rgb '#555555' }

series = ''
if (PON_sum > 0) { series = series . "data using (xat(0)):(on('pulses_mean')) with " . joined . " lw 2 pt 7 ps 0.9 lc rgb pulses title 'pulses per completed hold', " }
if (POFF_sum > 0) { series = series . "data using (xat(0)):(off('pulses_mean')) with points pt 7 ps 0.9 lc rgb pulses " . (PON_sum > 0 ? "notitle" : "title 'pulses per completed hold'") . ", " }
if (RON_sum > 0) { series = series . "data using (xat(0)):(on('peak_pulse_rate_hz')) axes x1y2 with " . joined . " lw 2 pt 5 ps 0.9 dt 2 lc rgb rate title 'peak pulse rate (right axis)', " }
if (ROFF_sum > 0) { series = series . "data using (xat(0)):(off('peak_pulse_rate_hz')) axes x1y2 with points pt 5 ps 0.9 lc rgb rate " . (RON_sum > 0 ? "notitle" : "title 'peak pulse rate (right axis)'") . ", " }
if (series eq '') { series = "NaN notitle, "; unset key; set label 2 'no completed holds: no pulse data' at graph 0.5, graph 0.62 center front }
eval 'plot ' . series[1:strlen(series)-2]

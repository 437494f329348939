# Completion against false activations as gesture.minimumDuration grows (from a `holdlab sweep` CSV): the share of
# people who meant to confirm and did (left axis) and the share of accidental touches that fired the action (right
# axis), each with its 95 % Wilson confidence band.
#
#   holdlab sweep --profile hig-linear-bar --vary gesture.minimumDuration=0.3:1.5:0.1 --out rates.csv
#   holdlab plot rates-vs-duration --data rates.csv --out rates-vs-duration.png
#   gnuplot -e "data='rates.csv'; out='rates-vs-duration.png'" Notebooks/rates-vs-duration.gp
#
# Variables: data (the sweep CSV), out (.png or .svg), x (the swept column on the x axis; default
# 'param_gesture_minimumDuration'), xlabel (default: the key path and its unit), style ('classic', the default:
# HoldLab 0.1.0's figure; 'slide': 1920×1080 on white, points with their intervals and no joining lines, so a cliff
# between two points is not drawn as a slope, each completion rate printed at its point), headline (slide: the title).
if (!exists("data")) data = 'rates.csv'
if (!exists("style")) style = 'classic'
slide = style eq 'slide'
if (!exists("out")) out = 'rates-vs-duration.png'
if (!exists("x")) x = 'param_gesture_minimumDuration'
# Inside plot commands `x` is gnuplot's dummy variable, so the column name is kept under another name.
xcol = x
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot's own errors never reach the screen for a wrong file.
_need = xcol . ' completion_rate completion_rate_lo completion_rate_hi false_activation_rate false_activation_rate_lo false_activation_rate_hi'
_writer = 'holdlab sweep --vary gesture.minimumDuration=0.3:1.5:0.1 --out rates.csv'
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
    if (slide) { set terminal svg size 1920,1080 dynamic noenhanced font 'Sans,22' background rgb 'white' } else { set terminal svg size 960,540 dynamic noenhanced font 'Sans,12' }
} else {
    if (slide) { set terminal pngcairo size 1920,1080 noenhanced font 'Sans,20' background rgb 'white' } else { set terminal pngcairo size 960,540 noenhanced font 'Sans,11' }
}
set output out
# The provenance footer: footer.gpi beside this script.
_notebooks = (exists("ARG0") && strstrt(ARG0, '/') > 0) ? system("dirname '" . ARG0 . "'") : 'Notebooks'
# A script copied out of its folder draws no footer.
if (system("[ -f '" . _notebooks . "/footer.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/footer.gpi' }
set datafile separator comma
set datafile missing 'NaN'

# 'param_gesture_minimumDuration' -> 'gesture.minimumDuration (s)'.
dots(s) = (_u = strstrt(s, '_')) > 0 ? s[1:_u-1] . '.' . dots(s[_u+1:]) : s
leaf(s) = (_d = strstrt(s, '.')) > 0 ? leaf(s[_d+1:]) : s
seconds(l) = l eq 'minimumDuration' || l eq 'duration' || l eq 'delay' || l eq 'offset' || l eq 'minInterval' || l eq 'tick'
unit(k) = seconds(leaf(k)) ? ' (s)' : leaf(k) eq 'maximumDistance' ? ' (pt)' : leaf(k) eq 'refreshRate' ? ' (Hz)' : (leaf(k) eq 'threshold' || leaf(k) eq 'resolution') ? ' (progress 0–1)' : ''
key(c) = strlen(c) > 6 && c[1:6] eq 'param_' ? dots(c[7:]) : c
if (!exists("xlabel")) xlabel = key(xcol) . unit(key(xcol))
# What the sweep ran, from its provenance lines ('' when they are missing).
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
stats data using (known('completion_rate') ? 1 : 0) nooutput name 'C'
stats data using (known('completion_rate_lo') && known('completion_rate_hi') ? 1 : 0) nooutput name 'CB'
stats data using (known('false_activation_rate') ? 1 : 0) nooutput name 'F'
stats data using (known('false_activation_rate_lo') && known('false_activation_rate_hi') ? 1 : 0) nooutput name 'FB'
fmax = 0
if (FB_sum > 0) { stats data using (100 * column('false_activation_rate_hi')) nooutput name 'FH'; fmax = FH_max }
if (F_sum > 0) { stats data using (100 * column('false_activation_rate')) nooutput name 'FM'; fmax = FM_max > fmax ? FM_max : fmax }

completion = '#1f77b4'
falseActivation = '#d62728'
subtitle = provenance(data)
set title 'Completion and false activations against ' . key(xcol) . (subtitle ne '' ? "\n" . subtitle : '')
set xlabel xlabel
set xrange [X_min - pad:X_max + pad]
set ylabel 'completion rate (% of people who meant to confirm)' textcolor rgb completion
set yrange [0:100]
set format y '%g%%'
set ytics 10 textcolor rgb completion nomirror
set y2label 'false activation rate (% of accidental touches)' textcolor rgb falseActivation
set y2range [0:(fmax > 0 ? 1.15 * fmax : 1)]
set format y2 '%g%%'
set y2tics textcolor rgb falseActivation
set grid xtics ytics
set key outside bottom center horizontal
set style fill transparent solid 0.2 noborder

if (slide) {
    # Points with their 95 % intervals, never joined: the sweep says nothing about the values between its points.
    set title (exists("headline") ? headline : 'Completion and false activations against ' . key(xcol)) . (subtitle ne '' ? "\n" . subtitle : '') font ',26'
    set key outside bottom center horizontal font ',20'
    set yrange [0:108]
    series = ''
    if (CB_sum > 0) { series = series . "data using (xat(0)):(100 * column('completion_rate')):(100 * column('completion_rate_lo')):(100 * column('completion_rate_hi')) with yerrorbars lw 3 pt 7 ps 2 lc rgb completion title 'completion rate (95 % Wilson interval)', " }
    if (C_sum > 0) { series = series . "data using (xat(0)):(100 * column('completion_rate')):(sprintf('%.1f %%', 100 * column('completion_rate'))) with labels offset char 0, 1.4 font ',18' tc rgb completion notitle, " }
    if (FB_sum > 0) { series = series . "data using (xat(0)):(100 * column('false_activation_rate')):(100 * column('false_activation_rate_lo')):(100 * column('false_activation_rate_hi')) axes x1y2 with yerrorbars lw 3 pt 5 ps 2 lc rgb falseActivation title 'false activation rate, right axis (95 % Wilson interval)', " }
    if (series eq '') { series = "NaN notitle, "; unset key; set label 1 'no completion or false activation data' at graph 0.5, graph 0.62 center front }
    eval 'plot ' . series[1:strlen(series)-2]
} else {
series = ''
# Categories get intervals, not bands: a band between two names says nothing.
if (CB_sum > 0 && categorical) { series = series . "data using (xat(0)):(100 * column('completion_rate')):(100 * column('completion_rate_lo')):(100 * column('completion_rate_hi')) with yerrorbars lw 2 pt 7 ps 0.8 lc rgb completion title 'completion rate (95 % Wilson interval)', " }
if (CB_sum > 0 && !categorical) { series = series . "data using (xat(0)):(100 * column('completion_rate_lo')):(100 * column('completion_rate_hi')) with filledcurves lc rgb completion title 'completion, 95 % Wilson band', " }
if (C_sum > 0 && !(categorical && CB_sum > 0)) { series = series . "data using (xat(0)):(100 * column('completion_rate')) with " . joined . " lw 2 pt 7 ps 0.8 lc rgb completion title 'completion rate', " }
if (FB_sum > 0 && categorical) { series = series . "data using (xat(0)):(100 * column('false_activation_rate')):(100 * column('false_activation_rate_lo')):(100 * column('false_activation_rate_hi')) axes x1y2 with yerrorbars lw 2 pt 5 ps 0.8 lc rgb falseActivation title 'false activation rate, right axis (95 % Wilson interval)', " }
if (FB_sum > 0 && !categorical) { series = series . "data using (xat(0)):(100 * column('false_activation_rate_lo')):(100 * column('false_activation_rate_hi')) axes x1y2 with filledcurves lc rgb falseActivation title 'false activation, 95 % Wilson band', " }
if (F_sum > 0 && !(categorical && FB_sum > 0)) { series = series . "data using (xat(0)):(100 * column('false_activation_rate')) axes x1y2 with " . joined . " lw 2 pt 5 ps 0.8 lc rgb falseActivation title 'false activation rate (right axis)', " }
if (series eq '') { series = "NaN notitle, "; unset key; set label 1 'no completion or false activation data' at graph 0.5, graph 0.62 center front }
eval 'plot ' . series[1:strlen(series)-2]
}

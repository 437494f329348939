# Fill curves of several profiles on one plot (from `holdlab trace` CSVs): progress against time after touch-down,
# a dot where each profile's action fires and an open square at the first frame that looks full. A square before
# its dot is a mismatch: the bar looks full and nothing happens yet.
#
#   holdlab trace --profile hig-linear-bar --out bar.csv
#   holdlab trace --profile mismatched-fill --out mismatched.csv
#   holdlab trace --profile kikocard-accelerating --out kiko.csv
#   holdlab plot fill-curves --data bar.csv mismatched.csv kiko.csv --out fill-curves.png
#   gnuplot -e "data='bar.csv mismatched.csv kiko.csv'; out='fill-curves.png'" Notebooks/fill-curves.gp
#
# Variables: data (trace CSVs separated by spaces), out (.png or .svg), progress (the column drawn:
# 'model_progress', the default, or 'displayed_progress'), titles (optional: one title per file, space-separated). Each curve is titled by the profile named on the file's
# '# profile:' line, plus any simple --set overrides from its '# command:' line; the file's name without .csv if
# it has no profile line. style: 'classic' (the default, HoldLab 0.1.0's figure) or 'slide' (1920×1080 on white,
# each curve named where its action fires instead of a legend); headline (slide: the title, a takeaway sentence).
if (!exists("data")) data = 'trace.csv'
if (!exists("style")) style = 'classic'
slide = style eq 'slide'
if (!exists("out")) out = 'fill-curves.png'
if (!exists("progress")) progress = 'model_progress'
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot's own errors never reach the screen for a wrong file.
_need = 't_ms event ' . progress
_writer = 'holdlab trace --profile NAME --out NAME.csv (one per profile)'
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
    if (slide) { set terminal svg size 1920,1080 dynamic noenhanced font 'Sans,22' background rgb 'white' } else { set terminal svg size 1120,560 dynamic noenhanced font 'Sans,12' }
} else {
    if (slide) { set terminal pngcairo size 1920,1080 noenhanced font 'Sans,20' background rgb 'white' } else { set terminal pngcairo size 1120,560 noenhanced font 'Sans,11' }
}
set output out
# The provenance footer: footer.gpi beside this script.
_notebooks = (exists("ARG0") && strstrt(ARG0, '/') > 0) ? system("dirname '" . ARG0 . "'") : 'Notebooks'
# A script copied out of its folder draws no footer.
if (system("[ -f '" . _notebooks . "/footer.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/footer.gpi' }
set datafile separator comma
set datafile missing 'NaN'

# Colours that stay apart for up to eight profiles (then they repeat).
array colours[8] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf']
colour(i) = colours[(i - 1) % 8 + 1]
is(name) = strcol('event') eq name
basename(f) = (_slash = strstrt(f, '/')) > 0 ? basename(f[_slash+1:]) : f
stem(f) = strlen(f) > 4 && f[strlen(f)-3:] eq '.csv' ? f[1:strlen(f)-4] : f
# The profile name and the --set overrides without quotes, read from the provenance lines.
describe(f) = system("awk '/^# profile: / && p == \"\" { p = $3 } /^# command: / { for (i = 3; i < NF; i++) if ($i == \"--set\" && $(i+1) !~ /['\\''\"]/) s = s \" \" $(i+1) } END { if (p != \"\") print p s }' '" . f . "' 2>/dev/null")
name(f) = (_described = describe(f), _described ne '' ? _described : stem(basename(f)))
# `titles` (optional): one title per file, separated by spaces, instead of the provenance.
# A title goes into a double-quoted string of the plot command built below and run by eval: its backslashes, double
# quotes and backquotes are escaped (a title a"b broke the command; a backquoted title ran as a shell command, as
# gnuplot runs a backquoted text in a double-quoted string, in this script too: hence "\`" for the character).
_escaped(s, c) = (_e = strstrt(s, c), _e == 0 ? s : s[1:_e-1] . "\\" . c . _escaped(s[_e+1:], c))
title_of(f, i) = _escaped(_escaped(_escaped(exists("titles") && words(titles) >= i ? word(titles, i) : name(f), "\\"), "\""), "\`")

# One pass per file: the ranges, and whether it has a trigger and a full frame (an empty series makes gnuplot warn).
n = words(data)
array triggers[n]
array fulls[n]
tmax = 0; pmin = 0; pmax = 1
do for [i = 1:n] {
    f = word(data, i)
    stats f using 't_ms':progress nooutput name 'S'
    tmax = S_max_x > tmax ? S_max_x : tmax
    pmin = S_min_y < pmin ? S_min_y : pmin
    pmax = S_max_y > pmax ? S_max_y : pmax
    stats f using (is('trigger') ? 1 : 0) nooutput name 'T'
    triggers[i] = T_sum
    stats f using (is('displayed_full') ? 1 : 0) nooutput name 'F'
    fulls[i] = F_sum
}

set title (progress eq 'displayed_progress' ? 'Fill curves: what the screen shows' : 'Fill curves: the model''s progress')
set xlabel 'time after touch-down (ms)'
set ylabel (progress eq 'displayed_progress' ? 'displayed progress (0–1)' : 'model progress (0–1)')
set xrange [0:tmax]
set yrange [pmin - 0.05:pmax + 0.08]
set ytics 0.25
set grid
set key outside right top Left reverse spacing 1.15
set arrow from 0, 1 to tmax, 1 nohead dt 3 lc rgb '#888888'

if (slide) {
    # Each curve named at the dot where its action fires (or at its end), the markers explained in the title.
    unset key
    set yrange [pmin - 0.05:pmax + 0.1 + 0.07 * n]
    set title (exists("headline") ? headline : 'Fill curves') . "\n" . '(a dot: the action fires; a square: the bar first looks full)' font ',26'
    series = ''
    do for [i = 1:n] {
        f = word(data, i)
        series = series . sprintf("'%s' using 't_ms':progress with lines lw 4 lc rgb '%s' notitle, ", f, colour(i))
        if (triggers[i] > 0) {
            series = series . sprintf("'%s' using 't_ms':(is('trigger') ? column(progress) : NaN) with points pt 7 ps 2.4 lc rgb '%s' notitle, ", f, colour(i))
            # Joined, not one sprintf: gnuplot 5.4's sprintf repeats a %% piece once its output outgrows its first
            # buffer (a 56-character design name made the label's format '%s: action at %s: action at …' and failed).
            series = series . "'" . f . "' using 't_ms':(is('trigger') ? column(progress) : NaN):(sprintf('%s: action at %.0f ms', \"" . title_of(f, i) . "\", column('t_ms'))) with labels left offset char 1.5, " . sprintf("%.1f", -1.3 * i) . " font ',20' tc rgb '" . colour(i) . "' notitle, "
        }
        if (fulls[i] > 0) {
            series = series . sprintf("'%s' using 't_ms':(is('displayed_full') ? column(progress) : NaN) with points pt 4 ps 3 lw 3 lc rgb '%s' notitle, ", f, colour(i))
            series = series . "'" . f . "' using 't_ms':(is('displayed_full') ? column(progress) : NaN):(sprintf('full at %.0f ms', column('t_ms'))) with labels right offset char -1.5, " . sprintf("%.1f", 1.3 * i) . " font ',18' tc rgb '" . colour(i) . "' notitle, "
        }
    }
    eval 'plot ' . series[1:strlen(series)-2]
} else {
series = ''
do for [i = 1:n] {
    f = word(data, i)
    series = series . sprintf("'%s' using 't_ms':progress with lines lw 2 lc rgb '%s' title \"%s\", ", f, colour(i), title_of(f, i))
    if (triggers[i] > 0) {
        series = series . sprintf("'%s' using 't_ms':(is('trigger') ? column(progress) : NaN) with points pt 7 ps 1.1 lc rgb '%s' notitle, ", f, colour(i))
    }
    if (fulls[i] > 0) {
        series = series . sprintf("'%s' using 't_ms':(is('displayed_full') ? column(progress) : NaN) with points pt 4 ps 1.8 lw 2 lc rgb '%s' notitle, ", f, colour(i))
    }
}
series = series . "keyentry with points pt 7 ps 1.1 lc rgb 'black' title 'action fires', "
series = series . "keyentry with points pt 4 ps 1.8 lw 2 lc rgb 'black' title 'first frame full'"
eval 'plot ' . series
}

# One hold frame by frame (from `holdlab trace`): the model's progress, what the screen showed, haptic pulses,
# and when the action fired and the bar first looked full.
#
#   holdlab trace --profile hig-linear-bar --release-at 0.6 --out trace.csv
#   holdlab plot trace --data trace.csv --out trace.png
#   gnuplot -e "data='trace.csv'; out='trace.png'" Notebooks/trace.gp        (out may end in .svg)
if (!exists("data")) data = 'trace.csv'
if (!exists("out")) out = 'trace.png'
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot's own errors never reach the screen for a wrong file.
_need = 't_ms model_progress displayed_progress pulses event'
_writer = 'holdlab trace --out trace.csv'
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
}
if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 960,540 dynamic font 'Sans,12'
} else {
    set terminal pngcairo size 960,540 font 'Sans,11'
}
set output out
# The provenance footer: footer.gpi beside this script.
_notebooks = (exists("ARG0") && strstrt(ARG0, '/') > 0) ? system("dirname '" . ARG0 . "'") : 'Notebooks'
# A script copied out of its folder draws no footer.
if (system("[ -f '" . _notebooks . "/footer.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/footer.gpi' }
set datafile separator comma
set datafile missing 'NaN'
set xlabel 'time after touch-down (ms)'
set ylabel 'progress'
set yrange [-0.25:1.15]
set key outside right top
set grid
is(name) = strcol('event') eq name
# Count each kind of event first: a series with no points would make gnuplot warn.
stats data using (is('pulse') || is('completion_pulse') ? 1 : 0) nooutput name 'PULSES'
stats data using (is('trigger') ? 1 : 0) nooutput name 'TRIGGER'
stats data using (is('displayed_full') ? 1 : 0) nooutput name 'FULL'
stats data using (is('release') ? 1 : 0) nooutput name 'RELEASE'
series = "data using 't_ms':'model_progress' with lines lw 2 lc rgb '#1f77b4' title 'model'"
series = series . ", data using 't_ms':(is('frame') ? column('displayed_progress') : NaN) with points pt 7 ps 0.35 lc rgb '#ff7f0e' title 'displayed (frames)'"
if (PULSES_sum > 0) series = series . ", data using 't_ms':(is('pulse') || is('completion_pulse') ? column('model_progress') : NaN) with points pt 9 ps 1 lc rgb '#2ca02c' title 'pulse'"
if (TRIGGER_sum > 0) series = series . ", data using 't_ms':(is('trigger') ? 1.1 : NaN):(0):(-1.1) with vectors nohead dt 2 lw 2 lc rgb '#d62728' title 'action fires'"
if (FULL_sum > 0) series = series . ", data using 't_ms':(is('displayed_full') ? 1.05 : NaN) with points pt 5 ps 1.2 lc rgb '#9467bd' title 'first displayed full'"
if (RELEASE_sum > 0) series = series . ", data using 't_ms':(is('release') ? 1.1 : NaN):(0):(-1.1) with vectors nohead dt 3 lw 1 lc rgb 'black' title 'release'"
eval 'plot ' . series

# How far a review's verdict rests on the people assumed (from a `holdlab report` robustness.csv): one panel per
# behaviour assumption, the decision's margin (points, or ms for a mean) against the assumption's value, one line
# per population; a value where the verdict changes is drawn as a cross on the zero line, the assumed value as an
# open circle. Opaque white background, 1920×1080 (a 16:9 slide).
#
#   holdlab report --profile hig-linear-bar --variant fast="fill.duration=0.6 gesture.minimumDuration=0.8" --out review
#   holdlab plot robustness-margin --data review/robustness.csv --out margin.png
#   gnuplot -e "data='review/robustness.csv'; out='margin.png'" Notebooks/robustness-margin.gp
#
# Variables: data (robustness.csv), out (.png or .svg).
if (!exists("data")) data = 'robustness.csv'
if (!exists("out")) out = 'robustness-margin.png'
_need = 'panel assumption key_path population value assumed holds margin'
_writer = 'holdlab report … --out review (review/robustness.csv)'
# One CSV: several --data files are for fill-curves and retract-rules (a name with spaces is several words here).
if (words(data) != 1) { print sprintf("this notebook draws one CSV (%d given); run it once per file, or plot several with fill-curves or retract-rules", words(data)); exit status 65 }
if (system("[ -f '" . data . "' ] && [ -r '" . data . "' ] && echo yes") ne 'yes') { print sprintf("%s: cannot read the file; this notebook reads a CSV written by: %s", data, _writer); exit status 65 }
_h = system("awk '!/^#/ && NF { print; exit }' '" . data . "' 2>/dev/null")
_missing = ''
do for [_c in _need] {
    if (strstrt(',' . _h . ',', ',' . _c . ',') == 0) { _missing = _missing . (_missing eq '' ? '' : ', ') . _c }
}
if (_missing ne '') { print sprintf("%s: missing column(s) %s; this notebook reads a CSV written by: %s", data, _missing, _writer); exit status 65 }
_rows = system("awk '!/^#/ && NF { n++ } END { print (n > 0 ? n - 1 : 0) }' '" . data . "' 2>/dev/null") + 0
if (_rows == 0) { print sprintf("%s: no data rows; this notebook reads a CSV written by: %s", data, _writer); exit status 65 }

if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 1920,1080 dynamic noenhanced font 'Sans,16' background rgb 'white'
} else {
    set terminal pngcairo size 1920,1080 noenhanced font 'Sans,15' background rgb 'white'
}
set output out
_notebooks = (exists("ARG0") && strstrt(ARG0, '/') > 0) ? system("dirname '" . ARG0 . "'") : 'Notebooks'
if (system("[ -f '" . _notebooks . "/footer.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/footer.gpi' }
set datafile separator comma
set datafile missing 'NaN'

# The CSV's columns by position (awk reads the header), so that text columns with commas inside quotes are not
# needed: assumption names and populations hold none.
_col(name) = system("awk -F, '!/^#/ && NF { for (i = 1; i <= NF; i++) if ($i == \"" . name . "\") print i; exit }' '" . data . "'") + 0
cPanel = _col('panel'); cName = _col('assumption'); cKey = _col('key_path'); cPop = _col('population')
cValue = _col('value'); cAssumed = _col('assumed'); cHolds = _col('holds'); cMargin = _col('margin'); cUnit = _col('unit')
panels = system("awk -F, '!/^#/ && NF { if (h++) { if ($" . cPanel . " > n) n = $" . cPanel . " } } END { print n + 0 }' '" . data . "'") + 0
populations = system("awk -F, '!/^#/ && NF { if (h++ && !s[$" . cPop . "]++) printf \"%s \", $" . cPop . " }' '" . data . "'")
title(p) = system("awk -F, '!/^#/ && NF { if (h++ && $" . cPanel . " == " . p . ") { print $" . cName . " \" (\" $" . cUnit . " \")\"; exit } }' '" . data . "'")
colours = '#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b'

# Rows of panel p and population `pop` of one kind: held (the verdict stands, margin drawn), flipped, assumed.
count(p, pop, kind) = system("awk -F, '!/^#/ && NF { if (h++ && $" . cPanel . " == " . p . " && $" . cPop . " == \"" . pop . "\" && (\"" . kind . "\" == \"held\" ? $" . cHolds . " == \"true\" && $" . cMargin . " != \"NaN\" : \"" . kind . "\" == \"flipped\" ? $" . cHolds . " != \"true\" : $" . cAssumed . " == \"true\" && $" . cMargin . " != \"NaN\")) n++ } END { print n + 0 }' '" . data . "'") + 0
# The panel's margins and values, to give every panel a y range that includes 0 and an x range with room.
limits(p) = system("awk -F, 'function lo(a, b) { return a < b ? a : b } function hi(a, b) { return a > b ? a : b } !/^#/ && NF { if (h++ && $" . cPanel . " == " . p . ") { if (!n++) { x0 = x1 = $" . cValue . "; y0 = y1 = 0 } x0 = lo(x0, $" . cValue . "); x1 = hi(x1, $" . cValue . "); if ($" . cMargin . " != \"NaN\") { y0 = lo(y0, $" . cMargin . "); y1 = hi(y1, $" . cMargin . ") } } } END { print x0 + 0, x1 + 0, y0 + 0, y1 + 0 }' '" . data . "'")

cols = panels <= 3 ? panels : (panels <= 4 ? 2 : 3)
rows = int((panels + cols - 1) / cols)
# Screen margins leave the bottom 5 % to the provenance footer (multiplot ignores footer.gpi's origin and size).
# The margin's unit, the preferred metric's, from the file's `# margin_unit:` line (points before 0.3.11's files said).
_unit = system("awk '/^# margin_unit: / { print $3; exit }' '" . data . "' 2>/dev/null")
if (_unit eq '') _unit = 'points'
set multiplot layout rows, cols title sprintf("The verdict's margin against each assumption about people (%s; × where the verdict changes, ○ the assumed value)", _unit) margins 0.05, 0.98, 0.08, 0.91 spacing 0.06, 0.11
set grid ytics xtics
set xzeroaxis lt -1 lw 1
set key bottom right font ',12' opaque
set ylabel sprintf('margin (%s)', _unit)
do for [p = 1:panels] {
    set title title(p)
    _l = limits(p)
    _x0 = word(_l, 1) + 0.0; _x1 = word(_l, 2) + 0.0; _y0 = word(_l, 3) + 0.0; _y1 = word(_l, 4) + 0.0
    _dx = _x1 > _x0 ? 0.05 * (_x1 - _x0) : (_x0 != 0 ? 0.1 * abs(_x0) : 1)
    _dy = _y1 > _y0 ? 0.1 * (_y1 - _y0) : 1
    set xrange [_x0 - _dx:_x1 + _dx]
    set yrange [_y0 - _dy:_y1 + _dy]
    series = ''
    do for [i = 1:words(populations)] {
        _pop = word(populations, i)
        _c = word(colours, (i - 1) % 6 + 1)
        if (count(p, _pop, 'held') > 0) { series = series . sprintf("data using (column(cPanel) == %d && strcol(cPop) eq '%s' && strcol(cHolds) eq 'true' ? column(cValue) : NaN):(column(cMargin)) with linespoints lw 3 pt 7 ps 1.2 lc rgb '%s' title '%s', ", p, _pop, _c, _pop) }
        if (count(p, _pop, 'flipped') > 0) { series = series . sprintf("data using (column(cPanel) == %d && strcol(cPop) eq '%s' && strcol(cHolds) ne 'true' ? column(cValue) : NaN):(0) with points pt 2 ps 2.5 lw 3 lc rgb '%s' notitle, ", p, _pop, _c) }
        if (count(p, _pop, 'assumed') > 0) { series = series . sprintf("data using (column(cPanel) == %d && strcol(cPop) eq '%s' && strcol(cAssumed) eq 'true' ? column(cValue) : NaN):(column(cMargin)) with points pt 6 ps 2.5 lw 2 lc rgb '%s' notitle, ", p, _pop, _c) }
    }
    if (series eq '') { series = "NaN notitle, " }
    eval 'plot ' . series[1:strlen(series)-2]
}
unset multiplot

# Which parameters matter: Sobol' indices from `holdlab sensitivity --method sobol`, one panel per metric. Each
# parameter has a pair of horizontal bars, first-order S1 (the share of the metric's variance the parameter explains
# alone) and total ST (alone and through interactions), each with its bootstrap 95 % interval as an error bar.
# ST well above S1 means the parameter acts through interactions; an ST interval that reaches 0 means the parameter
# does not measurably move the metric over the ranges given. Parameters are listed top down in --vary order.
#
#   holdlab sensitivity --method sobol --points 64 --users 2000 --vary gesture.minimumDuration=0.4:1.5 --vary trigger.offset=0:0.3 --vary fill.delay=0:0.3 --vary haptics.threshold=0:0.1 --out indices.csv
#   holdlab plot sensitivity --data indices.csv --out sensitivity.png
#   gnuplot -e "data='indices.csv'; out='sensitivity.png'" Notebooks/sensitivity.gp
#
# Variables: data (the index CSV of holdlab sensitivity --method sobol), out (.png or .svg), metrics (the metrics
# drawn, separated by spaces; default every metric in the file, in its order).
if (!exists("data")) data = 'indices.csv'
if (!exists("out")) out = 'sensitivity.png'
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot's own errors never reach the screen for a wrong file.
_need = 'metric parameter S1 S1_lo S1_hi ST ST_lo ST_hi'
_writer = 'holdlab sensitivity --method sobol --vary gesture.minimumDuration=0.4:1.5 --vary haptics.threshold=0:0.1 --out indices.csv'
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

# awk reads the index CSV (metric and parameter names hold no commas or quotes) and writes gnuplot: NM and M[1..NM]
# the metrics in file order (or those of `metrics`), NP and P[1..NP] the parameters in file order, and the
# datablock $IDX: metric number, parameter number, S1, S1_lo, S1_hi, ST, ST_lo, ST_hi.
if (!exists("metrics")) metrics = ''
index_awk = 'BEGIN { FS = ","; q = sprintf("%c", 39); nw = split(want, w, " "); for (i = 1; i <= nw; i++) wanted[w[i]] = i }' . \
    ' { sub(/\r$/, "") } /^#/ || /^[ \t]*$/ { next }' . \
    ' !seen { seen = 1; for (i = 1; i <= NF; i++) col[$i] = i; next }' . \
    ' { m = $col["metric"]; p = $col["parameter"];' . \
    '   if (nw > 0 && !(m in wanted)) next;' . \
    '   if (!(m in mi)) { mi[m] = ++nm; mn[nm] = m } if (!(p in pi)) { pi[p] = ++np; pn[np] = p }' . \
    '   line[++rows] = mi[m] " " pi[p] " " $col["S1"] " " $col["S1_lo"] " " $col["S1_hi"] " " $col["ST"] " " $col["ST_lo"] " " $col["ST_hi"] }' . \
    ' END { printf "NM = %d\nNP = %d\narray M[%d]\narray P[%d]\n", nm, np, (nm > 0 ? nm : 1), (np > 0 ? np : 1);' . \
    '   for (i = 1; i <= nm; i++) printf "M[%d] = %s%s%s\n", i, q, mn[i], q;' . \
    '   for (i = 1; i <= np; i++) printf "P[%d] = %s%s%s\n", i, q, pn[i], q;' . \
    '   print "$IDX << EOD"; for (r = 1; r <= rows; r++) print line[r]; print "EOD" }'
NM = 0; NP = 0
load "< awk -v want='" . metrics . "' '" . index_awk . "' '" . data . "'"
if (NM == 0) { print sprintf("%s: none of the metrics '%s' is in the file", data, metrics); exit status 65 }

# The provenance of the run: the profile, population, users and design from the file's '# sweep_…' and
# '# sensitivity_design' lines (a subtitle, as the sweep notebooks have).
provenance(f) = system("awk '/^# sweep_profile: / { p = $3 } /^# sweep_population: / { q = $3 } /^# sweep_users: / { u = $3 } /^# sensitivity_design: / { if (match($0, /[0-9]+ simulations/)) d = substr($0, RSTART, RLENGTH) } END { if (p != \"\") printf \"%s × %s population, %s users per point, %s\", p, (q == \"\" ? \"?\" : q), u, d }' '" . f . "' 2>/dev/null")

set datafile missing 'NaN'
stats $IDX using 4 nooutput name 'LO1'
stats $IDX using 7 nooutput name 'LO2'
stats $IDX using 5 nooutput name 'HI1'
stats $IDX using 8 nooutput name 'HI2'
xmin = LO1_min < LO2_min ? LO1_min : LO2_min
xmax = HI1_max > HI2_max ? HI1_max : HI2_max
xmin = xmin < 0 ? floor(xmin * 10) / 10.0 : 0
xmax = xmax > 1 ? ceil(xmax * 10) / 10.0 : 1

panel = 75 + 34 * NP
height = 110 + NM * panel
if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 900,height dynamic noenhanced font 'Sans,12'
} else {
    set terminal pngcairo size 900,height noenhanced font 'Sans,11'
}
set output out

s1colour = '#3b528b'
stcolour = '#5ec962'
set style fill solid 0.85 noborder
set xrange [xmin:xmax]
set yrange [NP + 0.6:0.4]
set ytics nomirror
set xtics nomirror
set grid xtics lc rgb '#dddddd'
set xzeroaxis lt 1 lc rgb '#888888'
set ytics ()
do for [i = 1:NP] { set ytics add (P[i] i) }
set key at screen 0.95, screen 1 - 58.0 / height right top horizontal
half = 0.17
# The provenance footer as every notebook draws it (provenance.awk beside this script, from the data's '#' lines),
# set on the last panel only; footer=0 (holdlab plot --no-footer) leaves it out.
_notebooks = (exists("ARG0") && strstrt(ARG0, '/') > 0) ? system("dirname '" . ARG0 . "'") : 'Notebooks'
if (!exists("footer")) { footer = 1 }
footer_text = ''
if (footer && system("[ -f '" . _notebooks . "/provenance.awk' ] && echo yes") eq 'yes') {
    footer_text = system("awk -f '" . _notebooks . "/provenance.awk' " . data . " 2>/dev/null")
}
# Bars: S1 just above each parameter's line, ST just below; intervals as error bars on the bars' ends.
set multiplot layout NM, 1 title 'Sobol'' indices: first order S1 and total ST, bootstrap 95 % intervals' . "\n" . provenance(data) margins 0.3, 0.95, 70.0 / height, 1 - 90.0 / height spacing 0, 75.0 / height
do for [m = 1:NM] {
    set label 1 M[m] at graph 0, graph 1 offset 0, 0.8 left font ',13'
    if (m == NM) {
        set xlabel 'share of the metric''s variance'
        if (footer_text ne '') { set label 99 footer_text at screen 0.006, screen 0.016 left front font ',8' textcolor rgb '#707070' noenhanced }
    } else { unset xlabel }
    plot $IDX using ($1 == m ? $3 / 2 : NaN):($2 - half):($3 / 2 < 0 ? -$3 / 2 : $3 / 2):(half * 0.9) with boxxyerror lc rgb s1colour title (m == 1 ? 'S1' : ''), \
         $IDX using ($1 == m ? $6 / 2 : NaN):($2 + half):($6 / 2 < 0 ? -$6 / 2 : $6 / 2):(half * 0.9) with boxxyerror lc rgb stcolour title (m == 1 ? 'ST' : ''), \
         $IDX using ($1 == m ? $3 : NaN):($2 - half):4:5 with xerrorbars lc rgb '#222222' pt -1 notitle, \
         $IDX using ($1 == m ? $6 : NaN):($2 + half):7:8 with xerrorbars lc rgb '#222222' pt -1 notitle
}
unset multiplot


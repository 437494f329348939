# A one-page scorecard for a 16:9 slide (from a report's scorecard.csv): one row per design and population with its
# completion rate, false activation rate and mean time to confirm (95 % Wilson intervals in brackets), the design's
# guideline results (failures in red), and the review's recommendation as the title when it makes one.
#
#   holdlab report --profile hig-linear-bar --variant fast="fill.duration=0.6" --out review
#   holdlab plot scorecard --data review/scorecard.csv --var 'recommendation=Ship hig-linear-bar' --out scorecard.png
#   gnuplot -e "data='review/scorecard.csv'; out='scorecard.png'" Notebooks/scorecard.gp
#
# Variables: data (the scorecard CSV), out (.png or .svg), recommendation (optional: the title line; without it the
# title asks the question), question (optional: a second title line).
if (!exists("data")) data = 'scorecard.csv'
if (!exists("out")) out = 'scorecard.png'
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot errors never reach the screen for a wrong file.
_need = 'design population completion false_activation time_to_confirm rules rules_failed'
_writer = 'holdlab report --out DIR (DIR/scorecard.csv)'
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
    set terminal svg size 1920,1080 dynamic noenhanced font 'Sans,22' background rgb 'white'
} else {
    set terminal pngcairo size 1920,1080 noenhanced font 'Sans,20' background rgb 'white'
}
set output out
# The provenance footer: footer.gpi beside this script.
_notebooks = (exists("ARG0") && strstrt(ARG0, '/') > 0) ? system("dirname '" . ARG0 . "'") : 'Notebooks'
# A script copied out of its folder draws no footer.
if (system("[ -f '" . _notebooks . "/footer.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/footer.gpi' }
set datafile separator comma
rows = _rows

# A table drawn with labels: x in per cent of the width, row r at y = −r.
unset border
unset tics
unset key
set lmargin at screen 0.03
set rmargin at screen 0.97
set tmargin at screen (exists("question") ? 0.80 : 0.86)
set bmargin at screen 0.08
set xrange [0:100]
set yrange [-(rows - 0.4):1]
_title = exists("recommendation") && recommendation ne '' ? recommendation : 'Scorecard: which design, for which people'
if (exists("question") && question ne '') { _title = _title . "\n" . question }
set title _title font ',30'
x_design = 0; x_population = 14; x_completion = 30; x_false = 48; x_time = 66; x_rules = 77
set label 1 'design' at first x_design, first 0.7 left font ',20' tc rgb '#555555'
set label 2 'people' at first x_population, first 0.7 left font ',20' tc rgb '#555555'
set label 3 "completion\n(95 % CI)" at first x_completion, first 0.8 left font ',20' tc rgb '#555555'
set label 4 "false activation\n(95 % CI)" at first x_false, first 0.8 left font ',20' tc rgb '#555555'
set label 5 "mean time\nto confirm" at first x_time, first 0.8 left font ',20' tc rgb '#555555'
set label 6 "guideline\nrules" at first x_rules, first 0.8 left font ',20' tc rgb '#555555'
set arrow 1 from first 0, first 0.45 to first 100, first 0.45 nohead lc rgb '#333333' lw 2
do for [_r = 1:rows - 1] { set arrow 1 + _r from first 0, first -_r + 0.5 to first 100, first -_r + 0.5 nohead lc rgb '#dddddd' lw 1 }
rule_colour(failed) = failed > 0 ? 0xC62828 : 0x2E7D32
# The header row is the first record: every ::1 leaves it out (the rows then count from 0), and the columns are
# found by their names in it.
row = '(-$0)'
_fields = system("awk -F, '!/^#/ && NF { for (i = 1; i <= NF; i++) printf \"%s \", $i; exit }' '" . data . "'")
col(name) = sum [_k = 1:words(_fields)] (word(_fields, _k) eq name ? _k : 0)
plot data every ::1 using (x_design):@row:(strcol(col('design'))) with labels left font ',24' notitle, \
     '' every ::1 using (x_population):@row:(strcol(col('population'))) with labels left font ',22' notitle, \
     '' every ::1 using (x_completion):@row:(strcol(col('completion'))) with labels left font ',22' notitle, \
     '' every ::1 using (x_false):@row:(strcol(col('false_activation'))) with labels left font ',22' notitle, \
     '' every ::1 using (x_time):@row:(strcol(col('time_to_confirm'))) with labels left font ',22' notitle, \
     '' every ::1 using (x_rules):@row:(strcol(col('rules'))):(rule_colour(column(col('rules_failed')))) with labels left font ',18' tc rgb variable notitle

# Designs side by side (from `holdlab compare --summaries` or a report's designs.csv): each design's completion
# rate (left) and false activation rate (right) in every population, with 95 % Wilson intervals. Points are grouped
# by population, one colour per design.
#
#   holdlab compare --profile hig-linear-bar --variant fast="fill.curve=easeIn fill.duration=0.6" \
#     --population default,motor-impaired --summaries designs.csv --out /dev/null
#   holdlab plot design-rates --data designs.csv --out design-rates.png
#   gnuplot -e "data='designs.csv'; out='design-rates.png'" Notebooks/design-rates.gp
#
# Variables: data (the summaries CSV: a design column, then the simulate columns), out (.png or .svg), style
# ('classic', the default: HoldLab 0.1.0's figure; 'slide': 1920×1080 on white, both panels on one 0–100 % scale,
# each point named under it and its value beside it, no legend), headline (slide: the title, a takeaway sentence).
if (!exists("data")) data = 'designs.csv'
if (!exists("style")) style = 'classic'
slide = style eq 'slide'
if (!exists("out")) out = 'design-rates.png'
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot's own errors never reach the screen for a wrong file.
_need = 'design population completion_rate completion_rate_lo completion_rate_hi false_activation_rate false_activation_rate_lo false_activation_rate_hi'
_writer = 'holdlab compare --profile A --profile B --summaries designs.csv'
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

# The designs and populations in file order (rows come population by population, designs in order).
_column(name) = system("awk -F, '!/^#/ && NF { if (!h) { for (i = 1; i <= NF; i++) if ($i == \"" . name . "\") c = i; h = 1; next } if (!($c in seen)) { seen[$c]; printf \"%s \", $c } }' '" . data . "'")
designs = _column('design')
populations = _column('population')
nd = words(designs)
np = words(populations)
index_of(list, item) = sum [_k = 1:words(list)] (word(list, _k) eq item ? _k : 0)
# x: the population's group, then the design's slot within it.
xpos(p, d) = index_of(populations, p) - 1 + (index_of(designs, d) - (nd + 1) / 2.0) * (slide ? 0.9 : 0.7) / nd
array colours[8] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf']
do for [i = 1:8] { set linetype i lc rgb colours[i] lw (slide ? 3 : 2) pt 7 ps (slide ? 2 : 1) }
known(c) = column(c) == column(c)
stats data using (known('completion_rate') ? 1 : 0) nooutput name 'C'
stats data using (known('false_activation_rate') ? 1 : 0) nooutput name 'F'
fmax = 1
if (F_sum > 0) { stats data using (known('false_activation_rate_hi') ? 100 * column('false_activation_rate_hi') : 0) nooutput name 'FH'; fmax = FH_max > 0 ? 1.15 * FH_max : 1 }

set xrange [-0.5:np - 0.5]
set xtics () nomirror
do for [i = 1:np] { set xtics add (word(populations, i) i - 1) }
set grid ytics
set format y '%g%%'
set key outside bottom center horizontal
set style fill solid
point(c) = sprintf("data using (xpos(strcol('population'), strcol('design'))):(100 * column('%s')):(100 * column('%s_lo')):(100 * column('%s_hi')):(index_of(designs, strcol('design'))) with yerrorbars lc variable notitle", c, c, c)
# One key entry per design.
keys = ''
do for [i = 1:nd] { keys = keys . sprintf(", keyentry with points lt %d title '%s'", (i - 1) % 8 + 1, word(designs, i)) }

if (slide) {
    # Each point named under it (x tics), its population under its group, its value beside it; one 0–100 % scale.
    unset key
    set xtics () nomirror font ',18' offset 0,0.3
    do for [_p = 1:np] {
        do for [_d = 1:nd] { set xtics add (word(designs, _d) xpos(word(populations, _p), word(designs, _d))) }
        set label 20 + _p word(populations, _p) . ' users' at first _p - 1, graph -0.11 center font ',24'
    }
    set bmargin 6
    set yrange [0:108]
    set ytics 0, 20, 100
    set ylabel '% of the people it applies to'
    # Joined, not one sprintf: gnuplot 5.4's sprintf repeats a %% piece once its output outgrows its first buffer.
    numbers(c) = "data using (xpos(strcol('population'), strcol('design'))):(100 * column('" . c . "')):(sprintf('%.1f %%', 100 * column('" . c . "'))) with labels left offset char 1.2, 0 font ',20' notitle"
    set multiplot title (exists("headline") ? headline : 'Completion and false activation per design and population') font ',28'
    set size 0.5, 0.92 - (exists("footer") && footer ? 0.04 : 0)
    set origin 0, (exists("footer") && footer ? 0.04 : 0)
    set title 'Completion: % of people who meant to confirm (95 % Wilson interval)' font ',20'
    if (C_sum > 0) { eval 'plot ' . point('completion_rate') . ', ' . numbers('completion_rate') } else { set label 1 'no intent users' at graph 0.5, graph 0.5 center; plot NaN notitle }
    unset label 1
    unset label 99
    set origin 0.5, (exists("footer") && footer ? 0.04 : 0)
    set title 'False activation: % of accidental touches (95 % Wilson interval)' font ',20'
    if (F_sum > 0) { eval 'plot ' . point('false_activation_rate') . ', ' . numbers('false_activation_rate') } else { set label 1 'no accidental users' at graph 0.5, graph 0.5 center; plot NaN notitle }
    unset multiplot
} else {
set multiplot
# Two panels side by side above the strip of the footer.
bottom = exists("footer") && footer ? 0.04 : 0
set size 0.5, 1 - bottom
set origin 0, bottom
set title 'Completion rate (95 % Wilson interval)'
set ylabel '% of people who meant to confirm'
set yrange [0:105]
if (C_sum > 0) { eval 'plot ' . point('completion_rate') . keys } else { set label 1 'no intent users' at graph 0.5, graph 0.5 center; plot NaN notitle }
unset label 1
unset label 99
set origin 0.5, bottom
set title 'False activation rate (95 % Wilson interval)'
set ylabel '% of accidental touches'
set yrange [0:fmax]
if (F_sum > 0) { eval 'plot ' . point('false_activation_rate') . keys } else { set label 1 'no accidental users' at graph 0.5, graph 0.5 center; plot NaN notitle }
unset multiplot
}

# A heat map of one summary column over two swept parameters (from a grid `holdlab sweep` CSV): each cell is one
# point of the sweep, coloured by its value and labelled with it; grey cells have no data (NaN). Rates are shown in
# percent. The axes are categorical: one equal cell per distinct value of x and of y, in numeric order (names, such
# as fill.curve=linear,easeIn, in the order the CSV first lists them), each tic labelled with the value exactly as
# the CSV writes it, so unevenly spaced grids tile without gaps. Made for grids (--design grid, the default); Latin
# hypercube or Sobol points, whose values all differ, come out one cell per row and column.
#
#   holdlab sweep --profile hig-linear-bar --vary gesture.minimumDuration=0.3:1.5:0.1 --vary fill.duration=0.5:1.5:0.1 --out grid.csv
#   holdlab plot heatmap --data grid.csv --out heatmap.png
#   holdlab plot heatmap --data grid.csv --var z=mismatch_p95_ms --out heatmap-mismatch.png
#   holdlab sweep --profile hig-linear-bar --vary fill.curve=linear,easeIn,easeInOut --vary haptics.threshold=0.005,0.01,0.02,0.05 --out curves.csv
#   holdlab plot heatmap --data curves.csv --var x=param_fill_curve --var y=param_haptics_threshold --var z=pulses_mean --out heatmap-curves.png
#   gnuplot -e "data='grid.csv'; out='heatmap.png'; z='completion_rate'" Notebooks/heatmap.gp
#
# Variables: data (the sweep CSV), out (.png or .svg), z (the column coloured; default 'completion_rate'),
# x and y (the swept columns on the axes; default 'param_gesture_minimumDuration' and 'param_fill_duration'),
# xlabel, ylabel, zlabel (default: from the names), labels (1 or 0: print each cell's value; default 1 up to 300
# cells), diverging (1 or 0: a blue–white–red scale centred on 0; default 1 for the mismatch columns, whose sign
# matters).
if (!exists("data")) data = 'grid.csv'
if (!exists("out")) out = 'heatmap.png'
if (!exists("x")) x = 'param_gesture_minimumDuration'
if (!exists("y")) y = 'param_fill_duration'
if (!exists("z")) z = 'completion_rate'
# Inside plot commands `x` and `y` are gnuplot's dummy variables, so the column names are kept under other names.
xcol = x; ycol = y; zcol = z
# Check the data before drawing anything: one line naming the missing columns (or rows) and the command that
# writes such a CSV, exit status 65; gnuplot's own errors never reach the screen for a wrong file.
_need = xcol . ' ' . ycol . ' ' . zcol
_writer = 'holdlab sweep --vary gesture.minimumDuration=0.4:1.2:0.2 --vary fill.duration=0.4:1.2:0.2 --out grid.csv'
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
    # The colour is a number: a z column of names (profile, population) has none (NaN counts, as a missing cell).
    _numbers = system("awk -F, -v c='" . zcol . "' '/^#/ || !NF { next } !k { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { v = $k; if (v + 0 == v || tolower(v) ~ /^[-+]?nan$/) n++ } END { print n + 0 }' '" . _f . "' 2>/dev/null") + 0
    if (_numbers == 0) { print sprintf("%s: column z = %s holds no number in any row; the heatmap colours a numeric column, e.g. --var z=completion_rate", _f, zcol); exit status 65 }
}
if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 980,660 dynamic noenhanced font 'Sans,12'
} else {
    set terminal pngcairo size 980,660 noenhanced font 'Sans,11'
}
set output out
# The provenance footer: footer.gpi beside this script.
_notebooks = (exists("ARG0") && strstrt(ARG0, '/') > 0) ? system("dirname '" . ARG0 . "'") : 'Notebooks'
# A script copied out of its folder draws no footer.
if (system("[ -f '" . _notebooks . "/footer.gpi' ] && echo yes") eq 'yes') { load _notebooks . '/footer.gpi' }
set datafile separator comma
set datafile missing 'NaN'

# 'param_gesture_minimumDuration' -> 'gesture.minimumDuration (s)'; 'mismatch_p95_ms' -> 'mismatch p95 (ms)'.
dots(s) = (_u = strstrt(s, '_')) > 0 ? s[1:_u-1] . '.' . dots(s[_u+1:]) : s
spaces(s) = (_v = strstrt(s, '_')) > 0 ? s[1:_v-1] . ' ' . spaces(s[_v+1:]) : s
leaf(s) = (_d = strstrt(s, '.')) > 0 ? leaf(s[_d+1:]) : s
seconds(l) = l eq 'minimumDuration' || l eq 'duration' || l eq 'delay' || l eq 'offset' || l eq 'minInterval' || l eq 'tick'
unit(k) = seconds(leaf(k)) ? ' (s)' : leaf(k) eq 'maximumDistance' ? ' (pt)' : leaf(k) eq 'refreshRate' ? ' (Hz)' : (leaf(k) eq 'threshold' || leaf(k) eq 'resolution') ? ' (progress 0–1)' : ''
key(c) = strlen(c) > 6 && c[1:6] eq 'param_' ? dots(c[7:]) : c
ends(s, t) = strlen(s) >= strlen(t) && s[strlen(s)-strlen(t)+1:] eq t
isRate = strstrt(zcol, '_rate') > 0 && !ends(zcol, '_hz')
describeZ(c) = ends(c, '_ms') ? spaces(c[1:strlen(c)-3]) . ' (ms)' : ends(c, '_hz') ? spaces(c[1:strlen(c)-3]) . ' (Hz)' : isRate ? spaces(c) . ' (%)' : spaces(c)
if (!exists("xlabel")) xlabel = key(xcol) . unit(key(xcol))
if (!exists("ylabel")) ylabel = key(ycol) . unit(key(ycol))
if (!exists("zlabel")) zlabel = describeZ(zcol)
provenance(f) = system("awk '/^# sweep_profile: / { p = $3 } /^# sweep_population: / { q = $3 } /^# sweep_users: / { u = $3 } END { if (p != \"\") printf \"%s × %s population%s\", p, (q == \"\" ? \"?\" : q), (u == \"\" ? \"\" : \", \" u \" users per point\") }' '" . data . "' 2>/dev/null")
known(c) = column(c) == column(c)
scale = isRate ? 100 : 1
zval(c) = scale * column(c)

# Categorical axes: one equal cell per distinct x value and per distinct y value, so uneven grids and names (e.g.
# fill.curve=linear,easeIn) tile without gaps and each tic reads the value exactly as the CSV has it. awk reads the
# CSV (quoted fields such as "bezier(0.42,0,1,1)" included, which gnuplot's strcol cuts at the comma) and writes
# gnuplot: NX and XV[1..NX], the distinct x values in numeric order (first-seen order unless every value is a
# number; values equal as numbers, such as 1 and 1.0, share a cell), the same for y, and the datablock $HEAT: the
# header and every row whose x and y are set, with two leading columns, the row's x and y cell numbers.
cells_awk = 'function fields(line, f,    n, i, c, inq, cur) {' . \
    ' if (index(line, "\"") == 0) return split(line, f, ",");' . \
    ' split("", f); n = 0; cur = ""; inq = 0;' . \
    ' for (i = 1; i <= length(line); i++) { c = substr(line, i, 1);' . \
    '  if (inq) { if (c != "\"") cur = cur c; else if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else inq = 0 }' . \
    '  else if (c == "\"") inq = 1; else if (c == ",") { f[++n] = cur; cur = "" } else cur = cur c }' . \
    ' f[++n] = cur; return n }' . \
    ' function order(v, n, at, lab,    num, i, j, t, k) {' . \
    ' num = 1; for (i = 1; i <= n; i++) if (v[i] !~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/) num = 0;' . \
    ' if (num) for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] + 0 > t + 0; j--) v[j + 1] = v[j]; v[j + 1] = t }' . \
    ' k = 0; for (i = 1; i <= n; i++) { if (i == 1 || !num || v[i] + 0 != v[i - 1] + 0) lab[++k] = v[i]; at[v[i]] = k }' . \
    ' return k }' . \
    ' function emit(name, lab, k,    i, s) { printf "N%s = %d\n", name, k; printf "array %sV[%d]\n", name, (k > 0 ? k : 1);' . \
    ' for (i = 1; i <= k; i++) { s = lab[i]; gsub(q, q q, s); printf "%sV[%d] = %s%s%s\n", name, i, q, s, q } }' . \
    ' BEGIN { q = sprintf("%c", 39) }' . \
    ' { sub(/\r$/, "") } /^#/ || /^[ \t]*$/ { next }' . \
    ' !seen { seen = 1; head = $0; n = fields($0, f); for (i = 1; i <= n; i++) { if (f[i] == xc) xi = i; if (f[i] == yc) yi = i } next }' . \
    ' { fields($0, f); xv = f[xi]; yv = f[yi];' . \
    '   if (xi && yi && xv != "" && yv != "" && xv != "NaN" && yv != "NaN") {' . \
    '     row[++rows] = $0; rx[rows] = xv; ry[rows] = yv;' . \
    '     if (!(xv in xseen)) { xseen[xv] = 1; xs[++nx] = xv } if (!(yv in yseen)) { yseen[yv] = 1; ys[++ny] = yv } } }' . \
    ' END { printf "XFOUND = %d\nYFOUND = %d\nROWS = %d\n", (xi > 0), (yi > 0), rows;' . \
    '   emit("X", xl, order(xs, nx, xat, xl)); emit("Y", yl, order(ys, ny, yat, yl));' . \
    '   print "$HEAT << EOD"; print "cell_x,cell_y," head;' . \
    '   for (r = 1; r <= rows; r++) print xat[rx[r]] "," yat[ry[r]] "," row[r]; print "EOD" }'
XFOUND = 0; YFOUND = 0; ROWS = 0
load "< awk -v xc='" . xcol . "' -v yc='" . ycol . "' '" . cells_awk . "' '" . data . "'"
if (!XFOUND) { exit error sprintf("heatmap.gp: %s has no column x = %s", data, xcol) }
if (!YFOUND) { exit error sprintf("heatmap.gp: %s has no column y = %s", data, ycol) }
if (ROWS == 0) { exit error sprintf("heatmap.gp: %s has no row with both %s and %s", data, xcol, ycol) }
set datafile columnheaders
cells = ROWS
stats $HEAT using (known(zcol) ? 1 : 0) nooutput name 'K'
missing = cells - K_sum
if (!exists("labels")) labels = cells <= 300
zmin = 0; zmax = 1
if (K_sum > 0) { stats $HEAT using (zval(zcol)) nooutput name 'Z'; zmin = Z_min; zmax = Z_max }
if (!exists("diverging")) diverging = strstrt(zcol, 'mismatch') > 0
if (diverging) { zbound = abs(zmin) > abs(zmax) ? abs(zmin) : abs(zmax); zmin = -zbound; zmax = zbound }
if (zmax <= zmin) { zpad = zmin != 0 ? 0.05 * abs(zmin) : 1; zmin = zmin - zpad; zmax = zmax + zpad }
# Label text: white on the dark parts of the palette, black on the light ones.
ink(v) = diverging ? (abs(v) / zmax > 0.6 ? 0xffffff : 0x000000) : ((v - zmin) / (zmax - zmin) < 0.55 ? 0xffffff : 0x000000)
text(v) = isRate || ends(zcol, '_ms') || abs(v) >= 100 ? sprintf('%.0f', v) : sprintf('%.3g', v)

subtitle = provenance(data)
set title zlabel . ' over ' . key(xcol) . ' × ' . key(ycol) . (subtitle ne '' ? "\n" . subtitle : '')
set xlabel xlabel
set ylabel ylabel
set cblabel zlabel
set xrange [0.5:NX + 0.5]
set yrange [0.5:NY + 0.5]
set cbrange [zmin:zmax]
set tics out nomirror
# A tic on every cell, labelled by its value as written in the CSV. When the labels would not fit side by side (about
# 80 characters across the x axis, 24 labels up the y axis) only every 2nd (3rd, …) is labelled.
# Tic labels are gprintf formats, so a % in a value is doubled.
percents(s) = (_p = strstrt(s, '%')) > 0 ? s[1:_p] . '%' . percents(s[_p+1:]) : s
xwidth = 0
do for [i = 1:NX] { xwidth = strlen(XV[i]) > xwidth ? strlen(XV[i]) : xwidth }
xstep = 1 + int((NX * (xwidth + 2) - 1) / 80); ystep = 1 + int((NY - 1) / 24)
set xtics (percents(XV[1]) 1)
set ytics (percents(YV[1]) 1)
do for [i = 2:NX] { set xtics add (((i - 1) % xstep == 0 ? percents(XV[i]) : '') i) }
do for [i = 2:NY] { set ytics add (((i - 1) % ystep == 0 ? percents(YV[i]) : '') i) }
if (diverging) {
    # Blue below 0, white at 0, red above (the colours of mismatch-vs-duration.gp).
    set palette defined (0 '#2166ac', 0.25 '#92c5de', 0.5 '#f7f7f7', 0.75 '#f4a582', 1 '#b2182b')
} else {
    # Viridis: ordered in lightness, readable in grey and by most colour-blind readers.
    set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#fde725')
}
set style fill solid 1.0 noborder
unset key
if (missing > 0) {
    set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 fillcolor rgb '#bbbbbb' fillstyle solid noborder behind
    set label 1 sprintf('grey: no data (%d of %d points)', missing, cells) at screen 0.99, screen 0.02 right textcolor rgb '#555555'
}

if (K_sum > 0) {
    series = "$HEAT using 1:2:(0.505):(0.505):(zval(zcol)) with boxxyerror fillcolor palette"
    if (labels) { series = series . ", $HEAT using 1:2:(known(zcol) ? text(zval(zcol)) : ''):(ink(zval(zcol))) with labels textcolor rgb variable font ',8'" }
} else {
    series = "NaN notitle"
    set label 2 'no data in column ' . zcol at graph 0.5, graph 0.5 center front
}
eval 'plot ' . series

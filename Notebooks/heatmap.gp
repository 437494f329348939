# A heat map of one summary column over two swept parameters (from a grid `holdlab sweep` CSV): each cell is one
# point of the sweep, coloured by its value and labelled with it; grey cells have no data (NaN). Rates are shown in
# percent. Made for grids (--design grid, the default); Latin hypercube or Sobol points are drawn as small cells.
#
#   holdlab sweep --profile hig-linear-bar --vary gesture.minimumDuration=0.3:1.5:0.1 --vary fill.duration=0.5:1.5:0.1 --out grid.csv
#   holdlab plot heatmap --data grid.csv --out heatmap.png
#   holdlab plot heatmap --data grid.csv --var z=mismatch_p95_ms --out heatmap-mismatch.png
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
if (strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') {
    set terminal svg size 980,660 dynamic noenhanced font 'Sans,12'
} else {
    set terminal pngcairo size 980,660 noenhanced font 'Sans,11'
}
set output out
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

# The grid step on each axis: the smallest nonzero gap between consecutive rows' values (a grid lists one
# parameter's values inside the other's).
px = NaN; py = NaN
stats data using (_g = abs(column(xcol) - px), px = column(xcol), _g > 1e-12 ? _g : 1e300) nooutput name 'DX'
stats data using (_g = abs(column(ycol) - py), py = column(ycol), _g > 1e-12 ? _g : 1e300) nooutput name 'DY'
# One column at a time: two-column stats warn about regression errors on a few points.
stats data using (column(xcol)) nooutput name 'XS'
stats data using (column(ycol)) nooutput name 'YS'
dx = DX_min < 1e299 ? DX_min : (XS_min != 0 ? 0.2 * abs(XS_min) : 1)
dy = DY_min < 1e299 ? DY_min : (YS_min != 0 ? 0.2 * abs(YS_min) : 1)
cells = XS_records
stats data using (known(zcol) ? 1 : 0) nooutput name 'K'
missing = cells - K_sum
if (!exists("labels")) labels = cells <= 300
zmin = 0; zmax = 1
if (K_sum > 0) { stats data using (zval(zcol)) nooutput name 'Z'; zmin = Z_min; zmax = Z_max }
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
set xrange [XS_min - dx / 2:XS_max + dx / 2]
set yrange [YS_min - dy / 2:YS_max + dy / 2]
set cbrange [zmin:zmax]
set tics out nomirror
set xtics XS_min, (cells > 1 && dx < 1e299 && (XS_max - XS_min) / dx > 12 ? 2 * dx : dx)
set ytics YS_min, (cells > 1 && dy < 1e299 && (YS_max - YS_min) / dy > 12 ? 2 * dy : dy)
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
    series = "data using (column(xcol)):(column(ycol)):(0.505 * dx):(0.505 * dy):(zval(zcol)) with boxxyerror fillcolor palette"
    if (labels) { series = series . ", data using (column(xcol)):(column(ycol)):(known(zcol) ? text(zval(zcol)) : ''):(ink(zval(zcol))) with labels textcolor rgb variable font ',8'" }
} else {
    series = "NaN notitle"
    set label 2 'no data in column ' . zcol at graph 0.5, graph 0.5 center front
}
eval 'plot ' . series

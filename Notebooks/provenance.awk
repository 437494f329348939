# The provenance footer of every notebook's figure: one line from the '#' lines of HoldLab CSVs (tool version and
# command, profiles with their FNV-1a 64 hashes, populations, users, seed). Reads the files given; stops reading a
# file at its header row. Used by footer.gpi; run by hand: awk -f Notebooks/provenance.awk rates.csv
function add(list, item) {
    if (item == "" || index("\t" list "\t", "\t" item "\t")) return list
    return list == "" ? item : list "\t" item
}
function joined(list, separator,   parts, n, i, text) {
    n = split(list, parts, "\t")
    text = ""
    for (i = 1; i <= n; i++) text = text (i > 1 ? separator : "") parts[i]
    return text
}
!/^#/ { nextfile }
/^# holdlab: / { if (version == "") version = $3 " " $4 }
/^# (profile|sweep_profile): / { profiles = add(profiles, $3 " " $4) }
/^# design: / { profiles = add(profiles, ($3 == $5 ? $3 : $3 "=" $5) " " $6) }
/^# (population|sweep_population|impaired_population): / {
    # A sweep over several populations lists them separated by ' ; '.
    for (i = 3; i <= NF; i++) if (i == 3 || $(i - 1) == ";") populations = add(populations, $i)
}
/^# (users|sweep_users): / {
    line = $0
    sub(/^# [a-z_]+: /, "", line)
    split(line, halves, ", seed ")
    users = add(users, halves[1])
    if (halves[2] != "") { split(halves[2], s, " "); seeds = add(seeds, s[1]) }
}
/^# seed: / { seeds = add(seeds, $3) }
END {
    n = split(profiles, list, "\t")
    # More than two profiles: short hashes keep the line on the figure.
    if (n > 2) { profiles = ""; for (i = 1; i <= n; i++) { item = list[i]; sub(/fnv1a64:/, "", item); profiles = add(profiles, substr(item, 1, length(item) - 8)) } }
    if (version == "" && profiles == "" && populations == "" && users == "" && seeds == "") exit
    text = "holdlab " version
    if (profiles != "") text = text " · " joined(profiles, ", ")
    if (populations != "") text = text " · population " joined(populations, ", ")
    if (users != "") text = text " · users " joined(users, ", ")
    if (seeds != "") text = text " · seed " joined(seeds, ", ")
    print text
}

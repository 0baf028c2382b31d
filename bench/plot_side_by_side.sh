#!/bin/sh
# The plot of side_by_side.sh's runs: one panel per app, time against rank
# count (both logarithmic), gpumpi and the CPU MPI as two lines.
#   sh bench/plot_side_by_side.sh [RUNS_CSV [PNG]]
# Defaults: sbs_out/runs.csv and side_by_side.png beside it. Needs gnuplot
# (apt-get install -y gnuplot-nox).
set -e
CSV=${1:-sbs_out/runs.csv}
PNG=${2:-$(dirname "$CSV")/side_by_side.png}
command -v gnuplot >/dev/null || { echo "plot_side_by_side: no gnuplot (apt-get install -y gnuplot-nox)" >&2; exit 77; }
[ -f "$CSV" ] || { echo "plot_side_by_side: no $CSV" >&2; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
# apps with a passing run (gnuplot refuses a panel with nothing to draw)
apps=$(awk -F, 'NR > 1 && $6 == "PASS" && $5 > 0 && !seen[$1]++ { print $1 }' "$CSV")
n=$(echo "$apps" | wc -w)
[ "$n" -gt 0 ] || { echo "plot_side_by_side: no runs in $CSV" >&2; exit 1; }
cols=$(( n < 3 ? n : 3 ))
rows=$(( (n + cols - 1) / cols ))
{
    echo "set terminal pngcairo size $((cols * 520)),$((rows * 400)) font ',10'"
    echo "set output '$PNG'"
    echo "set multiplot layout $rows,$cols title 'gpumpi (one GPU) vs CPU MPI: time to solution, same problem'"
    echo "set logscale xy"
    echo "set xlabel 'ranks'"
    echo "set ylabel 'time (s)'"
    echo "set key top left"
    echo "set grid"
    for a in $apps; do
        # passing runs only, the fastest at each rank count
        # one line per gpumpi build (impl "gpumpi", or "gpumpi-NAME" when builds are compared)
        plot=
        for g in $(awk -F, -v a="$a" 'NR > 1 && $1 == a && $3 ~ /^gpumpi/ && !seen[$3]++ { print $3 }' "$CSV"); do
            awk -F, -v a="$a" -v g="$g" 'NR > 1 && $1 == a && $3 == g && $6 == "PASS" && $5 > 0 && (!($4 in t) || $5 + 0 < t[$4]) { t[$4] = $5 + 0 }
                END { for (np in t) print np, t[np] }' "$CSV" |
                sort -n >"$D/$a.$g"
            [ -s "$D/$a.$g" ] && plot="$plot${plot:+, }'$D/$a.$g' using 1:2 with linespoints lw 2 pt 7 title '$g'"
        done
        awk -F, -v a="$a" 'NR > 1 && $1 == a && $3 !~ /^gpumpi/ && $6 == "PASS" && $5 > 0 && (!($4 in t) || $5 + 0 < t[$4]) { t[$4] = $5 + 0 }
            END { for (np in t) print np, t[np] }' "$CSV" | sort -n >"$D/$a.cpu"
        cpu=$(awk -F, -v a="$a" 'NR > 1 && $1 == a && $3 !~ /^gpumpi/ { print $3; exit }' "$CSV")
        prob=$(awk -F, -v a="$a" 'NR > 1 && $1 == a { gsub(/"/, "", $2); print $2; exit }' "$CSV")
        echo "set title '$a ($prob)' noenhanced"
        if [ -s "$D/$a.cpu" ]; then
            [ -n "$plot" ] && plot="$plot, "
            plot="$plot'$D/$a.cpu' using 1:2 with linespoints lw 2 pt 5 title '${cpu:-CPU MPI}'"
        fi
        echo "plot $plot"
    done
    echo "unset multiplot"
} >"$D/plot.gp"
gnuplot "$D/plot.gp"
echo "plot: $PNG"

# p50 latency per method and glibc, from bench/syncbench.sh.
# gnuplot -e "datafile='P50.DAT'; outfile='OUT.png'; subtitle='...'" syncbench.gp
# P50.DAT: one line per method: name p50-unpatched p50-new p50-compat (us).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

if (!exists("subtitle")) subtitle = ""
set terminal pngcairo size 1400,640 font "sans,10"
set output outfile
set title "syncbench: median latency of one 8 KiB operation\n{/*0.85 ".subtitle."}"
set ylabel "p50 latency (microseconds, log scale)"
set logscale y
set grid ytics mytics
set key outside right top vertical Left reverse noenhanced width -4
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -30 nomirror noenhanced
set bmargin 7
plot datafile using 2:xtic(1) title "unpatched glibc" linecolor rgb "#4d4d4d", \
     '' using 3 title "patched glibc, new versions" linecolor rgb "#1f77b4", \
     '' using 4 title "patched glibc, old binary (compat versions)" linecolor rgb "#ff7f0e"
